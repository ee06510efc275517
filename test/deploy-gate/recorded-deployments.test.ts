/** Recorded deployments (issue 13, item 2): can-i-deploy compares with what runs in the environment, and says so. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { caller, registerConsumer, registerVersions, verdicts, type Call } from './gate-fixtures';

describe('recorded deployments', () => {
  let server: TestServer;
  let call: Call;

  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
    call = caller(server);
    // 1.0.0 has DELETE; 1.1.0 removes it; 1.2.0 only adds to 1.1.0.
    await registerVersions(call, 'shop', [['1.0.0', {}], ['1.1.0', { withoutDelete: true }], ['1.2.0', { withoutDelete: true, withAdditions: true }]]);
  });
  after(() => server.close());

  test('without a recorded deployment the previous version is the baseline; with one, the deployed version is', async () => {
    const byPrevious = await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod' });
    assert.deepEqual([byPrevious.compared_with, byPrevious.compared_with_version, byPrevious.checked_version], ['previous', '1.1.0', '1.2.0']);
    assert.deepEqual(byPrevious.breaking_changes, [], '1.1.0 → 1.2.0 only adds');

    const recorded = await call('RecordDeployment', { schema_id: 'shop', version: '1.0.0', environment: 'prod' });
    assert.equal(recorded.success, true, recorded.message);
    assert.equal(recorded.message, 'Recorded shop 1.0.0 as deployed in prod');
    const byDeployed = await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod' });
    assert.deepEqual([byDeployed.compared_with, byDeployed.compared_with_version], ['deployed', '1.0.0']);
    assert.deepEqual(byDeployed.breaking_changes.map((c: { type: string; method: string }) => `${c.type} ${c.method}`), ['ENDPOINT_REMOVED DELETE']);
    assert.match(byDeployed.summary, /since 1\.0\.0 \(deployed in prod\)/);

    const again = await call('RecordDeployment', { schema_id: 'shop', version: '1.2.0', environment: 'prod' });
    assert.equal(again.replaced_version, '1.0.0');
    const listing = await call('ListDeployments', { schema_id: 'shop', environment: 'prod' });
    assert.deepEqual(listing.current.map((d: { version: string }) => d.version), ['1.2.0']);
    assert.deepEqual(listing.history.map((d: { version: string; recorded_by: string }) => `${d.version}/${d.recorded_by}`), ['1.2.0/anonymous', '1.0.0/anonymous']);

    const undeployed = await call('RecordUndeployment', { schema_id: 'shop', environment: 'prod' });
    assert.equal(undeployed.success, true, undeployed.message);
    assert.equal((await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod' })).compared_with, 'previous');
    const nothingLeft = await call('RecordUndeployment', { schema_id: 'shop', environment: 'prod' });
    assert.deepEqual([nothingLeft.success, nothingLeft.message], [false, 'no version of shop is recorded as deployed in prod: nothing to undeploy']);
  });

  test('a version that is not registered cannot be recorded as deployed', async () => {
    const response = await call('RecordDeployment', { schema_id: 'shop', version: '9.9.9', environment: 'staging' });
    assert.equal(response.success, false);
    assert.match(response.message, /shop has no version 9\.9\.9 \(registered: 1\.0\.0, 1\.1\.0, 1\.2\.0\)/);
  });

  test('a consumer records its deployed version and is judged by the schema version that version was tested against', async () => {
    // web 2.0.0 was tested in dev against 1.0.0 and uses DELETE; web 3.0.0 against 1.1.0 without it.
    await registerConsumer(call, { schemaId: 'shop', consumerId: 'web', consumerVersion: '2.0.0', schemaVersion: '1.0.0', environment: 'dev', endpoints: [['DELETE', '/orders/{id}'], ['GET', '/orders']] });
    await registerConsumer(call, { schemaId: 'shop', consumerId: 'web', consumerVersion: '3.0.0', schemaVersion: '1.1.0', environment: 'staging', endpoints: [['GET', '/orders']] });

    const none = await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod', fail_if_no_consumers: true });
    assert.equal(none.safe_to_deploy, false, 'no consumer recorded in prod yet');

    const old = await call('RecordDeployment', { schema_id: 'shop', consumer_id: 'web', version: '2.0.0', environment: 'prod' });
    assert.equal(old.success, true, old.message);
    assert.equal(old.deployment.schema_version, '1.0.0');
    const withOld = await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod' });
    assert.deepEqual(verdicts(withOld.affected_consumers), [['web', true]]);
    assert.equal(withOld.affected_consumers[0].current_schema_version, '1.0.0');

    assert.equal((await call('RecordDeployment', { schema_id: 'shop', consumer_id: 'web', version: '3.0.0', environment: 'prod' })).success, true);
    const withNew = await call('CanIDeploy', { schema_id: 'shop', new_version: '1.2.0', environment: 'prod' });
    assert.deepEqual(verdicts(withNew.affected_consumers), [['web', false]]);
    assert.equal(withNew.affected_consumers[0].consumer_version, '3.0.0');

    const unknown = await call('RecordDeployment', { schema_id: 'shop', consumer_id: 'web', version: '4.0.0', environment: 'prod' });
    assert.equal(unknown.success, false);
    assert.match(unknown.message, /consumer web version 4\.0\.0 is not registered for shop in any environment: register it where it was tested/);

    assert.equal((await call('RecordUndeployment', { schema_id: 'shop', consumer_id: 'web', environment: 'prod' })).success, true);
    assert.deepEqual((await call('ListConsumers', { schema_id: 'shop', environment: 'prod' })).consumers, []);
    const notDeployed = await call('RecordUndeployment', { schema_id: 'shop', consumer_id: 'web', environment: 'prod' });
    assert.deepEqual([notDeployed.success, notDeployed.message], [false, 'consumer web of shop is not recorded as deployed in prod: nothing to undeploy']);
  });
});
