/**
 * Hostile interactions: each must end in a clear `valid: false` within a bounded time, never in a
 * crash, a hang or a polluted prototype. Time bounds are generous (shared CI machines); the
 * unguarded costs they protect against are seconds to minutes.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CompiledContract } from '../../src/shared/validation';
import { nestingExceeds } from '../../src/shared/validation/json-body';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, fixtureContract, request, response } from '../helpers/validation-contracts';

const TIME_BOUND_MS = 2_000;

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = work();
  return { result, ms: performance.now() - started };
}

function bodyDocument(schema: object): OpenApiDocument {
  return {
    openapi: '3.0.3',
    paths: {
      '/items': {
        post: { requestBody: { content: { 'application/json': { schema } } }, responses: { '204': { description: 'stored' } } },
      },
    },
  } as unknown as OpenApiDocument;
}

describe('hostile interactions', () => {
  let petstore: CompiledContract;
  let semantics: CompiledContract;
  before(async () => {
    petstore = await fixtureContract('petstore-3.0.json');
    semantics = await fixtureContract('semantics-3.0.json');
  });

  it('refuses a body nested 100,000 levels before parsing it', () => {
    const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
    const objects = '{"value":1,"children":['.repeat(100_000) + ']}'.repeat(100_000);
    for (const body of [arrays, objects]) {
      const { result, ms } = timed(() => semantics.validateInteraction({ request: request('POST', '/trees', { body }) }));
      assertInvalid(result, 'request_invalid', 'request body nests arrays/objects deeper than the limit of 256 levels (maxBodyDepth)');
      assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
    }
    assertInvalid(
      petstore.validateProducerResponse({ method: 'GET', path: '/pets/1', response: response(200, { body: arrays }) }),
      'response_invalid',
      'response body nests arrays/objects deeper than the limit of 256 levels (maxBodyDepth)',
    );
  });

  it('does not count brackets inside strings as nesting, escaped quotes included', () => {
    for (const name of ['['.repeat(10_000), `\\"${'{'.repeat(1_000)}\\`, `"${'['.repeat(1_000)}"\\`]) {
      assertValid(petstore.validateInteraction({ request: request('POST', '/pets', { body: { name } }) }));
    }
    const deepAfterString = `{"name":"\\\\","tag":${'['.repeat(300)}${']'.repeat(300)}}`;
    assertInvalid(
      petstore.validateInteraction({ request: request('POST', '/pets', { body: deepAfterString }) }),
      'request_invalid',
      'request body nests arrays/objects deeper than the limit of 256 levels (maxBodyDepth)',
    );
  });

  it('measures nesting exactly at the limit, whatever the number of brackets', () => {
    const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    assert.equal(nestingExceeds(nested(256), 256), false);
    assert.equal(nestingExceeds(nested(257), 256), true);
    // More brackets than the limit, all shallow: scanned, and not refused.
    assert.equal(nestingExceeds(`[${'{},'.repeat(400)}{}]`, 256), false);
    assert.equal(nestingExceeds(`{"a":${nested(300)}}`, 256), true);
    // Few brackets in a long text: no deeper than they open.
    assert.equal(nestingExceeds(`{"text":"${'x'.repeat(5_000)}","list":[1,2,3]}`, 2), false);
    assert.equal(nestingExceeds(`{"text":"${'x'.repeat(5_000)}","list":[[1],2,3]}`, 2), true);
  });

  it('refuses a 50 MB body by size, naming the limit', () => {
    const body = `{"name":"${'x'.repeat(50 * 1024 * 1024)}"}`;
    const { result, ms } = timed(() => petstore.validateInteraction({ request: request('POST', '/pets', { body }) }));
    assertInvalid(result, 'request_invalid', 'request body is 50 MiB, over the limit of 10 MiB (maxBodyBytes)');
    assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
  });

  it('treats __proto__ keys as ordinary properties and leaves Object.prototype alone', () => {
    const body = '{"name":"Rex","__proto__":{"polluted":true}}';
    assertInvalid(
      petstore.validateInteraction({ request: request('POST', '/pets', { body }) }),
      'request_invalid',
      'request body: unexpected property "__proto__"',
    );
    // Orders allow additional properties: the key is data like any other.
    const order = '{"items":[{"sku":"a","price":1,"__proto__":{"price":-1}}],"customer":{"email":"a@example.com"},"__proto__":{"polluted":true}}';
    assertValid(petstore.validateInteraction({ request: request('POST', '/orders', { body: order }) }));
    assertValid(
      petstore.validateInteraction({
        request: request('GET', '/pets?__proto__=x&limit=5&constructor=y', { headers: { 'X-Request-Id': '6f1c0c5e-8a4b-4a8e-9a3e-1f2d3c4b5a69' } }),
      }),
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  it('does not let Object.prototype satisfy a required property', () => {
    const contract = new CompiledContract(bodyDocument({ type: 'object', required: ['toString', 'constructor'] }));
    assertInvalid(
      contract.validateInteraction({ request: request('POST', '/items', { body: {} }) }),
      'request_invalid',
      'request body: property "toString" is required',
      'request body: property "constructor" is required',
    );
  });

  it('answers ^(a+)+$ against a 10,000-character string in milliseconds (RE2)', () => {
    const word = `${'a'.repeat(10_000)}!`;
    const { result, ms } = timed(() => semantics.validateInteraction({ request: request('POST', '/words', { body: { word } }) }));
    assertInvalid(result, 'request_invalid', 'request body /word: must match pattern "^(a+)+$"');
    assert.ok(ms < 500, `took ${ms} ms`);
  });

  it('reports invalid JSON in requests and responses', () => {
    const text = '{"name": tru}';
    let reason = '';
    try {
      JSON.parse(text);
    } catch (error) {
      reason = (error as Error).message;
    }
    assertInvalid(
      petstore.validateInteraction({ request: request('POST', '/pets', { body: text }), response: response(201, { body: text }) }),
      'request_invalid',
      `request body is not valid JSON: ${reason}`,
      `response body is not valid JSON: ${reason}`,
    );
  });

  it('refuses a path of 200,000 characters by length', () => {
    const path = `/pets/${'1'.repeat(200_000 - 6)}`;
    const { result, ms } = timed(() => petstore.validateInteraction({ request: request('GET', path) }));
    assertInvalid(result, 'http_request_creation', 'request path is 200000 characters, over the limit of 8192 (maxPathChars)');
    assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
  });

  it('routes a 200,000-character path quickly when the limit allows it, and clips it in messages', async () => {
    const contract = await fixtureContract('petstore-3.0.json', { maxPathChars: 300_000 });
    const path = `/${'x/'.repeat(100_000)}`;
    const { result, ms } = timed(() => contract.validateInteraction({ request: request('GET', path) }));
    assertInvalid(result, 'route_not_found', `Path not found: ${path.slice(0, 120)}…`);
    assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
  });

  it('stops collecting errors at the cap for a 10 MiB array of wrong items', () => {
    // Item errors of a $ref'd schema are joined with concat: quadratic without the cap.
    const viaRef = { ...bodyDocument({ type: 'array', items: { $ref: '#/components/schemas/Name' } }), components: { schemas: { Name: { type: 'string' } } } };
    const inline = bodyDocument({ type: 'array', items: { type: 'string' } });
    const body = `[${'1,'.repeat(5_000_000 - 1)}1]`;
    for (const target of [new CompiledContract(viaRef), new CompiledContract(inline)]) {
      const { result, ms } = timed(() => target.validateInteraction({ request: request('POST', '/items', { body }) }));
      assert.equal(result.valid, false);
      assert.equal(result.errors.length, 100);
      assert.match(result.errors[99]!, /^… and at least \d+ more violations not listed \(limit maxErrors = 100\)$/);
      assert.ok(ms < TIME_BOUND_MS * 2, `took ${ms} ms`);
    }
  });

  it('stops collecting errors at the cap for an object with 200,000 unexpected properties', () => {
    const contract = new CompiledContract(bodyDocument({ type: 'object', additionalProperties: false }), { maxErrors: 10 });
    const body = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    const { result, ms } = timed(() => contract.validateInteraction({ request: request('POST', '/items', { body }) }));
    assert.equal(result.errors.length, 10);
    assert.equal(result.errors[0], 'request body: unexpected property "k0"');
    assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
  });

  it('finds duplicates among 20,000 objects in linear time (uniqueItems)', () => {
    const contract = new CompiledContract(bodyDocument({ type: 'array', uniqueItems: true, items: { type: 'object' } }));
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, tags: ['a', 'b'] }));
    items.push({ tags: ['a', 'b'], id: 3 } as never);
    const { result, ms } = timed(() => contract.validateInteraction({ request: request('POST', '/items', { body: items }) }));
    assertInvalid(result, 'request_invalid', 'request body: must not contain duplicate items (items 3 and 20000 are identical)');
    assert.ok(ms < TIME_BOUND_MS, `took ${ms} ms`);
  });
});
