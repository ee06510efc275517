/**
 * Fixtures of query and cookie parameters in the styles where writing and reading once disagreed:
 * exploded pipeDelimited and spaceDelimited arrays (OpenAPI gives them no serialization of their
 * own), and cookie arrays and objects (written percent-encoded whole, so their commas never split).
 * The generated request must validate, and validation reads what clients send for them.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateRequest } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, textContract } from '../helpers/validation-contracts';

const INTEGERS = { type: 'array', items: { type: 'integer' }, minItems: 2 };
const POINT = { type: 'object', required: ['x', 'y'], properties: { x: { type: 'integer' }, y: { type: 'integer' } } };

const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'parameter round trips', version: '1.0.0' },
  paths: {
    '/query': {
      get: {
        parameters: [
          { name: 'ids', in: 'query', required: true, style: 'pipeDelimited', explode: true, schema: INTEGERS },
          { name: 'sizes', in: 'query', required: true, style: 'spaceDelimited', explode: true, schema: INTEGERS },
        ],
        responses: { 204: { description: 'found' } },
      },
    },
    '/cookie': {
      get: {
        parameters: [
          { name: 'tags', in: 'cookie', required: true, schema: INTEGERS },
          { name: 'pos', in: 'cookie', required: true, schema: POINT },
          { name: 'pair', in: 'cookie', required: true, explode: false, schema: POINT },
        ],
        responses: { 204: { description: 'found' } },
      },
    },
  },
});

describe('fixture parameters round-trip through validation', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  before(async () => {
    ({ document, contract } = await textContract(DOCUMENT));
  });
  const get = (path: string, headers: Record<string, string> = {}) => contract.validateInteraction({ request: request('GET', path, { headers }) });

  it('reads an exploded pipeDelimited or spaceDelimited array from repeated names or from one value', () => {
    assertValid(get('/query?ids=1&ids=2&sizes=3&sizes=4'));
    assertValid(get('/query?ids=1|2&sizes=3%204'));
    assertInvalid(get('/query?ids=1&ids=x&sizes=3&sizes=4'), 'request_invalid', 'parameter "ids" in query: value "x" is not a valid integer');
  });

  it('writes exploded query arrays as repeated names, and they validate', () => {
    const generated = generateRequest(document, { method: 'GET', path: '/query' });
    assert.match(generated.path, /^\/query\?ids=-?\d+(&ids=-?\d+)+&sizes=-?\d+(&sizes=-?\d+)+$/);
    assertValid(get(generated.path));
  });

  it('reads cookie arrays and objects split on commas, exploded objects as k=v', () => {
    assertValid(get('/cookie', { cookie: 'tags=1,2; pos=x=1,y=2; pair=x,1,y,2' }));
    assertInvalid(get('/cookie', { cookie: 'tags=1%2C2; pos=x=1,y=2; pair=x,1,y,2' }), 'request_invalid', 'parameter "tags" in cookie: value "1%2C2" is not a valid integer');
  });

  it('writes cookie arrays and objects with plain commas, and they validate', () => {
    const generated = generateRequest(document, { method: 'GET', path: '/cookie' });
    assert.match(generated.headers.Cookie!, /^tags=-?\d+(,-?\d+)+; pos=x=-?\d+,y=-?\d+; pair=x,-?\d+,y,-?\d+$/);
    assertValid(get(generated.path, generated.headers));
  });
});
