/** OpenAPI 3.1 documents: JSON Schema 2020-12 (type lists, const, prefixItems, unevaluatedProperties, $ref siblings). */
import { before, describe, it } from 'node:test';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, fixtureContract, request, response, textContract } from '../helpers/validation-contracts';

const ORDER = { kind: 'order', total: 12.5, lines: [{ sku: 'A-1', quantity: 2 }], note: null, position: [1.5, 2] };

describe('OpenAPI 3.1', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('orders-3.1.json');
  });
  const create = (body: unknown, query = '') => contract.validateInteraction({ request: request('POST', `/orders${query}`, { body }) });

  it('matches paths with and without a relative server URL (/shop)', () => {
    const order = { ...ORDER, id: 'AB-1' };
    assertValid(contract.validateInteraction({ request: request('GET', '/shop/orders/AB-1'), response: response(200, { body: order }) }));
    assertValid(contract.validateInteraction({ request: request('GET', '/orders/AB-1'), response: response(200, { body: order }) }));
  });

  it('checks path parameter patterns', () => {
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/orders/ab-1') }),
      'request_invalid',
      'parameter "orderId" in path: value "ab-1" must match pattern "^[A-Z]{2}-[0-9]+$"',
    );
  });

  it('coerces parameters whose type is a list (["integer", "null"])', () => {
    assertValid(create(ORDER, '?priority=5'));
    assertInvalid(create(ORDER, '?priority=9'), 'request_invalid', 'parameter "priority" in query: value "9" must be <= 5');
    assertInvalid(create(ORDER, '?priority=high'), 'request_invalid', 'parameter "priority" in query: value "high" must be integer or null');
    assertValid(create(ORDER, '?priority=null'));
  });

  it('applies const, numeric exclusiveMinimum and type lists', () => {
    assertInvalid(
      create({ ...ORDER, kind: 'refund', total: 0, note: 5 }),
      'request_invalid',
      'request body /kind: must be equal to "order"',
      'request body /total: must be > 0',
      'request body /note: must be string or null',
    );
  });

  it('applies prefixItems with items: false', () => {
    assertInvalid(create({ ...ORDER, position: [1, 2, 3] }), 'request_invalid', 'request body /position: must have at most 2 items');
  });

  it('applies unevaluatedProperties: false', () => {
    assertInvalid(create({ ...ORDER, bogus: true }), 'request_invalid', 'request body: unexpected property "bogus"');
  });

  it('applies dependentRequired', () => {
    assertInvalid(
      create({ ...ORDER, lines: [{ sku: 'A-1', discount: 5 }] }),
      'request_invalid',
      'request body /lines/0: property "reason" is required when property "discount" is present',
    );
  });

  it('applies keywords beside $ref', () => {
    assertValid(create({ ...ORDER, extra: { gift: 'yes' } }));
    assertInvalid(
      create({ ...ORDER, extra: { gift: 'yes', wrap: 7 } }),
      'request_invalid',
      'request body /extra/wrap: must be string',
      'request body /extra: must have at most 1 property',
    );
  });

  it('keeps readOnly semantics', () => {
    assertInvalid(create({ ...ORDER, id: 'AB-1' }), 'request_invalid', 'request body: property "id" is read-only');
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/orders/AB-1'), response: response(200, { body: ORDER }) }),
      'response_invalid',
      'response body: property "id" is required',
    );
  });

  it('reads a parameter whose type lists several types as whichever of them its text is', async () => {
    const parameters = [
      { name: 'either', in: 'query', schema: { type: ['integer', 'string'] } },
      { name: 'flag', in: 'query', schema: { type: ['boolean', 'integer', 'null'] } },
      { name: 'bounded', in: 'query', schema: { type: ['integer', 'boolean'], maximum: 10 } },
    ];
    const { contract: listed } = await textContract(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'type lists', version: '1.0.0' },
      paths: { '/items': { get: { parameters, responses: { 204: { description: 'listed' } } } } },
    }));
    const get = (query: string) => listed.validateInteraction({ request: request('GET', `/items?${query}`) });
    assertValid(get('either=abc&flag=5&bounded=true'));
    assertValid(get('either=7&flag=true&bounded=10'));
    assertInvalid(get('bounded=11'), 'request_invalid', 'parameter "bounded" in query: value "11" must be <= 10');
    assertInvalid(get('flag=maybe'), 'request_invalid', 'parameter "flag" in query: value "maybe" must be boolean or integer or null');
  });

  it('names the item limit of unevaluatedItems: false', async () => {
    const { contract: pairs } = await textContract(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'pairs', version: '1.0.0' },
      paths: { '/pair': { get: { responses: { 200: { description: 'a pair', content: { 'application/json': { schema: {
        type: 'array', prefixItems: [{ type: 'integer' }], unevaluatedItems: false,
      } } } } } } } },
    }));
    const answered = (body: unknown) => pairs.validateInteraction({ request: request('GET', '/pair'), response: response(200, { body }) });
    assertValid(answered([1]));
    assertInvalid(answered([1, 2]), 'response_invalid', 'response body: must have at most 1 item');
  });
  it('words contains and propertyNames as one failure, not as their subschema\'s errors on every candidate', async () => {
    const { contract: tagged } = await textContract(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'tags', version: '1.0.0' },
      paths: { '/tags': { get: { responses: { 200: { description: 'tags', content: { 'application/json': { schema: {
        type: 'object',
        properties: {
          counts: { type: 'array', items: { type: ['integer', 'string'] }, contains: { type: 'integer' }, minContains: 1 },
          labels: { type: 'object', propertyNames: { maxLength: 3 } },
        },
      } } } } } } } },
    }));
    const answered = (body: unknown) => tagged.validateInteraction({ request: request('GET', '/tags'), response: response(200, { body }) });
    assertValid(answered({ counts: ['a', 1], labels: { abc: 1 } }));
    assertInvalid(
      answered({ counts: ['a', 'b'], labels: { abcd: 1 } }),
      'response_invalid',
      'response body /counts: must contain at least 1 matching item',
      'response body /labels: property name "abcd" is not valid',
    );
    // Errors of other keywords on the same items stay.
    assertInvalid(
      answered({ counts: [true] }),
      'response_invalid',
      'response body /counts/0: must be integer or string',
      'response body /counts: must contain at least 1 matching item',
    );
    // A subschema behind a $ref too: its errors once came item by item ("/codes/0: must match pattern").
    const { contract: referenced } = await textContract(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'codes', version: '1.0.0' },
      components: { schemas: { Code: { type: 'string', pattern: '^c-' }, Key: { type: 'string', maxLength: 3 } } },
      paths: { '/codes': { get: { responses: { 200: { description: 'codes', content: { 'application/json': { schema: {
        type: 'object',
        properties: {
          codes: { type: 'array', contains: { $ref: '#/components/schemas/Code' } },
          names: { type: 'object', propertyNames: { $ref: '#/components/schemas/Key' } },
        },
      } } } } } } } },
    }));
    const codes = (body: unknown) => referenced.validateInteraction({ request: request('GET', '/codes'), response: response(200, { body }) });
    assertValid(codes({ codes: ['x', 'c-1'], names: { abc: 1 } }));
    assertInvalid(
      codes({ codes: ['a', 'b'], names: { abcd: 1, ab: 2 } }),
      'response_invalid',
      'response body /codes: must contain at least 1 matching item',
      'response body /names: property name "abcd" is not valid',
    );
  });
  it('follows $refs that name a schema by $anchor, by a fragment of the enclosing $id, or by an $id\'s URI', async () => {
    const { contract: orders } = await textContract(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'identifiers', version: '1.0.0' },
      paths: { '/orders': { post: {
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } },
        responses: { 204: { description: 'stored' } },
      } } },
      components: { schemas: {
        Order: {
          $id: 'https://example.com/schemas/order',
          type: 'object',
          properties: {
            quantity: { $ref: '#positive' },
            unit: { $ref: '#/$defs/unit' },
            price: { $ref: 'money' },
            customer: { $ref: 'https://example.com/schemas/customer' },
            note: { $ref: '#/components/schemas/Note' },
          },
          $defs: {
            positive: { $anchor: 'positive', type: 'integer', minimum: 1 },
            unit: { enum: ['kg', 'piece'] },
          },
          examples: [{ $id: 'not-a-resource', quantity: 1 }],
        },
        Money: { $id: 'https://example.com/schemas/money', type: 'number', multipleOf: 0.01 },
        Customer: { $id: 'https://example.com/schemas/customer', type: 'object', required: ['id'] },
        Note: { type: 'string', maxLength: 5 },
      } },
    }));
    const post = (body: unknown) => orders.validateInteraction({ request: request('POST', '/orders', { body }) });
    assertValid(post({ quantity: 2, unit: 'kg', price: 9.99, customer: { id: 1 }, note: 'ok' }));
    assertInvalid(
      post({ quantity: 0, unit: 'g', price: 9.999, customer: {}, note: 'too long' }),
      'request_invalid',
      'request body /quantity: must be >= 1',
      'request body /unit: must be one of "kg", "piece"',
      'request body /price: must be a multiple of 0.01',
      'request body /customer: property "id" is required',
      'request body /note: must have at most 5 characters',
    );
  });
});
