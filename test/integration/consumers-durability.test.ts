/** Consumer registrations survive a restart of a server with SQLite storage in a data folder. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import { ordersApi } from '../helpers/orders-api';
import { makeTempDir, startTestServer } from '../helpers/server';

const dataDir = makeTempDir('svc-consumers-');
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('registrations, updates and removals made before a restart are what the restarted server lists and judges', async () => {
  const first = await startTestServer({ storage: 'sqlite', dataDir });
  let before: unknown;
  try {
    const call = first.client.call.bind(first.client);
    for (const [version, content] of [['1.0.0', ordersApi()], ['2.0.0', ordersApi({ withoutDelete: true })]] as const) {
      assert.equal((await call('RegisterSchema', { schema_id: 'orders', schema_version: version, schema_content: content })).success, true);
    }
    const registrations = [
      { consumer_id: 'web', schema_version: '1.0.0', environment: 'prod', used_endpoints: [{ method: 'DELETE', path: '/orders/{id}', used_fields: [] }] },
      { consumer_id: 'web', schema_version: '1.0.0', environment: 'staging', used_endpoints: [{ method: 'GET', path: '/orders', used_fields: ['id'] }] },
      { consumer_id: 'ops', schema_version: '1.0.0', environment: 'prod', used_endpoints: [{ method: 'GET', path: '/customers/{cid}', used_fields: ['name'] }] },
      { consumer_id: 'gone', schema_version: '1.0.0', environment: 'prod', used_endpoints: [] },
    ];
    for (const registration of registrations) {
      const response = await call('RegisterConsumer', { consumer_version: '3.1.4', schema_id: 'orders', ...registration });
      assert.equal(response.success, true, response.message);
    }
    const update = await call('RegisterConsumer', { consumer_id: 'ops', consumer_version: '3.2.0', schema_id: 'orders', schema_version: '2.0.0', environment: 'prod', used_endpoints: [{ method: 'GET', path: '/orders' }] });
    assert.equal(update.success, true, update.message);
    assert.equal((await call('DeregisterConsumer', { consumer_id: 'gone', schema_id: 'orders', environment: 'prod' })).success, true);
    before = (await call('ListConsumers', { schema_id: 'orders' })).consumers;
  } finally {
    await first.close();
  }

  const second = await startTestServer({ storage: 'sqlite', dataDir });
  try {
    const listed = await second.client.call('ListConsumers', { schema_id: 'orders' });
    assert.deepEqual(listed.consumers, before);
    assert.deepEqual(
      listed.consumers.map((consumer: { consumer_id: string; environment: string; consumer_version: string; schema_version: string }) =>
        `${consumer.consumer_id}/${consumer.environment} ${consumer.consumer_version} @${consumer.schema_version}`).sort(),
      ['ops/prod 3.2.0 @2.0.0', 'web/prod 3.1.4 @1.0.0', 'web/staging 3.1.4 @1.0.0'],
    );
    const verdict = await second.client.call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'prod' });
    assert.equal(verdict.safe_to_deploy, false, 'the restored registration of web still uses DELETE /orders/{id}');
    assert.deepEqual(verdict.affected_consumers.map((impact: { consumer_id: string; will_break: boolean }) => [impact.consumer_id, impact.will_break]), [['ops', false], ['web', true]]);
  } finally {
    await second.close();
  }
});
