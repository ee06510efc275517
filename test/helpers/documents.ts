/** Small OpenAPI documents built in code, for tests that need many variants. */
import fs from 'node:fs';
import { fixturePath } from './paths';

export function readSchemaFixture(name: string): string {
  return fs.readFileSync(fixturePath('schemas', name), 'utf8');
}

/** A minimal valid OpenAPI 3.0 document; `extraPaths` are merged into `paths`. */
export function minimalDocument(version = '1.0.0', extraPaths: Record<string, unknown> = {}, title = 'Minimal'): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title, version },
    paths: {
      '/ping': { get: { operationId: 'ping', responses: { 200: { description: 'pong' } } } },
      ...extraPaths,
    },
  });
}

/**
 * `operations` GETs `/r{i}/{id}`, each answering an object of `changedProperties` properties that are
 * integers, or strings when `changed`: between the two, operations × changedProperties breaking
 * changes, for the deploy-gate load tests.
 */
export function breakingChangesDocument(version: string, changed: boolean, operations: number, changedProperties: number): string {
  const properties = Object.fromEntries(Array.from({ length: changedProperties }, (_, i) => [`p${i}`, { type: changed ? 'string' : 'integer' }]));
  const paths = Object.fromEntries(Array.from({ length: operations }, (_, i) => [`/r${i}/{id}`, {
    get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } },
    },
  }]));
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'gate', version }, paths });
}

/**
 * Every HTTP method of one path of `pathChars` characters answers the component S of 1,000 properties,
 * integers or strings when `changed`: between the two, 8,000 breaking changes that each repeat the path.
 */
export function longPathChangesDocument(version: string, changed: boolean, pathChars: number): string {
  const properties = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, { type: changed ? 'string' : 'integer' }]));
  const operation = { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/S' } } } } } };
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'long path', version },
    paths: { [`/${'a'.repeat(pathChars)}`]: Object.fromEntries(methods.map((method) => [method, operation])) },
    components: { schemas: { S: { type: 'object', properties } } },
  });
}

/**
 * 9,999 items, each picked from an enum of 30,000 members checked one by one: generating a response
 * for GET /grid runs until fixtureMaxMs (10 s) stops it (about a minute otherwise), well within
 * fixtureMaxGeneratedChars.
 */
export const SLOW_FIXTURE_DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Grid', version: '1.0.0' },
  paths: { '/grid': { get: { responses: { 200: { description: 'ok', content: { 'application/json': {
    schema: { type: 'array', minItems: 9_999, items: { type: 'string', enum: Array.from({ length: 30_000 }, (_, i) => `v${i}`) } },
  } } } } } } },
});
