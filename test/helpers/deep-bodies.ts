/**
 * Bodies whose violations sit under long JSON pointers made of their own keys: the shape an outside
 * probe used to turn a 100 KB body into a 9.9 MB ValidationResult.
 */
/** Node: `leaf` is an array of integers, any other property is another Node. */
export const DEEP_SCHEMA = {
  openapi: '3.0.3',
  info: { title: 'deep', version: '1.0.0' },
  paths: { '/d': { post: {
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
    responses: { 204: { description: 'ok' } },
  } } },
  components: { schemas: { Node: { type: 'object', properties: { leaf: { type: 'array', items: { type: 'integer' } } }, additionalProperties: { $ref: '#/components/schemas/Node' } } } },
};

/** `levels` objects deep, each key `keyChars` long, with `items` strings at the bottom (each a violation). */
export function deepBody(levels: number, keyChars: number, items: number): string {
  let inner = JSON.stringify({ leaf: Array.from({ length: items }, () => 'x') });
  for (let i = levels - 1; i >= 0; i--) inner = `{"${String(i).padEnd(keyChars, 'k')}":${inner}}`;
  return inner;
}

export function deepInteraction(body: string, correlationId = '') {
  return {
    schema_id: 'deep',
    correlation_id: correlationId,
    request: { method: 'POST', path: '/d', headers: { 'content-type': 'application/json' }, body },
    response: { status_code: 204, headers: {}, body: '' },
  };
}
