/**
 * What one target has deployed is read from that target's entries alone. RecordDeployment and
 * CanIDeploy read every current deployment of the schema in the environment and picked theirs, and
 * a consumer deregistered after its deployment stays recorded as deployed: after 5,000 of them
 * every deploy check of the schema read 5,000 entries (SQLite: 12 ms a read, 0.1 ms for its own),
 * and cycling them took 131 s, each RecordDeployment slower than the last.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, registerSchema } from '../helpers/validation';
import type { DeploymentFilter, DeploymentRecord } from '../../src/main/storage/storage';

/** Consumers deployed to prod, then deregistered: their deployments stay current. */
const STALE = 200;
const USED = [{ method: 'GET', path: '/users/{id}', used_fields: [] }];

let server: TestServer;
let entriesRead = 0;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  const storage = server.server.context.storage;
  const current = storage.currentDeployments.bind(storage);
  storage.currentDeployments = async (filter: DeploymentFilter): Promise<DeploymentRecord[]> => {
    const records = await current(filter);
    entriesRead += records.length;
    return records;
  };
  for (let i = 0; i < STALE; i++) {
    const consumer = { consumer_id: `gone-${i}`, schema_id: 'users' };
    assert.equal((await server.client.call('RegisterConsumer', { ...consumer, consumer_version: '1', schema_version: '1.0.0', environment: 'dev', used_endpoints: USED })).success, true);
    assert.equal((await server.client.call('RecordDeployment', { ...consumer, environment: 'prod', version: '1' })).success, true);
    await server.client.call('DeregisterConsumer', { ...consumer, environment: 'prod' });
    await server.client.call('DeregisterConsumer', { ...consumer, environment: 'dev' });
  }
});
after(() => server.close());

test(`RecordDeployment and CanIDeploy read their own target's entry, not the ${STALE} other consumers' deployments`, async () => {
  entriesRead = 0;
  const first = await server.client.call('RecordDeployment', { schema_id: 'users', environment: 'prod', version: '1.0.0' });
  assert.equal(first.success, true, first.message);
  assert.equal(first.replaced_version, '');
  const again = await server.client.call('RecordDeployment', { schema_id: 'users', environment: 'prod', version: '1.0.0' });
  assert.equal(again.replaced_version, '1.0.0');
  const gate = await server.client.call('CanIDeploy', { schema_id: 'users', new_version: '1.0.0', environment: 'prod' });
  assert.deepEqual([gate.compared_with, gate.compared_with_version], ['deployed', '1.0.0']);
  assert.ok(entriesRead <= 2, `${entriesRead} current deployments were read for three calls about one target`);

  const listing = await server.client.call('ListDeployments', { schema_id: 'users', environment: 'prod' });
  assert.equal(listing.current.length, STALE + 1, 'the deregistered consumers stay recorded as deployed');
});
