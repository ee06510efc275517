/** Scoped API keys (issue 13, item 5): each scope allowed and denied, refusals counted and audited with the key's name. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { apiKeyMetadata, startServerWithKeysFile, type KeyedTestServer } from '../helpers/api-keys';
import { ordersApi } from '../helpers/orders-api';
import { captureLogs } from '../helpers/log-capture';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer } from '../helpers/server';

const KEYS = [
  { name: 'reader', key: 'reader-key-0001', scopes: ['read'] },
  { name: 'validator', key: 'validator-key-0001', scopes: ['validate'] },
  { name: 'consumer-ci', key: 'consumer-key-0001', scopes: ['read', 'record'] },
  { name: 'orders-team', key: 'orders-key-0001', scopes: ['read', 'schemas'], schemas: ['orders', 'orders-*'], team: 'commerce' },
  { name: 'ops', key: 'ops-key-0001', scopes: ['admin'] },
  { name: 'legacy', key: 'legacy-key-0001' },
];

describe('scoped API keys', () => {
  let server: KeyedTestServer;
  const logs = captureLogs('info');

  const as = (name: string) => {
    const metadata = apiKeyMetadata(KEYS.find((key) => key.name === name)!.key);
    return <R = any>(method: string, request: object) => server.client.call<R>(method, request, { metadata });
  };
  const denied = (pattern: RegExp) => ({ code: status.PERMISSION_DENIED, details: pattern });

  before(async () => {
    server = await startServerWithKeysFile(KEYS, { logger: logs.logger });
  });
  after(() => server.close());

  test('each scope allows its operations and is refused the others with PERMISSION_DENIED', async () => {
    const registered = await as('orders-team')('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi(), ownership: { owner: 'ann', team: 'commerce' } });
    assert.equal(registered.success, true, registered.message);
    await assert.rejects(as('orders-team')('RegisterConsumer', { consumer_id: 'web', schema_id: 'orders', environment: 'prod' }), denied(/^API key "orders-team" may not call RegisterConsumer: it needs scope "record" \(the key has: read, schemas\)$/));

    assert.equal((await as('reader')('GetSchema', { schema_id: 'orders' })).found, true);
    assert.equal((await as('reader')('CanIDeploy', { schema_id: 'orders', new_version: '1.0.0', environment: 'prod' })).safe_to_deploy, true);
    await assert.rejects(as('reader')('RegisterSchema', { schema_id: 'orders', schema_content: ordersApi() }), denied(/needs scope "schemas"/));
    await assert.rejects(as('reader')('ValidateProducerResponse', { schema_id: 'orders', method: 'GET', path: '/v1/orders', response: { status_code: 200, body: '[]' } }), denied(/needs scope "validate"/));

    const validation = await as('validator')('ValidateProducerResponse', { schema_id: 'orders', method: 'GET', path: '/v1/orders', response: { status_code: 200, body: '[]' } });
    assert.equal(validation.valid, true, validation.errors.join('; '));
    await assert.rejects(as('validator')('GetSchema', { schema_id: 'orders' }), denied(/needs scope "read"/));

    const consumer = await as('consumer-ci')('RegisterConsumer', { consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'orders', environment: 'prod', used_endpoints: [{ method: 'GET', path: '/orders' }] });
    assert.equal(consumer.success, true, consumer.message);
    assert.equal((await as('consumer-ci')('RecordDeployment', { schema_id: 'orders', version: '1.0.0', environment: 'prod' })).success, true);
    await assert.rejects(as('consumer-ci')('CreateEnvironment', { name: 'qa' }), denied(/needs scope "admin"/));

    assert.equal((await as('ops')('CreateEnvironment', { name: 'qa' })).success, true);
    assert.equal((await as('ops')('RegisterSchema', { schema_id: 'billing', schema_version: '1.0.0', schema_content: ordersApi() })).success, true, 'admin may do everything');
    assert.equal((await as('legacy')('DeleteEnvironment', { name: 'qa' })).success, true, 'a key without scopes keeps all access');
  });

  test('the schemas scope is limited to its id patterns and team', async () => {
    const team = as('orders-team');
    assert.equal((await team('RegisterSchema', { schema_id: 'orders-archive', schema_version: '1.0.0', schema_content: ordersApi(), ownership: { team: 'commerce' } })).success, true);
    await assert.rejects(team('RegisterSchema', { schema_id: 'billing', schema_version: '2.0.0', schema_content: ordersApi() }),
      denied(/^API key "orders-team" may register only schemas orders, orders-\*, not billing$/));
    await assert.rejects(team('RegisterSchema', { schema_id: 'orders-new', schema_version: '1.0.0', schema_content: ordersApi(), ownership: { team: 'other' } }),
      denied(/may register only schemas of team commerce; orders-new would belong to team other/));
    // Without ownership the registration inherits the latest version's team (commerce): allowed.
    assert.equal((await team('RegisterSchema', { schema_id: 'orders', schema_version: '1.1.0', schema_content: ordersApi({ withAdditions: true }) })).success, true);
  });

  test('refusals are counted by operation and scope, and audit lines name the key', async () => {
    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_permission_denied_total', { operation: 'RegisterConsumer', scope: 'record' }), 1);
    assert.equal(scrape.value('svc_permission_denied_total', { operation: 'RegisterSchema', scope: 'schemas' }), 3);
    const audit = logs.lines().filter((line) => line.audit === true);
    const refusal = audit.find((line) => line.event_type === 'permission_denied' && line.operation === 'ValidateProducerResponse');
    assert.equal(refusal?.actor, 'reader');
    const writes = audit.filter((line) => ['schema_registered', 'consumer_registered', 'deployment_recorded', 'environment_created', 'environment_deleted'].includes(line.event_type as string));
    assert.deepEqual([...new Set(writes.map((line) => `${line.event_type}:${line.actor}`))].sort(), [
      'consumer_registered:consumer-ci', 'deployment_recorded:consumer-ci', 'environment_created:ops', 'environment_deleted:legacy',
      'schema_registered:ops', 'schema_registered:orders-team',
    ]);
  });

  test('a keys file with an unknown scope stops the start with a clear message', async () => {
    const file = path.join(path.dirname(server.keysFile), 'bad-keys.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'x', key: 'x-key-00001', scopes: ['write'] }]));
    await assert.rejects(startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS_FILE: file } }), /entry 1 \("x"\): "scopes" must be an array of "read", "validate", "record", "schemas", "admin"/);
  });
});
