/** Check before publish (issue 13, item 3): candidates are judged without being registered; a refused one never becomes latest. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ordersApi } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';
import { caller, registerConsumer, registerVersions, verdicts, type Call } from './gate-fixtures';

describe('check before publish', () => {
  let server: TestServer;
  let call: Call;
  const breaking = ordersApi({ withoutDelete: true });

  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
    call = caller(server);
    await registerVersions(call, 'orders', [['1.0.0', {}]]);
    await registerConsumer(call, { schemaId: 'orders', consumerId: 'admin', schemaVersion: '1.0.0', environment: 'prod', endpoints: [['DELETE', '/orders/{id}']] });
  });
  after(() => server.close());

  const latest = async () => (await call('GetSchema', { schema_id: 'orders' })).metadata.schema_version;

  test('CanIDeploy and CompareSchemas judge candidate content without registering it', async () => {
    const answer = await call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'prod', candidate_content: breaking });
    assert.equal(answer.safe_to_deploy, false);
    assert.deepEqual(verdicts(answer.affected_consumers), [['admin', true]]);
    assert.deepEqual([answer.checked_version, answer.compared_with, answer.compared_with_version], ['2.0.0', 'previous', '1.0.0']);
    const compared = await call('CompareSchemas', { schema_id: 'orders', new_version: '2.0.0', new_content: breaking });
    assert.equal(compared.compatible, false);
    assert.deepEqual([compared.old_schema.schema_version, compared.new_schema.schema_version], ['1.0.0', '2.0.0']);
    const invalid = await call('CompareSchemas', { schema_id: 'orders', new_version: '2.0.0', new_content: '{"openapi": "3.0.0"}' });
    assert.match(invalid.message, /^Invalid schema: /, 'the same intake rules as registration');
    assert.equal(await latest(), '1.0.0');
    assert.equal((await call('GetSchema', { schema_id: 'orders', schema_version: '2.0.0' })).found, false);
  });

  test('refuse_breaking_changes checks first: a rejected candidate is never registered and never latest', async () => {
    const refused = await call('RegisterSchema', { schema_id: 'orders', schema_version: '2.0.0', schema_content: breaking, check_compatibility: true, refuse_breaking_changes: true });
    assert.equal(refused.success, false);
    assert.match(refused.message, /^Schema orders version 2\.0\.0 not registered: 1 breaking change\(s\) found since 1\.0\.0 \(refuse_breaking_changes\); nothing was stored$/);
    assert.deepEqual(refused.breaking_changes.map((c: { type: string }) => c.type), ['ENDPOINT_REMOVED']);
    assert.equal(await latest(), '1.0.0');
    assert.equal((await call('GetSchema', { schema_id: 'orders', schema_version: '2.0.0' })).found, false);

    const compatible = await call('RegisterSchema', { schema_id: 'orders', schema_version: '1.1.0', schema_content: ordersApi({ withAdditions: true }), refuse_breaking_changes: true });
    assert.equal(compatible.success, true, compatible.message);
    assert.equal(await latest(), '1.1.0');
  });

  test('check_compatibility alone keeps the spec behaviour: reports and registers', async () => {
    const reported = await call('RegisterSchema', { schema_id: 'legacy', schema_version: '1.0.0', schema_content: ordersApi() });
    assert.equal(reported.success, true);
    const next = await call('RegisterSchema', { schema_id: 'legacy', schema_version: '2.0.0', schema_content: breaking, check_compatibility: true });
    assert.equal(next.success, true);
    assert.equal(next.breaking_changes.length, 1);
    assert.equal((await call('GetSchema', { schema_id: 'legacy' })).metadata.schema_version, '2.0.0');
  });

  test('a dry run checks and stores nothing', async () => {
    const dry = await call('RegisterSchema', { schema_id: 'orders', schema_version: '3.0.0', schema_content: breaking, check_compatibility: true, dry_run: true });
    assert.equal(dry.success, true, dry.message);
    assert.match(dry.message, /^Dry run: Schema orders version 3\.0\.0 would be registered; \d+ breaking change\(s\) found since 1\.1\.0; nothing was stored$/);
    assert.equal(dry.metadata.schema_version, '3.0.0');
    const fresh = await call('RegisterSchema', { schema_id: 'brand-new', schema_content: ordersApi(), schema_version: '1.0.0', dry_run: true });
    assert.equal(fresh.success, true, fresh.message);
    assert.equal((await call('GetSchema', { schema_id: 'orders', schema_version: '3.0.0' })).found, false);
    assert.equal((await call('GetSchema', { schema_id: 'brand-new' })).found, false);
    assert.equal(await latest(), '1.1.0');
  });
});
