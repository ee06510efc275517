/**
 * Regression (review C): a Swagger 2.0 response schema whose operation names no `produces` became
 * content `*\/*` in the conversion, so a response of any content type, or of none, went
 * unchecked. Spec "Schema loading rules" 2: a response schema becomes content application/json; a
 * request body without `consumes` already did. A download (`type: file`) stays open to any type.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, response, textContract } from '../helpers/validation-contracts';

const PET = { $ref: '#/definitions/Pet' };
const DOCUMENT = JSON.stringify({
  swagger: '2.0',
  info: { title: 'media types', version: '1.0.0' },
  basePath: '/api',
  paths: {
    '/pets': {
      post: {
        parameters: [{ name: 'body', in: 'body', required: true, schema: PET }],
        responses: { 200: { description: 'ok', schema: PET } },
      },
    },
    '/cleared': { get: { produces: [], responses: { 200: { description: 'ok', schema: PET } } } },
    '/xml': { get: { produces: ['application/xml'], responses: { 200: { description: 'ok', schema: PET } } } },
    '/photo': { get: { responses: { 200: { description: 'a download', schema: { type: 'file' } } } } },
    '/shared-photo': { get: { responses: { 200: { $ref: '#/responses/Photo' } } } },
    '/shared-pet': { get: { responses: { 200: { $ref: '#/responses/OnePet' } } } },
  },
  responses: { Photo: { description: 'a download', schema: { type: 'file' } }, OnePet: { description: 'a pet', schema: PET } },
  definitions: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
});

describe('regression: Swagger 2.0 bodies without produces or consumes', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  before(async () => {
    ({ document, contract } = await textContract(DOCUMENT));
  });
  const json = { 'content-type': 'application/json' };
  const post = request('POST', '/api/pets', { headers: json, body: { name: 'Rex' } });
  const contentOf = (path: string, method: string, part: (operation: any) => any) => Object.keys(part((document.paths![path] as any)[method]).content);

  it('declares application/json for a response schema and a request body', () => {
    assert.deepEqual(contentOf('/pets', 'post', (operation) => operation.responses['200']), ['application/json']);
    assert.deepEqual(contentOf('/pets', 'post', (operation) => operation.requestBody), ['application/json']);
    assert.deepEqual(contentOf('/cleared', 'get', (operation) => operation.responses['200']), ['application/json']);
    assert.deepEqual(contentOf('/xml', 'get', (operation) => operation.responses['200']), ['application/xml']);
  });

  it('checks the response body and its content type', () => {
    assertValid(contract.validateInteraction({ request: post, response: response(200, { headers: json, body: { name: 'Rex' } }) }));
    assertInvalid(
      contract.validateInteraction({ request: post, response: response(200, { headers: json, body: { name: 2 } }) }),
      'response_invalid', 'response body /name: must be string',
    );
    assertInvalid(
      contract.validateInteraction({ request: post, response: response(200, { body: { name: 2 } }) }),
      'response_invalid', 'response body /name: must be string',
    );
    assertInvalid(
      contract.validateInteraction({ request: post, response: response(200, { headers: { 'content-type': 'text/html' }, body: '<html>' }) }),
      'response_invalid', 'response content type "text/html" is not allowed (expected application/json)',
    );
  });

  it('keeps a download (type: file) open to any media type, a shared one too', () => {
    assert.deepEqual(contentOf('/photo', 'get', (operation) => operation.responses['200']), ['*/*']);
    for (const path of ['/api/photo', '/api/shared-photo']) {
      assertValid(contract.validateInteraction({ request: request('GET', path), response: response(200, { headers: { 'content-type': 'image/png' }, body: 'PNG' }) }));
    }
  });

  it('an operation\'s empty produces names nothing: application/json, not the document\'s list', async () => {
    const { document: withProduces } = await textContract(JSON.stringify({
      swagger: '2.0',
      info: { title: 'xml', version: '1.0.0' },
      produces: ['application/xml'],
      paths: { '/cleared': { get: { produces: [], responses: { 200: { description: 'ok', schema: PET } } } }, '/xml': { get: { responses: { 200: { description: 'ok', schema: PET } } } } },
      definitions: { Pet: { type: 'object' } },
    }));
    const content = (path: string) => Object.keys((withProduces.paths![path] as any).get.responses['200'].content);
    assert.deepEqual([content('/cleared'), content('/xml')], [['application/json'], ['application/xml']]);
  });

  it('declares application/json for a shared response with a schema', () => {
    assert.deepEqual(Object.keys((document.components!.responses as any).OnePet.content), ['application/json']);
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/api/shared-pet'), response: response(200, { headers: { 'content-type': 'text/html' }, body: '<html>' }) }),
      'response_invalid', 'response content type "text/html" is not allowed (expected application/json)',
    );
  });
});
