/**
 * Where unknown environments are allowed, a consumer registration or a recorded deployment creates its
 * environment on first use: only when it is stored (a refused one used to leave the environment
 * behind, created by a key that may not call CreateEnvironment), and with an audit line naming the key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiKeyMetadata, startServerWithKeysFile, type KeyedTestServer } from '../helpers/api-keys';
import { ordersApi } from '../helpers/orders-api';
import { captureLogs } from '../helpers/log-capture';

describe('environments created on first use', () => {
  let server: KeyedTestServer;
  const logs = captureLogs('info');
  const call = <R = any>(method: string, request: object) => server.client.call<R>(method, request, { metadata: apiKeyMetadata('web-app-key-0000001') });
  const environments = async () => (await call('ListEnvironments', {})).environments.map((e: { name: string }) => e.name);

  before(async () => {
    server = await startServerWithKeysFile([
      { name: 'web-app-ci', key: 'web-app-key-0000001', scopes: ['read', 'record'] },
      { name: 'ops', key: 'ops-key-00000000001', scopes: ['admin'] },
    ], { allowUnknownEnvironments: true, logger: logs.logger });
    const metadata = apiKeyMetadata('ops-key-00000000001');
    assert.equal((await server.client.call('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi() }, { metadata })).success, true);
  });
  after(() => server.close());

  test('refused registrations and recordings create no environment', async () => {
    assert.equal((await call('RecordDeployment', { schema_id: 'orders', version: '9.9.9', environment: 'typo-1' })).success, false);
    assert.equal((await call('RecordDeployment', { schema_id: 'orders', consumer_id: 'web', version: '1', environment: 'typo-2' })).success, false);
    assert.equal((await call('RegisterConsumer', { consumer_id: 'web', consumer_version: '1', schema_id: 'orders', schema_version: '7.0.0', environment: 'typo-3' })).success, false);
    assert.deepEqual(await environments(), ['dev', 'staging', 'prod']);
  });

  test('stored ones create it, with an environment_created audit line naming the key', async () => {
    assert.equal((await call('RegisterConsumer', { consumer_id: 'web', consumer_version: '1', schema_id: 'orders', schema_version: '1.0.0', environment: 'qa' })).success, true);
    assert.equal((await call('RecordDeployment', { schema_id: 'orders', consumer_id: 'web', version: '1', environment: 'eu-1' })).success, true);
    assert.equal((await call('RecordDeployment', { schema_id: 'orders', version: '1.0.0', environment: 'eu-2' })).success, true);
    assert.equal((await call('RecordDeployment', { schema_id: 'orders', version: '1.0.0', environment: 'eu-2' })).success, true, 'known now: created once');
    assert.deepEqual(await environments(), ['dev', 'staging', 'prod', 'eu-1', 'eu-2', 'qa']);
    const created = logs.lines().filter((line) => line.event_type === 'environment_created');
    assert.deepEqual(created.map((line) => `${line.actor}:${line.environment}:${line.origin}`), [
      'web-app-ci:qa:consumer-registration', 'web-app-ci:eu-1:deployment', 'web-app-ci:eu-2:deployment',
    ]);
  });
});
