/** The Node.js client's side of the deploy gate: environments, recorded deployments, candidates, refusals. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import { cliFixture } from '../cli/run-svc';
import { startTestServer, type TestServer } from '../helpers/server';

describe('ContractValidator: deploy gate', () => {
  let server: TestServer;
  let validator: ContractValidator;

  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
    validator = new ContractValidator(server.address);
  });
  after(async () => {
    validator.close();
    await server.close();
  });

  test('environments, deployments and candidates through the client', async () => {
    const qa = await validator.createEnvironment('qa', 'integration tests');
    assert.deepEqual([qa.name, qa.builtIn, qa.origin], ['qa', false, 'created']);
    assert.deepEqual((await validator.listEnvironments()).map((e) => e.name), ['dev', 'staging', 'prod', 'qa']);
    await validator.deleteEnvironment('qa');
    await assert.rejects(validator.deleteEnvironment('prod'), (error: unknown) => error instanceof ContractValidatorError && error.code === 'REJECTED');

    await validator.registerSchema('users', cliFixture('users-v1.yaml'));
    await validator.registerConsumer({ consumerId: 'web', consumerVersion: '3.4.1', schemaId: 'users', schemaVersion: '1.0.0', environment: 'dev', usedEndpoints: [{ method: 'DELETE', path: '/users/{id}', usedFields: [] }] });
    const deployed = await validator.recordDeployment({ schemaId: 'users', environment: 'prod' }, '1.0.0');
    assert.deepEqual([deployed.action, deployed.version, deployed.recordedBy], ['deployed', '1.0.0', 'anonymous']);
    const consumer = await validator.recordDeployment({ schemaId: 'users', environment: 'prod', consumerId: 'web' }, '3.4.1');
    assert.equal(consumer.schemaVersion, '1.0.0');

    const answer = await validator.canIDeployCandidate('users', cliFixture('users-v2.json'), 'prod', { failIfNoConsumers: true });
    assert.deepEqual([answer.safeToDeploy, answer.checkedVersion, answer.comparedWith, answer.comparedWithVersion], [false, '2.0.0', 'deployed', '1.0.0']);
    const compared = await validator.compareCandidate('users', cliFixture('users-v2.json'));
    assert.equal(compared.compatible, false);

    const dryRun = await validator.registerSchema('users', cliFixture('users-v2.json'), { dryRun: true, checkCompatibility: true });
    assert.equal(dryRun.metadata.schemaVersion, '2.0.0');
    assert.equal(validator.schemaVersion, '1.0.0', 'a dry run does not rebind the client');
    await assert.rejects(validator.registerSchema('users', cliFixture('users-v2.json'), { refuseBreakingChanges: true }),
      (error: unknown) => error instanceof ContractValidatorError && error.code === 'REJECTED' && /nothing was stored/.test(error.message));
    assert.equal((await validator.getSchema('users'))?.metadata.schemaVersion, '1.0.0');

    const listing = await validator.listDeployments('users', { environment: 'prod' });
    assert.deepEqual(listing.current.map((d) => d.consumerId), ['', 'web']);
    await validator.recordUndeployment({ schemaId: 'users', environment: 'prod', consumerId: 'web' });
    assert.equal((await validator.canIDeploy('users', '1.0.0', 'prod', { failIfNoConsumers: true })).safeToDeploy, false);
  });
});
