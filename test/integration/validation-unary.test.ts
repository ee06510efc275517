/**
 * ValidateInteraction and ValidateProducerResponse over real gRPC: verdicts with the engine's
 * exact messages, the version and hash validated against, latest-version selection, and every
 * failure the spec reports as a result (unknown schema or version, invalid call parameters).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  JSON_HEADERS, USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema, usersSchemaVersion,
} from '../helpers/validation';

let server: TestServer;
let v1: { schema_hash: string; schema_version: string };
let v2: { schema_hash: string; schema_version: string };

before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  v1 = await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  // 2.0.0 drops `email` from the required properties of User.
  v2 = await registerSchema(server.client, 'users', usersSchemaVersion('2.0.0', (d) => { d.components.schemas.User.required = ['id']; }));
});

after(() => server.close());

test('a valid interaction: valid, no errors, the latest version and its hash, correlation id echoed', async () => {
  const result = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER, { correlation_id: 'case-1' }));
  assert.deepEqual(result, {
    valid: true, errors: [], validated_against_version: '2.0.0', validated_against_hash: v2.schema_hash, correlation_id: 'case-1',
  });
});

test('an invalid interaction lists every violation with the spec message shapes', async () => {
  const result = await server.client.call('ValidateInteraction', getUserInteraction('users', 'abc', { id: 42 }, { schema_version: '1.0.0' }));
  assert.equal(result.valid, false);
  assert.deepEqual(result.errors, [
    'parameter "id" in path: value "abc" is not a valid integer',
    'response body: property "email" is required',
  ]);
  assert.equal(result.validated_against_version, '1.0.0');
  assert.equal(result.validated_against_hash, v1.schema_hash);
});

test('empty schema_version means the latest; a given version is used as is', async () => {
  const body = { id: 7 }; // valid in 2.0.0 only
  const latest = await server.client.call('ValidateInteraction', getUserInteraction('users', '7', body));
  const pinned = await server.client.call('ValidateInteraction', getUserInteraction('users', '7', body, { schema_version: '1.0.0' }));
  assert.equal(latest.valid, true);
  assert.equal(latest.validated_against_version, '2.0.0');
  assert.equal(pinned.valid, false);
  assert.deepEqual(pinned.errors, ['response body: property "email" is required']);
});

test('an unknown schema is a result: Schema not found: <id>', async () => {
  const result = await server.client.call('ValidateInteraction', getUserInteraction('ghost', '1', VALID_USER, { correlation_id: 'c-ghost' }));
  assert.deepEqual(result, {
    valid: false, errors: ['Schema not found: ghost'], validated_against_version: '', validated_against_hash: '', correlation_id: 'c-ghost',
  });
});

test('an unknown version is a result: schema version not found', async () => {
  for (const version of ['9.9.9', 'not-a-version']) {
    const result = await server.client.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER, { schema_version: version }));
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors, ['schema version not found']);
  }
});

test('invalid call parameters are valid=false results with a message naming the parameter', async () => {
  const emptyId = await server.client.call('ValidateInteraction', getUserInteraction('', '1', VALID_USER));
  assert.deepEqual([emptyId.valid, emptyId.errors], [false, ['schema_id is required']]);

  const malformedId = await server.client.call('ValidateInteraction', getUserInteraction('no spaces allowed', '1', VALID_USER));
  assert.equal(malformedId.valid, false);
  assert.match(malformedId.errors[0], /^schema_id "no spaces allowed" is not valid/);

  const badMethod = await server.client.call('ValidateInteraction', {
    schema_id: 'users', request: { method: 'FETCH', path: '/users/1', headers: {}, body: '' },
  });
  assert.deepEqual(badMethod.errors, ['invalid HTTP method "FETCH" (expected one of GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE)']);

  const noRequest = await server.client.call('ValidateInteraction', { schema_id: 'users' });
  assert.deepEqual([noRequest.valid, noRequest.errors], [false, ['request is required: InteractionRequest.request is empty']]);
});

test('a lowercase HTTP method is accepted', async () => {
  const result = await server.client.call('ValidateInteraction', {
    schema_id: 'users', request: { method: 'get', path: '/users/1', headers: {}, body: '' },
  });
  assert.deepEqual([result.valid, result.errors], [true, []]);
});

test('a request without a response validates the request only', async () => {
  const result = await server.client.call('ValidateInteraction', {
    schema_id: 'users',
    request: { method: 'POST', path: '/users', headers: { ...JSON_HEADERS }, body: '{"name":"no email"}' },
  });
  assert.deepEqual(result.errors, ['request body: property "email" is required']);
});

test('ValidateProducerResponse checks only the response, with or without the optional request', async () => {
  const response = { status_code: 200, headers: { ...JSON_HEADERS }, body: '{"id":"x"}' };
  const withoutRequest = await server.client.call('ValidateProducerResponse', {
    schema_id: 'users', schema_version: '1.0.0', method: 'GET', path: '/users/1', response,
  });
  assert.equal(withoutRequest.valid, false);
  assert.deepEqual(withoutRequest.errors, ['response body: property "email" is required', 'response body /id: must be integer']);
  assert.equal(withoutRequest.validated_against_version, '1.0.0');

  // The request only helps routing: its invalid body is not reported.
  const withRequest = await server.client.call('ValidateProducerResponse', {
    schema_id: 'users', method: 'POST', path: '/users',
    request: { method: 'POST', path: '/users', headers: { ...JSON_HEADERS }, body: '{"not":"checked"}' },
    response: { status_code: 201, headers: { ...JSON_HEADERS }, body: JSON.stringify(VALID_USER) },
  });
  assert.deepEqual([withRequest.valid, withRequest.errors, withRequest.validated_against_hash], [true, [], v2.schema_hash]);

  const unknown = await server.client.call('ValidateProducerResponse', { schema_id: 'ghost', method: 'GET', path: '/x', response });
  assert.deepEqual(unknown.errors, ['Schema not found: ghost']);

  const noResponse = await server.client.call('ValidateProducerResponse', { schema_id: 'users', method: 'GET', path: '/users/1' });
  assert.deepEqual(noResponse.errors, ['response is required: ValidateProducerRequest.response is empty']);
});

test('a version re-registered with other content is validated against the new content', async () => {
  const first = await registerSchema(server.client, 'rewritten', usersSchemaVersion('1.0.0'));
  const before = await server.client.call('ValidateInteraction', getUserInteraction('rewritten', '5', { id: 5 }));
  assert.equal(before.valid, false);
  const second = await registerSchema(server.client, 'rewritten', usersSchemaVersion('1.0.0', (d) => { d.components.schemas.User.required = ['id']; }));
  assert.notEqual(first.schema_hash, second.schema_hash);
  const afterUpdate = await server.client.call('ValidateInteraction', getUserInteraction('rewritten', '5', { id: 5 }));
  assert.deepEqual([afterUpdate.valid, afterUpdate.validated_against_hash], [true, second.schema_hash]);
});

test('many concurrent calls all come back right (batched through the pool)', async () => {
  const calls = Array.from({ length: 300 }, (_, i) => server.client.call('ValidateInteraction',
    getUserInteraction('users', i % 3 === 0 ? 'bad' : String(i), VALID_USER, { correlation_id: `c${i}` })));
  const results = await Promise.all(calls);
  results.forEach((result, i) => {
    assert.equal(result.correlation_id, `c${i}`);
    assert.equal(result.valid, i % 3 !== 0);
  });
});
