/**
 * Validation through ContractValidator against a real server: consumer validation, request-only and
 * producer validation, body and header encoding (no double encoding), versions, and validateMany.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import { USERS_SCHEMA_ID, USERS_V2_YAML, startUsersApiServer, type UsersApiServer } from '../helpers/client-fixtures';

let api: UsersApiServer;

before(async () => {
  api = await startUsersApiServer();
});

after(async () => {
  await api.close();
});

const ada = { id: 42, name: 'Ada', email: 'ada@example.com' };

describe('validate (request and response)', () => {
  test('a valid interaction is valid, with the version and hash validated against', async () => {
    const result = await api.validator.validate({ method: 'GET', path: '/users/42' }, { statusCode: 200, body: ada });
    assert.deepEqual(result.errors, []);
    assert.equal(result.valid, true);
    assert.equal(result.validatedAgainstVersion, '1.0.0');
    assert.match(result.validatedAgainstHash, /^[0-9a-f]{64}$/);
  });

  test('a violation is returned, not thrown, with the spec message shapes', async () => {
    const result = await api.validator.validate({ method: 'get', path: '/users/abc' }, { statusCode: 200, body: { id: 42 } });
    assert.equal(result.valid, false);
    assert.ok(result.errors.includes('parameter "id" in path: value "abc" is not a valid integer'), result.errors.join('\n'));
    assert.ok(result.errors.includes('response body: property "name" is required'), result.errors.join('\n'));
  });

  test('a path outside the schema is a result with "Path not found"', async () => {
    const result = await api.validator.validate({ method: 'GET', path: '/nowhere' }, { statusCode: 200 });
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors, ['Path not found: /nowhere']);
  });

  test('bodies as object, JSON text, bytes: each sent once-encoded and equally valid', async () => {
    const request = { method: 'POST', path: '/users', headers: { 'content-type': 'application/json' } };
    const bodies = [{ name: 'Ada' }, '{"name":"Ada"}', Buffer.from('{"name":"Ada"}'), new TextEncoder().encode('{"name":"Ada"}')];
    for (const body of bodies) {
      const result = await api.validator.validate({ ...request, body }, { statusCode: 201, body: JSON.stringify({ id: 1, name: 'Ada' }) });
      assert.deepEqual(result.errors, [], `body given as ${body.constructor.name}`);
    }
    // An object body without a content type gets application/json: the encoding is the client's doing.
    const implied = await api.validator.validate({ method: 'POST', path: '/users', body: { name: 'Ada' } }, { statusCode: 201, body: { id: 1, name: 'Ada' } });
    assert.deepEqual(implied.errors, []);
    // A string is never encoded again: a JSON string literal of the object would be a type error.
    const doubleEncoded = await api.validator.validate(
      { ...request, body: JSON.stringify(JSON.stringify({ name: 'Ada' })) },
      { statusCode: 201, body: { id: 1, name: 'Ada' } },
    );
    assert.equal(doubleEncoded.valid, false);
  });

  test('headers given as arrays and numbers are normalised; query strings are validated', async () => {
    const valid = await api.validator.validate(
      { method: 'GET', path: '/users?limit=10', headers: { Accept: ['application/json', 'text/plain'], 'X-Trace': 7 } },
      { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: [ada] },
    );
    assert.deepEqual(valid.errors, []);
    const invalid = await api.validator.validate({ method: 'GET', path: '/users?limit=1000' }, { statusCode: 200, body: [] });
    assert.equal(invalid.valid, false);
    assert.match(invalid.errors.join('\n'), /limit/);
  });

  test('per-call schemaVersion overrides the bound version; an unknown schema is a result', async () => {
    const client = new ContractValidator(api.address);
    try {
      await client.registerSchemaWithVersion('versions-api', USERS_V2_YAML, '2.0.0');
      const posts = { method: 'GET', path: '/users/1/posts' };
      const postsResponse = { statusCode: 200, body: { items: [{ id: 1, title: 'Hello' }] } };
      assert.equal((await client.validate(posts, postsResponse)).valid, false, 'posts endpoint is gone in 2.0.0');
      const v1 = await client.validate(posts, postsResponse, { schemaId: USERS_SCHEMA_ID, schemaVersion: '1.0.0' });
      assert.equal(v1.valid, true);
      assert.equal(v1.validatedAgainstVersion, '1.0.0');
      const unknown = await client.validate(posts, postsResponse, { schemaId: 'no-such-schema' });
      assert.equal(unknown.valid, false);
      assert.deepEqual(unknown.errors, ['Schema not found: no-such-schema']);
    } finally {
      client.close();
    }
  });

  test('misuse is INVALID_ARGUMENT before any call is made', async () => {
    const cases: Array<[string, () => Promise<unknown>]> = [
      ['request.method', () => api.validator.validate({ method: '', path: '/users' }, { statusCode: 200 })],
      ['request.path', () => api.validator.validate({ method: 'GET', path: '' }, { statusCode: 200 })],
      ['response.statusCode', () => api.validator.validate({ method: 'GET', path: '/users' }, { statusCode: 2.5 })],
      ['deadlineMs', () => api.validator.validate({ method: 'GET', path: '/users' }, { statusCode: 200 }, { deadlineMs: -1 })],
    ];
    for (const [name, call] of cases) {
      await assert.rejects(call(), (error: ContractValidatorError) => {
        assert.equal(error.code, 'INVALID_ARGUMENT');
        assert.match(error.message, new RegExp(name.replace('.', '\\.')));
        return true;
      });
    }
  });
});

describe('validateRequest and validateProducerResponse', () => {
  test('validateRequest checks the request alone', async () => {
    assert.equal((await api.validator.validateRequest({ method: 'POST', path: '/users', body: { name: 'Ada' } })).valid, true);
    const invalid = await api.validator.validateRequest({ method: 'POST', path: '/users', body: { nme: 'Ada' } });
    assert.equal(invalid.valid, false);
    assert.ok(invalid.errors.includes('request body: property "name" is required'), invalid.errors.join('\n'));
  });

  test('validateProducerResponse checks the response only, with or without the request', async () => {
    // A request that breaks the contract does not matter to producer validation.
    const withRequest = await api.validator.validateProducerResponse({
      method: 'POST',
      path: '/users',
      request: { method: 'POST', path: '/users', body: { nme: 'broken' } },
      response: { statusCode: 201, body: { id: 1, name: 'Ada' } },
    });
    assert.deepEqual(withRequest.errors, []);
    const withoutRequest = await api.validator.validateProducerResponse({ method: 'GET', path: '/users/7', response: { statusCode: 200, body: { id: 7 } } });
    assert.deepEqual(withoutRequest.errors, ['response body: property "name" is required']);
  });
});

describe('validateMany', () => {
  test('validates a large batch over the stream; results come back in order', async () => {
    const pairs = Array.from({ length: 1_500 }, (_, i) => ({
      request: { method: 'GET', path: `/users/${i + 1}` },
      response: { statusCode: 200, body: i % 3 === 0 ? { id: i + 1 } : { id: i + 1, name: `user ${i}` } },
    }));
    const results = await api.validator.validateMany(pairs);
    assert.equal(results.length, pairs.length);
    results.forEach((result, i) => {
      assert.equal(result.valid, i % 3 !== 0, `interaction ${i}`);
      assert.equal(result.validatedAgainstVersion, '1.0.0');
    });
    assert.deepEqual(await api.validator.validateMany([]), []);
  });

  test('accepts any iterable, and a per-call schema', async () => {
    function* pairs() {
      yield { request: { method: 'GET', path: '/health' }, response: { statusCode: 200, body: { status: 'ok' } } };
      yield { request: { method: 'GET', path: '/nope' }, response: { statusCode: 200 } };
    }
    const results = await api.validator.validateMany(pairs(), { schemaId: USERS_SCHEMA_ID, schemaVersion: '1.0.0' });
    assert.deepEqual(results.map((r) => r.valid), [true, false]);
    assert.deepEqual(results[1]!.errors, ['Path not found: /nope']);
  });
});
