/** Environments are known things (issue 13, item 1): a misspelt one is an error, never "safe". */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { startTestServer, type TestServer } from '../helpers/server';
import { caller, registerConsumer, registerVersions, type Call } from './gate-fixtures';

describe('environments', () => {
  let server: TestServer;
  let call: Call;

  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
    call = caller(server);
    await registerVersions(call, 'orders', [['1.0.0', {}], ['2.0.0', { withoutDelete: true }]]);
  });
  after(() => server.close());

  test('an unknown environment is refused by CanIDeploy, RegisterConsumer and RecordDeployment, listing the known ones', async () => {
    const known = /environment "prdo" is not known; known environments: dev, staging, prod\. Check the spelling, or create it first \(svc environment create prdo\)/;
    await assert.rejects(call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'prdo' }), { code: status.FAILED_PRECONDITION, details: known });
    const registration = await call('RegisterConsumer', {
      consumer_id: 'web', schema_id: 'orders', schema_version: '1.0.0', environment: 'prdo', used_endpoints: [{ method: 'GET', path: '/orders' }],
    });
    assert.deepEqual([registration.success, known.test(registration.message)], [false, true], registration.message);
    const deployment = await call('RecordDeployment', { schema_id: 'orders', version: '1.0.0', environment: 'prdo' });
    assert.deepEqual([deployment.success, known.test(deployment.message)], [false, true], deployment.message);
    assert.deepEqual((await call('ListConsumers', { schema_id: 'orders' })).consumers, [], 'nothing was registered');
  });

  test('a created environment is usable, listed after the built-in ones, and deletable once unused', async () => {
    const created = await call('CreateEnvironment', { name: 'qa', description: 'integration tests' });
    assert.equal(created.success, true, created.message);
    assert.deepEqual([created.environment.name, created.environment.origin, created.environment.built_in], ['qa', 'created', false]);
    assert.equal((await call('CreateEnvironment', { name: 'qa' })).message, 'Environment qa already exists');
    const listed = await call('ListEnvironments', {});
    assert.deepEqual(listed.environments.map((e: { name: string; origin: string }) => `${e.name}:${e.origin}`), ['dev:built-in', 'staging:built-in', 'prod:built-in', 'qa:created']);

    await registerConsumer(call, { schemaId: 'orders', consumerId: 'web', schemaVersion: '1.0.0', environment: 'qa', endpoints: [['DELETE', '/orders/{id}']] });
    const answer = await call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'qa' });
    assert.equal(answer.safe_to_deploy, false);

    const inUse = await call('DeleteEnvironment', { name: 'qa' });
    assert.equal(inUse.success, false);
    assert.match(inUse.message, /environment qa is still in use: 1 consumer registration\(s\)/);
    assert.equal((await call('DeregisterConsumer', { consumer_id: 'web', schema_id: 'orders', environment: 'qa' })).success, true);
    assert.equal((await call('DeleteEnvironment', { name: 'qa' })).success, true);
    const builtIn = await call('DeleteEnvironment', { name: 'prod' });
    assert.match(builtIn.message, /environment prod is built in/);
    await assert.rejects(call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'qa' }), { code: status.FAILED_PRECONDITION });
  });

  test('fail_if_no_consumers turns "no consumers registered" into a negative answer', async () => {
    const lenient = await call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'staging' });
    assert.equal(lenient.safe_to_deploy, true);
    const strict = await call('CanIDeploy', { schema_id: 'orders', new_version: '2.0.0', environment: 'staging', fail_if_no_consumers: true });
    assert.equal(strict.safe_to_deploy, false);
    assert.match(strict.summary, /^Not safe to deploy orders 2\.0\.0 to staging: no consumers are registered for orders in staging, so nothing was checked \(fail_if_no_consumers\)/);
  });
});

describe('environments on a server that allows unknown ones', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workerThreads: 1, allowUnknownEnvironments: true });
    await registerVersions(caller(server), 'orders', [['1.0.0', {}]]);
  });
  after(() => server.close());

  test('a registration creates the environment on first use, as servers did before', async () => {
    const call = caller(server);
    assert.equal((await call('CanIDeploy', { schema_id: 'orders', new_version: '1.0.0', environment: 'eu-1' })).safe_to_deploy, true);
    await registerConsumer(call, { schemaId: 'orders', consumerId: 'web', schemaVersion: '1.0.0', environment: 'eu-1', endpoints: [['GET', '/orders']] });
    const listed = await call('ListEnvironments', {});
    assert.ok(listed.environments.some((e: { name: string; origin: string }) => e.name === 'eu-1' && e.origin === 'consumer-registration'));
  });
});
