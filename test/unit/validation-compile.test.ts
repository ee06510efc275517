/**
 * Lazy schema compilation and its limits (DESIGN rules 2–4): a schema that cannot be compiled
 * fails its own operation with a clear `router_creation` message; the rest of the contract works.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompiledContract, NOT_PREPARED, type ContractOptions, type ValidationOutcome } from '../../src/shared/validation';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, request, response } from '../helpers/validation-contracts';

function contractFor(schema: unknown, components: object = {}, options?: Partial<ContractOptions>): CompiledContract {
  const document = {
    openapi: '3.0.3',
    paths: {
      '/items': {
        post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '204': { description: 'stored' } } },
      },
      '/ping': { get: { parameters: [{ name: 'n', in: 'query', schema: { type: 'integer' } }], responses: { '204': { description: 'pong' } } } },
    },
    components: { schemas: components },
  } as unknown as OpenApiDocument;
  return new CompiledContract(document, options);
}

const postItems = (contract: CompiledContract, body: unknown = {}) =>
  contract.validateInteraction({ request: request('POST', '/items', { body }) });

function nestedObject(levels: number): object {
  let schema: object = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { a: schema, b: { type: 'integer' } } };
  return schema;
}

describe('schema compilation', () => {
  it('stops at the compile budget and names the limit', () => {
    const contract = contractFor(nestedObject(10), {}, { maxCompileSchemaNodes: 12 });
    const expected = 'request body schema of POST /items could not be compiled: it reaches more than 12 schema objects (maxCompileSchemaNodes)';
    assertInvalid(postItems(contract), 'router_creation', expected);
    // Remembered, not retried; other operations are unaffected.
    assertInvalid(postItems(contract), 'router_creation', expected);
    assertValid(contract.validateInteraction({ request: request('GET', '/ping?n=1') }));
  });

  it('counts the schemas a $ref reaches in the budget', () => {
    const contract = contractFor({ $ref: '#/components/schemas/Deep' }, { Deep: nestedObject(10) }, { maxCompileSchemaNodes: 12 });
    assertInvalid(
      postItems(contract),
      'router_creation',
      'request body schema of POST /items could not be compiled: it reaches more than 12 schema objects (maxCompileSchemaNodes)',
    );
  });

  it('refuses objects with more properties than the limit', () => {
    const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string' }]));
    const contract = contractFor({ type: 'object', properties }, {}, { maxSchemaObjectProperties: 10 });
    assertInvalid(
      postItems(contract),
      'router_creation',
      'request body schema of POST /items could not be compiled: a schema declares 20 properties, over the limit of 10 (maxSchemaObjectProperties)',
    );
  });

  it('reports references that do not resolve or leave the document', () => {
    assertInvalid(
      postItems(contractFor({ type: 'object', properties: { a: { $ref: '#/components/schemas/Missing' } } })),
      'router_creation',
      'request body schema of POST /items could not be compiled: $ref "#/components/schemas/Missing" does not resolve in the document',
    );
    assertInvalid(
      postItems(contractFor({ $ref: 'https://example.com/schema.json' })),
      'router_creation',
      'request body schema of POST /items could not be compiled: $ref "https://example.com/schema.json" is not a local reference into the document',
    );
  });

  it('compiles a schema whose pattern RE2 cannot run (proven safe, or not enforced: issue 15)', () => {
    const outcome = postItems(contractFor({ type: 'string', pattern: '^(?=a)a$' }), '"a"');
    assert.deepEqual(outcome, { valid: true, errors: [] });
  });

  it('reports $refs that loop without descending into the data', () => {
    const contract = contractFor({ $ref: '#/components/schemas/A' }, {
      A: { allOf: [{ $ref: '#/components/schemas/B' }] },
      B: { allOf: [{ $ref: '#/components/schemas/A' }] },
    });
    assertInvalid(postItems(contract), 'request_invalid', 'request body could not be validated: the schema refers to itself without end');
  });

  it('compiles a component shared by several operations and directions once per direction', () => {
    const document = {
      openapi: '3.0.3',
      paths: Object.fromEntries(
        Array.from({ length: 5 }, (_, i) => [
          `/things${i}`,
          {
            post: {
              requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
              responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
            },
          },
        ]),
      ),
      components: { schemas: { Thing: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
    } as unknown as OpenApiDocument;
    // Budget of 2 schema objects: enough for Thing in each direction, never for a second copy.
    const contract = new CompiledContract(document, { maxCompileSchemaNodes: 2 });
    for (let i = 0; i < 5; i++) {
      assertInvalid(
        contract.validateInteraction({ request: request('POST', `/things${i}`, { body: {} }), response: { statusCode: 200, headers: {}, body: '{}' } }),
        'request_invalid',
        'request body: property "name" is required',
        'response body: property "name" is required',
      );
    }
    assert.equal(contract.compiledOperationCount, 5);
  });

  it('ignores type values that are not JSON types (a converted v2 "file")', () => {
    assertValid(postItems(contractFor({ type: 'object', properties: { upload: { type: 'file' } } }), { upload: 'bytes' }));
  });
});

describe('validating only prepared operations (preparedOnly, for the pool\'s shared batches)', () => {
  const prepared = { preparedOnly: true };
  const outcomeOf = (answer: ValidationOutcome | typeof NOT_PREPARED): ValidationOutcome => {
    assert.notEqual(answer, NOT_PREPARED);
    return answer as ValidationOutcome;
  };

  it('runs nothing for an operation not validated before, and validates it once it has been', () => {
    const contract = contractFor({ type: 'object', required: ['name'] });
    const call = { request: request('POST', '/items', { body: {} }) };
    assert.equal(contract.validateInteraction(call, prepared), NOT_PREPARED);
    assert.equal(contract.compiledOperationCount, 0, 'nothing was prepared for the call it did not run');
    assertInvalid(contract.validateInteraction(call), 'request_invalid', 'request body: property "name" is required');
    assertInvalid(outcomeOf(contract.validateInteraction(call, prepared)), 'request_invalid', 'request body: property "name" is required');
    // Another operation of the same contract is still cold.
    assert.equal(contract.validateInteraction({ request: request('GET', '/ping') }, prepared), NOT_PREPARED);
  });

  it('answers a call that finds no operation at once', () => {
    const contract = contractFor({ type: 'object' });
    assertInvalid(outcomeOf(contract.validateInteraction({ request: request('GET', '/nowhere') }, prepared)), 'route_not_found', 'Path not found: /nowhere');
    assertInvalid(
      outcomeOf(contract.validateProducerResponse({ method: 'GET', path: '/nowhere', response: response(204) }, prepared)),
      'route_not_found',
      'Path not found: /nowhere',
    );
  });

  it('in producer mode, judges the operation the call reaches, also through the request\'s path', () => {
    const contract = contractFor({ type: 'object' });
    // `path` matches nothing, so the request's path finds the operation: still a first call.
    const call = { method: 'GET', path: '/elsewhere', response: response(204), request: request('GET', '/ping') };
    assert.equal(contract.validateProducerResponse(call, prepared), NOT_PREPARED);
    assertValid(contract.validateProducerResponse(call));
    assertValid(outcomeOf(contract.validateProducerResponse(call, prepared)));
  });
});
