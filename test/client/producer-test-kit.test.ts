/** ProducerTestKit against a real server: response-only validation, versions, misuse, close. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidatorError, ProducerTestKit } from '@svc/client';
import { USERS_SCHEMA_ID, USERS_V2_YAML, startUsersApiServer, type UsersApiServer } from '../helpers/client-fixtures';

let api: UsersApiServer;

before(async () => {
  api = await startUsersApiServer();
  await api.validator.registerSchemaWithVersion(USERS_SCHEMA_ID, USERS_V2_YAML, '2.0.0');
});

after(() => api.close());

test('validateResponse checks a response against the latest version', async () => {
  const kit = new ProducerTestKit({ schemaId: USERS_SCHEMA_ID, serverAddress: api.address });
  try {
    const valid = await kit.validateResponse({ method: 'GET', path: '/users/7', response: { statusCode: 200, body: { id: 7, name: 'Ada' } } });
    assert.deepEqual(valid, { valid: true, errors: [], validatedAgainstVersion: '2.0.0', validatedAgainstHash: valid.validatedAgainstHash });
    const invalid = await kit.validateResponse({
      method: 'GET',
      path: '/users/7',
      response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"seven","name":"Ada"}' },
    });
    assert.equal(invalid.valid, false);
    assert.match(invalid.errors.join('\n'), /response body \/id/);
    const undocumented = await kit.validateResponse({ method: 'GET', path: '/users/7', response: { statusCode: 418, body: {} } });
    assert.equal(undocumented.valid, false);
  } finally {
    kit.close();
  }
});

test('a pinned schemaVersion is used', async () => {
  const kit = new ProducerTestKit({ schemaId: USERS_SCHEMA_ID, serverAddress: api.address, schemaVersion: '1.0.0' });
  try {
    const posts = await kit.validateResponse({ method: 'GET', path: '/users/7/posts', response: { statusCode: 200, body: { items: [] } } });
    assert.equal(posts.valid, true);
    assert.equal(posts.validatedAgainstVersion, '1.0.0');
  } finally {
    kit.close();
  }
});

test('misuse is refused; close is idempotent', async () => {
  assert.throws(() => new ProducerTestKit({ schemaId: '' }), (error: ContractValidatorError) => error.code === 'INVALID_ARGUMENT');
  const kit = new ProducerTestKit({ schemaId: USERS_SCHEMA_ID, serverAddress: api.address });
  await assert.rejects(kit.validateResponse({ method: 'GET', path: '/users/7', response: { statusCode: 'ok' as never } }), /response\.statusCode/);
  kit.close();
  kit.close();
  await assert.rejects(kit.validateResponse({ method: 'GET', path: '/users/7', response: { statusCode: 200 } }), (error: ContractValidatorError) => error.code === 'FAILED_PRECONDITION');
});
