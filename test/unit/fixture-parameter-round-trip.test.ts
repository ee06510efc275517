/**
 * Fixtures of query and cookie parameters in the styles where writing and reading once disagreed:
 * exploded pipeDelimited and spaceDelimited arrays (OpenAPI gives them no serialization of their
 * own), cookie arrays and objects (written percent-encoded whole, so their commas never split), and
 * cookie pieces that need encoding (read without decoding). The generated request must validate, and
 * validation reads what clients send for them.
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
    '/hosts/{addresses}': {
      get: {
        parameters: [{ name: 'addresses', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', minItems: 2, items: { type: 'string', format: 'ipv4' } } }],
        responses: { 204: { description: 'found' } },
      },
    },
    '/required-list': {
      get: {
        parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'array', items: { type: 'string' } }, example: [] }],
        responses: { 204: { description: 'found' } },
      },
    },
    '/cookie-text': {
      get: {
        parameters: [
          { name: 'who', in: 'cookie', required: true, schema: { type: 'string', enum: ['Ana María, 100%'] } },
          { name: 'names', in: 'cookie', required: true, schema: { type: 'array', items: { type: 'string', enum: ['a,b', 'c d'] }, minItems: 2 } },
          { name: 'at', in: 'cookie', required: true, content: { 'application/json': { schema: POINT } } },
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
    assertInvalid(get('/cookie', { cookie: 'tags=1%2C2; pos=x=1,y=2; pair=x,1,y,2' }), 'request_invalid', 'parameter "tags" in cookie: value "1,2" is not a valid integer');
  });

  it('percent-decodes each cookie piece after splitting, and takes a quoted value without its quotes', () => {
    assertValid(get('/cookie-text', { cookie: 'who=Ana%20Mar%C3%ADa%2C%20100%25; names=a%2Cb,c%20d; at=%7B%22x%22%3A1%2C%22y%22%3A2%7D' }));
    assertValid(get('/cookie-text', { cookie: 'who="Ana%20Mar%C3%ADa%2C%20100%25"; names="c%20d,c%20d"; at={"x":1,"y":2}' }));
    assertInvalid(
      get('/cookie-text', { cookie: 'who=Ana%20Mar%C3%ADa%2C%20100%25; names=a,b; at={"x":1,"y":2}' }),
      'request_invalid',
      'parameter "names" in cookie /0: value "a" must be one of "a,b", "c d"',
      'parameter "names" in cookie /1: value "b" must be one of "a,b", "c d"',
    );
    // A malformed escape stays as written rather than failing the call.
    assertInvalid(get('/cookie-text', { cookie: 'who=100%; names=a%2Cb,c%20d; at={"x":1,"y":2}' }), 'request_invalid', 'parameter "who" in cookie: value "100%" must be one of "Ana María, 100%"');
  });

  it('writes cookie arrays and objects with plain commas, and they validate', () => {
    const generated = generateRequest(document, { method: 'GET', path: '/cookie' });
    assert.match(generated.headers.Cookie!, /^tags=-?\d+(,-?\d+)+; pos=x=-?\d+,y=-?\d+; pair=x,-?\d+,y,-?\d+$/);
    assertValid(get(generated.path, generated.headers));
  });

  it('writes cookie pieces percent-encoded, and they validate', () => {
    const generated = generateRequest(document, { method: 'GET', path: '/cookie-text' });
    assert.match(generated.headers.Cookie!, /^who=Ana%20Mar%C3%ADa%2C%20100%25; names=(a%2Cb|c%20d)(,(a%2Cb|c%20d))+; at=%7B/);
    assertValid(get(generated.path, generated.headers));
  });
  it('writes a label item\'s dots encoded, so that exploded items split where they should, and they validate', () => {
    assertValid(get('/hosts/.192%2E0%2E2%2E1.10%2E0%2E0%2E1'));
    assertInvalid(get('/hosts/.192.0.2.1'), 'request_invalid', 'parameter "addresses" in path /0: value "192" must match format "ipv4"',
      'parameter "addresses" in path /1: value "0" must match format "ipv4"', 'parameter "addresses" in path /2: value "2" must match format "ipv4"',
      'parameter "addresses" in path /3: value "1" must match format "ipv4"');
    const generated = generateRequest(document, { method: 'GET', path: '/hosts/{addresses}' });
    assert.match(generated.path, /^\/hosts\/(\.\d+%2E\d+%2E\d+%2E\d+){2,}$/);
    assertValid(get(generated.path));
  });
  it('never writes a required parameter empty: an empty array would write no value at all', () => {
    const generated = generateRequest(document, { method: 'GET', path: '/required-list', useExamples: true });
    assert.match(generated.path, /^\/required-list\?q=[^&]+/);
    assertValid(get(generated.path));
  });
});
