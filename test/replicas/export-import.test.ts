/**
 * `svc export` from SQLite, `svc import` into PostgreSQL: the same GetSchema answers and hashes, the
 * same environments, deployment history and can-i-deploy answers, and importing again changes nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runSvc } from '../cli/run-svc';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { createTestClient, makeTempDir, spawnServerProcess } from '../helpers/server';
import { readSchemaFixture } from '../helpers/documents';
import { usersDocument } from './replica-set';

const SCHEMAS = [
  { schema_id: 'users', schema_content: usersDocument('1.0.0') },
  { schema_id: 'users', schema_content: usersDocument('1.1.0') },
  { schema_id: 'locked', schema_content: usersDocument('2.0.0'), ownership: { owner: 'alice', team: 'core', contact_email: 'a@example.com', read_only: true } },
];

describe('export from SQLite, import into PostgreSQL', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  let dataDir: string;
  before(async () => {
    cluster = await startPostgresCluster();
    dataDir = makeTempDir('svc-export-');
  });
  after(async () => {
    await cluster?.destroy();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('moves every schema and consumer with identical answers; a second import changes nothing', async () => {
    // A Swagger 2.0 document too: its engine document is derived again on import.
    const pets = readSchemaFixture('pets-2.0-basepath.json');
    const source = await spawnServerProcess({ storage: 'sqlite', dataDir });
    const sourceClient = createTestClient(source.address);
    const requests: Array<Record<string, unknown>> = [...SCHEMAS, { schema_id: 'pets', schema_content: pets }];
    for (const request of requests) {
      const answer = await sourceClient.call('RegisterSchema', request);
      assert.equal(answer.success, true, answer.message);
    }
    const consumer = await sourceClient.call('RegisterConsumer', {
      consumer_id: 'web', consumer_version: '3.1.0', schema_id: 'users', schema_version: '1.0.0', environment: 'prod',
      used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['email'] }],
    });
    assert.equal(consumer.success, true, consumer.message);
    const environment = await sourceClient.call('CreateEnvironment', { name: 'canary', description: 'one region first' });
    assert.equal(environment.success, true, environment.message);
    // A history whose order matters: 1.1.0 is deployed to prod now, 1.0.0 was undeployed from canary.
    for (const [operation, request] of [
      ['RecordDeployment', { schema_id: 'users', version: '1.0.0', environment: 'prod' }],
      ['RecordDeployment', { schema_id: 'users', version: '1.1.0', environment: 'prod' }],
      ['RecordDeployment', { schema_id: 'users', version: '1.0.0', environment: 'canary' }],
      ['RecordUndeployment', { schema_id: 'users', environment: 'canary' }],
      ['RecordDeployment', { schema_id: 'users', version: '3.1.0', environment: 'prod', consumer_id: 'web' }],
    ] as const) {
      const recorded = await sourceClient.call(operation, request);
      assert.equal(recorded.success, true, recorded.message);
    }
    const gateQuestion = { schema_id: 'users', version: '1.1.0', environment: 'prod' };
    const deploymentsBefore = await sourceClient.call('ListDeployments', { schema_id: 'users', limit: 50 });
    const environmentsBefore = await sourceClient.call('ListEnvironments', {});
    const gateBefore = await sourceClient.call('CanIDeploy', gateQuestion);
    const versions = [['users', '1.0.0'], ['users', '1.1.0'], ['locked', '2.0.0'], ['pets', '']] as const;
    const before = await Promise.all(versions.map(([schemaId, version]) => sourceClient.call('GetSchema', { schema_id: schemaId, schema_version: version })));
    const consumersBefore = await sourceClient.call('ListConsumers', { schema_id: 'users' });
    sourceClient.close();
    await source.stop();

    const archive = path.join(dataDir, 'registry.jsonl');
    const exported = await runSvc(['export', '--data-dir', dataDir, '--output', archive]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /exported 4 schema version\(s\), 1 consumer registration\(s\), \d+ environment\(s\) and 5 deployment record\(s\)/);

    const databaseUrl = await cluster.createDatabase('imported');
    const imported = await runSvc(['import', archive, '--storage', 'postgres', '--database-url', databaseUrl]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /schema versions: 4 created, 0 updated, 0 unchanged; consumer registrations: 1 created.*environments: [1-9]\d* created.*deployment records: 5 appended, 0 unchanged/);
    const again = await runSvc(['import', archive, '--storage', 'postgres', '--database-url', databaseUrl]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /schema versions: 0 created, 0 updated, 4 unchanged; consumer registrations: 0 created, 0 updated, 1 unchanged; environments: 0 created, 0 updated, [1-9]\d* unchanged; deployment records: 0 appended, 5 unchanged/);

    const target = await spawnServerProcess({ storage: 'postgres', args: ['--database-url', databaseUrl, '--worker-threads', '1'] });
    const targetClient = createTestClient(target.address);
    try {
      const afterImport = await Promise.all(versions.map(([schemaId, version]) => targetClient.call('GetSchema', { schema_id: schemaId, schema_version: version })));
      assert.deepEqual(afterImport, before);
      assert.deepEqual(await targetClient.call('ListConsumers', { schema_id: 'users' }), consumersBefore);
      assert.deepEqual(await targetClient.call('ListEnvironments', {}), environmentsBefore);
      assert.deepEqual(await targetClient.call('ListDeployments', { schema_id: 'users', limit: 50 }), deploymentsBefore);
      assert.deepEqual(await targetClient.call('CanIDeploy', gateQuestion), gateBefore);
    } finally {
      targetClient.close();
      await target.stop();
    }
  });
});
