/**
 * Regression (review C): `x-nullable: true` and `readOnly: true` beside a Swagger 2.0 `$ref` were
 * dropped by the conversion (it keeps a `$ref` object's `$ref` alone), while the same model written
 * in OpenAPI 3.0 (`nullable`, `readOnly` beside `$ref`) is honoured: null owners were refused, and
 * a read-only property required in requests. The converted document now says what the 3.0 one
 * says, and validation and the breaking-change engine read both alike.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { compareDocuments } from '../../src/shared/compare';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, response, textContract } from '../helpers/validation-contracts';

const OWNER = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };

function swagger(pet: object, title = 'pets'): string {
  return JSON.stringify({
    swagger: '2.0',
    info: { title, version: '1.0.0' },
    paths: {
      '/pets': {
        post: {
          parameters: [
            { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } },
            { $ref: '#/parameters/Trace' },
          ],
          responses: { 200: { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
        },
      },
      '/owners': { get: { responses: { 200: { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/Owner', 'x-nullable': true } } } } } },
    },
    parameters: { Trace: { name: 'X-Trace', in: 'header', type: 'string' } },
    definitions: { Owner: OWNER, Pet: pet },
  });
}

const PET = {
  type: 'object',
  required: ['owner', 'audit'],
  properties: {
    owner: { $ref: '#/definitions/Owner', 'x-nullable': true, description: 'who' },
    audit: { $ref: '#/definitions/Owner', readOnly: true },
  },
};

describe('regression: x-nullable and readOnly beside a Swagger 2.0 $ref', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  before(async () => {
    ({ document, contract } = await textContract(swagger(PET)));
  });
  const json = { 'content-type': 'application/json' };
  const post = (body: unknown, answer?: unknown) => contract.validateInteraction({
    request: request('POST', '/pets', { headers: json, body }),
    ...(answer === undefined ? {} : { response: response(200, { headers: json, body: answer }) }),
  });

  it('converts them to what an OpenAPI 3.0 document says', () => {
    const components = document.components as { schemas: Record<string, any> };
    assert.deepEqual(components.schemas.Pet.properties, {
      owner: { $ref: '#/components/schemas/Owner', nullable: true },
      audit: { $ref: '#/components/schemas/Owner', readOnly: true },
    });
    const owners = (document.paths!['/owners'] as any).get.responses['200'].content['application/json'].schema;
    assert.deepEqual(owners.items, { $ref: '#/components/schemas/Owner', nullable: true });
    assert.deepEqual((document.paths!['/pets'] as any).post.parameters, [{ $ref: '#/components/parameters/Trace' }]);
  });

  it('accepts null where x-nullable says so, and still checks other values against the referenced schema', () => {
    assertValid(post({ owner: null }, { owner: null, audit: { name: 'x' } }));
    assertValid(post({ owner: { name: 'Ada' } }));
    assertInvalid(post({ owner: {} }), 'request_invalid', 'request body /owner: property "name" is required');
    assertInvalid(post({ owner: { name: 1 } }), 'request_invalid', 'request body /owner/name: must be string');
    assertInvalid(post({ owner: null }, { owner: null, audit: null }), 'response_invalid', 'response body /audit: must be object');
    assertValid(contract.validateInteraction({ request: request('GET', '/owners'), response: response(200, { headers: json, body: [null, { name: 'Ada' }] }) }));
  });

  it('holds a read-only property out of requests and to its response requirement', () => {
    assertInvalid(post({ owner: null, audit: { name: 'x' } }), 'request_invalid', 'request body: property "audit" is read-only');
    assertInvalid(post({ owner: null }, { owner: null }), 'response_invalid', 'response body: property "audit" is required');
  });

  it('two versions of the document compare without changes; dropping x-nullable is a change', async () => {
    const first = (await loadSchema(swagger(PET))).document;
    const second = (await loadSchema(swagger(PET, 'pets, again'))).document;
    assert.deepEqual(compareDocuments(first, second), []);
    const { 'x-nullable': _nullable, ...strictOwner } = PET.properties.owner;
    const strict = (await loadSchema(swagger({ ...PET, properties: { ...PET.properties, owner: strictOwner } }))).document;
    const changes = compareDocuments(first, strict);
    assert.deepEqual(changes.map(({ type, oldValue, newValue }) => ({ type, oldValue, newValue })), [
      { type: 'TYPE_CHANGED', oldValue: 'object | null', newValue: 'object' },
    ]);
  });
});
