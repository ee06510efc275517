/**
 * Large OpenAPI documents built in code, for tests that need a comparison costly enough to be
 * seen (hundreds of milliseconds, like GitHub's REST description) without a corpus download.
 * Every operation has its own inline, nested request and response schemas, so the engine compares
 * each of them rather than one shared component.
 */

export interface LargeApiOptions {
  /** Operations, one path each. */
  operations: number;
  /** Levels of nested objects under each request and response body. */
  depth: number;
  /** Properties per object level. */
  width: number;
  /**
   * Every `breakEvery`-th operation loses its response's first property, and changes the type of
   * its request body's first property: a breaking version to compare with the plain one.
   */
  breakEvery?: number;
}

/** The document as registration text (JSON). */
export function largeApiDocument(version: string, options: LargeApiOptions): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < options.operations; i++) {
    const broken = options.breakEvery !== undefined && i % options.breakEvery === 0;
    paths[`/resources${i}/{id}`] = {
      put: {
        operationId: `putResource${i}`,
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } },
          { name: 'expand', in: 'query', schema: { type: 'string', enum: ['owner', 'items', 'history'] } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: nestedObject(options.depth, options.width, broken ? 'type' : undefined) } } },
        responses: {
          200: { description: 'the resource', content: { 'application/json': { schema: nestedObject(options.depth, options.width, broken ? 'remove' : undefined) } } },
          404: { description: 'not found' },
        },
      },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Large', version }, paths });
}

/** Breaking changes `largeApiDocument` plants with `breakEvery` (a type change and a removed property per broken operation). */
export function plantedBreakingChanges(options: LargeApiOptions): number {
  return options.breakEvery === undefined ? 0 : 2 * Math.ceil(options.operations / options.breakEvery);
}

/** `change` applies to the first property of the top level only. */
function nestedObject(depth: number, width: number, change?: 'type' | 'remove'): object {
  const properties: Record<string, unknown> = {};
  for (let p = 0; p < width; p++) {
    if (p === 0 && change === 'remove') continue;
    const leaf = p % 2 === 0
      ? { type: p === 0 && change === 'type' ? 'string' : 'integer', minimum: 0 }
      : { type: 'string', maxLength: 64, enum: p === 1 ? ['a', 'b', 'c'] : undefined };
    properties[`field${p}`] = depth > 1 && p === width - 1 ? nestedObject(depth - 1, width) : leaf;
  }
  properties.items = { type: 'array', items: depth > 1 ? nestedObject(depth - 1, width) : { type: 'string' } };
  return { type: 'object', required: ['field0', 'field1'].filter((name) => name in properties), properties };
}
