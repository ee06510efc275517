/** GenerateFixture's refusals: each an SvcError whose message names what was asked. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { generateFixture, generateRequest, generateResponse, type FixtureRequestSpec } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';

const document = {
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/pets': {
      get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } }, '404': { description: 'x' } } },
      post: {
        requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'x' } },
      },
    },
    '/impossible/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 5, maxLength: 2 } }],
        responses: { '200': { description: 'x' } },
      },
      put: {
        requestBody: { required: true, content: { 'application/json': { schema: { allOf: [{ type: 'string' }, { type: 'integer' }] } } } },
        responses: {
          '200': { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Loop' } } } },
        },
      },
    },
  },
  components: { schemas: { Loop: { type: 'object', required: ['self'], properties: { self: { $ref: '#/components/schemas/Loop' } } } } },
} as unknown as OpenApiDocument;

function refusal(run: () => unknown): SvcError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof SvcError, `an SvcError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

const fixture = (spec: FixtureRequestSpec) => () => generateFixture(document, spec);

describe('fixture refusals', () => {
  it('Path not found: <path>', () => {
    const error = refusal(fixture({ method: 'GET', path: '/dogs' }));
    assert.equal(error.code, ErrorCode.PATH_NOT_FOUND);
    assert.equal(error.message, 'Path not found: /dogs');
  });

  it('a method the path does not define, naming the ones it does', () => {
    const error = refusal(fixture({ method: 'delete', path: '/pets' }));
    assert.equal(error.code, ErrorCode.INVALID_ARGUMENT);
    assert.equal(error.message, 'Method DELETE not defined for path /pets (defined: GET, POST)');
  });

  it('a method that is not an HTTP method', () => {
    assert.match(refusal(fixture({ method: 'FETCH', path: '/pets' })).message, /^method "FETCH" is not an HTTP method/);
    assert.match(refusal(fixture({ method: '', path: '/pets' })).message, /^method "" is not an HTTP method/);
  });

  it('a status code the operation does not define, naming the ones it does', () => {
    const error = refusal(fixture({ method: 'GET', path: '/pets', statusCode: 500 }));
    assert.equal(error.code, ErrorCode.INVALID_ARGUMENT);
    assert.equal(error.message, 'Status code 500 not defined for GET /pets (defined: 200, 404)');
    assert.match(refusal(fixture({ method: 'GET', path: '/pets', statusCode: 42 })).message, /status code 42 is not an HTTP status code/);
  });

  it('a content type the operation does not offer, naming the part and what it offers', () => {
    const error = refusal(() => generateResponse(document, { method: 'GET', path: '/pets', contentType: 'application/xml' }));
    assert.equal(error.message, 'content type "application/xml" not offered by the 200 response of GET /pets (offered: application/json)');
    const request = refusal(() => generateRequest(document, { method: 'POST', path: '/pets', contentType: 'application/json' }));
    assert.match(request.message, /^content type "application\/json" not offered by the request body of POST \/pets \(offered: multipart\/form-data\)/);
  });

  it('no refusal for a media type: every one a document offers is written (issue 15)', () => {
    const request = generateRequest(document, { method: 'POST', path: '/pets' });
    assert.match(request.headers['Content-Type']!, /^multipart\/form-data; boundary=/);
  });

  it('a schema that admits no value, rather than an invalid fixture', () => {
    const body = refusal(() => generateRequest(document, { method: 'PUT', path: '/impossible/{id}' }));
    assert.equal(body.code, ErrorCode.INVALID_SCHEMA);
    assert.match(body.message, /^no valid request body of PUT \/impossible\/\{id\} can be generated: at the root: no value satisfies the schema/);
    const response = refusal(() => generateResponse(document, { method: 'PUT', path: '/impossible/{id}' }));
    assert.match(response.message, /^no valid body for the 200 response of PUT \/impossible\/\{id\} can be generated: at \/self\/self.*fixtureMaxValueDepth/);
    const parameter = refusal(() => generateRequest(document, { method: 'GET', path: '/impossible/{id}' }));
    assert.match(parameter.message, /^no valid value for path parameter "id" of GET \/impossible\/\{id\} can be generated: at \/parameters\/path\/id: no string found/);
  });
  it('required headers larger together than validation reads (validationMaxHeaderBytes), rather than a fixture ValidateInteraction refuses', () => {
    // Each header within fixtureMaxStringLength and the request within fixtureMaxBodyBytes: 1.2 MB of
    // headers was generated, and the worker's decoding then failed the call (header_size).
    const header = (name: string) => ({ name, in: 'header', required: true, schema: { type: 'string', minLength: 600_000, maxLength: 600_000 } });
    const large = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/large': { get: { parameters: [header('X-A'), header('X-B')], responses: { '200': { description: 'x' } } } },
        '/small': { get: { parameters: [header('X-A')], responses: { '200': { description: 'x' } } } },
      },
    } as unknown as OpenApiDocument;
    const refused = refusal(() => generateRequest(large, { method: 'GET', path: '/large' }));
    assert.equal(refused.code, ErrorCode.INVALID_SCHEMA);
    assert.match(refused.message, /^no valid request for GET \/large can be generated: its headers would be 1\.1 MiB, over the limit of 1 MiB validation reads \(validationMaxHeaderBytes\)$/);
    assert.equal(generateRequest(large, { method: 'GET', path: '/small' }).headers['X-A']!.length, 600_000);
  });
  it('a value the generator cannot see is invalid is refused with what validation said, never handed out', () => {
    const keywords = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/dependent': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: {
          type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], dependentRequired: { a: ['c'] },
        } } } } } } },
        '/counted': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: {
          type: 'array', contains: { type: 'integer', minimum: 100 }, minContains: 2, items: { type: 'integer' },
        } } } } } } },
      },
    } as unknown as OpenApiDocument;
    const dependent = refusal(() => generateResponse(keywords, { method: 'GET', path: '/dependent' }));
    assert.equal(dependent.code, ErrorCode.INVALID_SCHEMA);
    assert.match(dependent.message, /^no valid 200 response of GET \/dependent can be generated: the one generated fails validation: response body: property "c" is required/);
    assert.match(refusal(() => generateResponse(keywords, { method: 'GET', path: '/counted' })).message, /fails validation: response body: must contain at least 2 matching items/);
  });
});
