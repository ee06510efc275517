/** OpenAPI 3.0 schema semantics: nullable, boolean exclusive bounds, readOnly/writeOnly, discriminator, formats. */
import { before, describe, it } from 'node:test';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, fixtureContract, request, response, textContract } from '../helpers/validation-contracts';

const ACCOUNT_IN = { email: 'ada@example.com', password: 'correct horse' };
const ACCOUNT_OUT = { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', email: 'ada@example.com' };

describe('OpenAPI 3.0 semantics', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('semantics-3.0.json');
  });
  const post = (path: string, body: unknown) => contract.validateInteraction({ request: request('POST', path, { body }) });
  const created = (body: unknown) =>
    contract.validateInteraction({ request: request('POST', '/accounts', { body: ACCOUNT_IN }), response: response(201, { body }) });

  describe('nullable', () => {
    it('adds null to a typed schema, keeping its other constraints', () => {
      assertValid(post('/accounts', { ...ACCOUNT_IN, nickname: null }));
      assertInvalid(post('/accounts', { ...ACCOUNT_IN, nickname: 'x'.repeat(11) }), 'request_invalid', 'request body /nickname: must have at most 10 characters');
      assertInvalid(post('/accounts', { ...ACCOUNT_IN, nickname: 3 }), 'request_invalid', 'request body /nickname: must be string or null');
    });

    it('adds null to an enum', () => {
      assertValid(post('/accounts', { ...ACCOUNT_IN, plan: null }));
      assertInvalid(post('/accounts', { ...ACCOUNT_IN, plan: 'gold' }), 'request_invalid', 'request body /plan: must be one of "free", "pro", null');
    });

    it('accepts null for a schema without type (nullable next to allOf)', () => {
      assertValid(post('/accounts', { ...ACCOUNT_IN, manager: null }));
      assertInvalid(post('/accounts', { ...ACCOUNT_IN, manager: {} }), 'request_invalid', 'request body /manager: property "name" is required');
    });
  });

  describe('boolean exclusiveMinimum / exclusiveMaximum', () => {
    it('excludes the bound when true and includes it when false', () => {
      assertValid(post('/measurements', { celsius: -273, percent: 99.9, ratio: 0 }));
      assertInvalid(
        post('/measurements', { celsius: -273.15, percent: 100 }),
        'request_invalid',
        'request body /celsius: must be > -273.15',
        'request body /percent: must be < 100',
      );
    });
  });

  describe('readOnly and writeOnly', () => {
    it('does not require readOnly properties in requests and refuses them, also through a $ref', () => {
      assertValid(post('/accounts', ACCOUNT_IN));
      assertInvalid(
        post('/accounts', { ...ACCOUNT_IN, id: ACCOUNT_OUT.id, createdAt: '2024-01-01T00:00:00Z' }),
        'request_invalid',
        'request body: property "id" is read-only',
        'request body: property "createdAt" is read-only',
      );
    });

    it('requires readOnly properties in responses', () => {
      assertInvalid(created({ email: 'ada@example.com' }), 'response_invalid', 'response body: property "id" is required');
    });

    it('does not require writeOnly properties in responses and refuses them', () => {
      assertValid(created(ACCOUNT_OUT));
      assertInvalid(created({ ...ACCOUNT_OUT, password: 'leaked!!' }), 'response_invalid', 'response body: property "password" is write-only');
    });

    it('requires writeOnly properties in requests', () => {
      assertInvalid(post('/accounts', { email: 'ada@example.com' }), 'request_invalid', 'request body: property "password" is required');
    });
  });

  describe('discriminator', () => {
    it('validates against the schema named by the tag (implicit mapping by component name)', () => {
      assertValid(post('/pets', { petType: 'Cat', lives: 9 }));
      assertInvalid(post('/pets', { petType: 'Cat', lives: 12 }), 'request_invalid', 'request body /lives: must be <= 9');
      assertInvalid(post('/pets', { petType: 'Dog', bark: 'meow' }), 'request_invalid', 'request body /bark: must be one of "loud", "soft"');
    });

    it('requires a known tag on an object', () => {
      assertInvalid(post('/pets', { lives: 1 }), 'request_invalid', 'request body: property "petType" is required');
      assertInvalid(post('/pets', { petType: 'Cow' }), 'request_invalid', 'request body /petType: must be one of "Cat", "Dog"');
      assertInvalid(post('/pets', '"Cat"'), 'request_invalid', 'request body: must be object');
    });

    it('follows an explicit mapping (references and bare names)', () => {
      assertValid(post('/vehicles', { kind: 'car', doors: 2 }));
      assertInvalid(post('/vehicles', { kind: 'bike', doors: 2 }), 'request_invalid', 'request body: property "gears" is required');
    });
  });

  describe('formats and extensions', () => {
    it('checks OpenAPI formats (int32) and ajv-formats ones (date-time, email)', () => {
      assertInvalid(
        post('/accounts', { ...ACCOUNT_IN, email: 'not an address', age: 5_000_000_000 }),
        'request_invalid',
        'request body /email: must match format "email"',
        'request body /age: must match format "int32"',
      );
    });

    it('ignores unknown formats, x- extensions and examples', () => {
      assertValid(post('/measurements', { count: 3 }));
      assertInvalid(post('/measurements', { count: 1.5 }), 'request_invalid', 'request body /count: must be integer');
    });
  });

  describe('recursive schemas', () => {
    it('validates recursive data through the $ref cycle', () => {
      assertValid(post('/trees', { value: 1, children: [{ value: 2, children: [{ value: 3 }] }] }));
      assertInvalid(
        post('/trees', { value: 1, children: [{ value: 2, children: [{ value: 'three' }] }] }),
        'request_invalid',
        'request body /children/0/children/0/value: must be integer',
      );
    });
  });

  describe('readOnly and writeOnly properties required by another schema object', () => {
    // Base declares them; they are required in an allOf branch beside it, in the schema whose
    // allOf reaches them, or in a oneOf branch under the schema that declares them.
    const document = (openapi: string) => JSON.stringify({
      openapi,
      info: { title: 'required elsewhere', version: '1.0.0' },
      paths: Object.fromEntries(['User', 'Stamped', 'Either'].map((name) => [`/${name.toLowerCase()}`, {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          responses: { 201: { description: 'created', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } },
        },
      }])),
      components: {
        schemas: {
          Base: {
            type: 'object',
            properties: { id: { type: 'integer', readOnly: true }, secret: { type: 'string', writeOnly: true }, name: { type: 'string' } },
          },
          User: { allOf: [{ $ref: '#/components/schemas/Base' }, { required: ['id', 'secret', 'name'] }] },
          Timestamps: { type: 'object', properties: { createdAt: { type: 'string', readOnly: true } } },
          Stamped: { type: 'object', required: ['name', 'createdAt'], properties: { name: { type: 'string' } }, allOf: [{ $ref: '#/components/schemas/Timestamps' }] },
          Either: {
            type: 'object',
            properties: { id: { type: 'integer', readOnly: true }, kind: { type: 'string' } },
            oneOf: [{ required: ['id', 'kind'] }],
          },
        },
      },
    });
    const exchange = (contract: CompiledContract, path: string, sent: unknown, answered: unknown) => contract.validateInteraction({
      request: request('POST', path, { body: sent }),
      response: response(201, { body: answered }),
    });

    for (const openapi of ['3.0.3', '3.1.0']) {
      it(`requires them only where they may appear (${openapi})`, async () => {
        const { contract } = await textContract(document(openapi));
        assertValid(exchange(contract, '/user', { name: 'Ada', secret: 's' }, { id: 1, name: 'Ada' }));
        assertInvalid(exchange(contract, '/user', { id: 1, name: 'Ada', secret: 's' }, { id: 1, name: 'Ada' }), 'request_invalid', 'request body: property "id" is read-only');
        assertInvalid(exchange(contract, '/user', { name: 'Ada' }, { id: 1, name: 'Ada' }), 'request_invalid', 'request body: property "secret" is required');
        assertInvalid(exchange(contract, '/user', { name: 'Ada', secret: 's' }, { name: 'Ada' }), 'response_invalid', 'response body: property "id" is required');
        assertValid(exchange(contract, '/stamped', { name: 'Ada' }, { name: 'Ada', createdAt: 'today' }));
        assertInvalid(exchange(contract, '/stamped', { name: 'Ada' }, { name: 'Ada' }), 'response_invalid', 'response body: property "createdAt" is required');
        assertValid(exchange(contract, '/either', { kind: 'a' }, { id: 1, kind: 'a' }));
      });
    }
  });
});
