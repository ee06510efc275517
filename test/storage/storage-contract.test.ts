/** One contract suite, run against every storage backend. */
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { LISTED_ENDPOINT_CHARS as E, LISTED_USED_FIELD_CHARS as F, type ConsumerRecord, type DeploymentRecord, EnvironmentRecord, InteractionSampleRecord, SchemaVersionWrite, Storage, UsageRecord } from '../../src/main/storage/storage';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { SqliteStorage } from '../../src/main/storage/sqlite-storage';
import { SqliteThreadStorage } from '../../src/main/storage/sqlite-thread-storage';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { makeTempDir } from '../helpers/server';
import { DEFAULT_RECORDING_LIMITS } from '../../src/main/evidence/recording-limits';
import { ALL_FIELDS } from '../../src/shared/evidence/field-paths';

interface Backend {
  name: string;
  open(): Storage | Promise<Storage>;
  /** Re-opens the same data (undefined when the backend keeps nothing). */
  reopen?(): Storage | Promise<Storage>;
  cleanup(): void | Promise<void>;
  /** Once before and after the backend's tests (a database server to start and stop). */
  setUp?(): Promise<void>;
  tearDown?(): Promise<void>;
  /** Why this backend's tests cannot run here. */
  skip?: string | false;
}

function backends(): Backend[] {
  return [
    { name: 'memory', open: () => new MemoryStorage(), cleanup: () => {} },
    sqliteBackend('sqlite', (dir) => new SqliteStorage(dir)),
    // What the server runs: the same store on a thread of its own, each call a message.
    sqliteBackend('sqlite on its own thread', (dir) => new SqliteThreadStorage(dir)),
    postgresBackend(),
  ];
}

/** A SQLite store in a fresh data folder per test. */
function sqliteBackend(name: string, open: (dir: string) => Storage): Backend {
  let dir = '';
  return {
    name,
    open: () => {
      dir = makeTempDir('svc-storage-');
      return open(dir);
    },
    reopen: () => open(dir),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** One cluster for the file, one fresh database per test. */
function postgresBackend(): Backend {
  let cluster: PostgresCluster | undefined;
  let databases = 0;
  let url = '';
  return {
    name: 'postgres',
    skip: POSTGRES_SKIP_REASON,
    setUp: async () => {
      cluster = await startPostgresCluster();
    },
    tearDown: async () => {
      await cluster?.destroy();
    },
    open: async () => {
      url = await cluster!.createDatabase(`contract_${++databases}`);
      return new PostgresStorage({ databaseUrl: url });
    },
    reopen: () => new PostgresStorage({ databaseUrl: url }),
    cleanup: () => {},
  };
}

function schemaRecord(overrides: Partial<SchemaVersionWrite> = {}): SchemaVersionWrite & { content: string } {
  return {
    schemaId: 'users',
    version: '1.0.0',
    content: '{"openapi":"3.0.0"}',
    contentHash: 'a'.repeat(64),
    documentJson: '{"openapi":"3.0.0"}',
    openapiVersion: '3.0.0',
    endpointCount: 2,
    ownership: { owner: 'alice', team: 'core', contactEmail: 'a@example.com', readOnly: false },
    registeredAt: 1_700_000_000,
    updatedAt: 1_700_000_000,
    intakeRevision: 3,
    ...overrides,
  } as SchemaVersionWrite & { content: string };
}

function consumerRecord(overrides: Partial<ConsumerRecord> = {}): ConsumerRecord {
  return {
    consumerId: 'web',
    consumerVersion: '2.3.0',
    schemaId: 'users',
    schemaVersion: '1.0.0',
    environment: 'prod',
    registeredAt: 1_700_000_000,
    lastValidatedAt: 1_700_000_100,
    usedEndpoints: [{ method: 'GET', path: '/users/{id}', usedFields: ['id', 'email'] }],
    ...overrides,
  };
}

function environmentRecord(overrides: Partial<EnvironmentRecord> = {}): EnvironmentRecord {
  return { name: 'qa', description: 'integration tests', origin: 'created', createdAt: 1_700_000_000, createdBy: 'ops', ...overrides };
}

function deploymentRecord(overrides: Partial<DeploymentRecord> = {}): DeploymentRecord {
  return {
    schemaId: 'users', environment: 'prod', consumerId: '', version: '1.0.0', action: 'deployed', schemaVersion: '',
    recordedAt: 1_700_000_000, recordedBy: 'ci', ...overrides,
  };
}

const USAGE_LIMITS = Object.freeze({ samplesPerKey: 20, maxFieldsPerKey: 500, maxSampleBytesTotal: DEFAULT_RECORDING_LIMITS.maxSampleBytesTotal });

function usageRecord(overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    consumerId: 'web', schemaId: 'users', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
    schemaVersion: '1.0.0', callCount: 3, validCount: 2, firstSeenAt: 1_700_000_000, lastSeenAt: 1_700_000_100,
    usedFields: ['id', 'tags[]'], receivedFields: ['name'], ...overrides,
  };
}

function sampleRecord(overrides: Partial<InteractionSampleRecord> = {}): InteractionSampleRecord {
  return {
    consumerId: 'web', schemaId: 'users', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
    shape: 'shape-a', schemaVersion: '1.0.0', valid: true, recordedAt: 1_700_000_100,
    interactionJson: '{"request":{"method":"GET","path":"/users/1"},"response":{"status_code":200,"body":"{}"}}', ...overrides,
  };
}

for (const backend of backends()) {
  describe(`storage contract: ${backend.name}`, { skip: backend.skip }, () => {
    let storage: Storage;
    if (backend.setUp) before(() => backend.setUp!());
    if (backend.tearDown) after(() => backend.tearDown!());
    beforeEach(async () => {
      storage = await backend.open();
    });
    afterEach(async () => {
      await storage.close();
      await backend.cleanup();
    });

    it('saves and reads a schema version with its texts', async () => {
      const { intakeRevision, ...record } = schemaRecord();
      await storage.saveSchemaVersion({ ...record, intakeRevision });
      assert.deepEqual(await storage.getSchemaVersion('users', '1.0.0'), record);
      assert.equal(await storage.getSchemaVersion('users', '9.9.9'), undefined);
      assert.deepEqual(await storage.getSchemaDocument('users', '1.0.0'), { contentHash: record.contentHash, documentJson: record.documentJson, intakeRevision: 3 });
      assert.equal(await storage.getSchemaDocument('users', '9.9.9'), undefined);
      assert.equal(await storage.getSchemaContentBytes('users', '9.9.9'), undefined);
      // The registered text as its UTF-8 bytes, characters outside ASCII and the BMP included.
      const text = '# Café ☕ 🐘\n{"openapi":"3.0.0","info":{"title":"Ünïcode"}}';
      await storage.saveSchemaVersion(schemaRecord({ version: '1.1.0', content: text }));
      assert.deepEqual(await storage.getSchemaContentBytes('users', '1.1.0'), Buffer.from(text, 'utf8'));
      assert.equal(await storage.getSchemaVersion('nobody', '1.0.0'), undefined);
    });

    it('replaces a document by one of a later intake revision of the same text, and only then', async () => {
      await storage.saveSchemaVersion(schemaRecord());
      const document = (documentJson: string, intakeRevision: number, contentHash = 'a'.repeat(64)) => ({ contentHash, documentJson, intakeRevision });
      assert.equal(await storage.updateSchemaDocument('users', '1.0.0', document('{"later":true}', 3)), false, 'the same revision');
      assert.equal(await storage.updateSchemaDocument('users', '1.0.0', document('{"later":true}', 4, 'b'.repeat(64))), false, 'another text');
      assert.equal(await storage.updateSchemaDocument('users', '2.0.0', document('{"later":true}', 4)), false, 'no such version');
      assert.equal(await storage.updateSchemaDocument('users', '1.0.0', document('{"later":true}', 4)), true);
      assert.deepEqual(await storage.getSchemaDocument('users', '1.0.0'), document('{"later":true}', 4));
      assert.equal(await storage.updateSchemaDocument('users', '1.0.0', document('{"earlier":true}', 2)), false, 'never back');
      assert.equal((await storage.getSchemaVersion('users', '1.0.0'))?.content, '{"openapi":"3.0.0"}', 'the registered text stays');
      await storage.saveSchemaVersion(schemaRecord({ version: '1.1.0', ownership: { owner: 'o', team: 't', contactEmail: '', readOnly: true } }));
      assert.equal(await storage.updateSchemaDocument('users', '1.1.0', document('{"later":true}', 4)), true, 'a read-only version too: its text stays');
      assert.equal((await storage.loadSchemaIndex()).length, 2);
    });

    it('indexes every version without texts', async () => {
      await storage.saveSchemaVersion(schemaRecord());
      await storage.saveSchemaVersion(schemaRecord({ version: '1.1.0', contentHash: 'b'.repeat(64) }));
      await storage.saveSchemaVersion(schemaRecord({ schemaId: 'orders' }));
      const index = await storage.loadSchemaIndex();
      assert.equal(index.length, 3);
      for (const summary of index) {
        assert.equal('content' in summary, false);
        assert.equal('documentJson' in summary, false);
      }
      const v110 = index.find((s) => s.schemaId === 'users' && s.version === '1.1.0');
      assert.equal(v110?.contentHash, 'b'.repeat(64));
      assert.deepEqual(v110?.ownership, { owner: 'alice', team: 'core', contactEmail: 'a@example.com', readOnly: false });
    });

    it('replaces a version in place, keeping one row per (schema, version)', async () => {
      await storage.saveSchemaVersion(schemaRecord());
      await storage.saveSchemaVersion(schemaRecord({ content: 'new', contentHash: 'c'.repeat(64), updatedAt: 1_700_000_500, ownership: { owner: 'bob', team: 't', contactEmail: '', readOnly: true } }));
      const record = await storage.getSchemaVersion('users', '1.0.0');
      assert.equal(record?.content, 'new');
      assert.equal(record?.updatedAt, 1_700_000_500);
      assert.equal(record?.ownership.readOnly, true);
      assert.equal((await storage.loadSchemaIndex()).length, 1);
    });

    it('stores, filters, replaces and deletes consumers by their key', async () => {
      await storage.saveConsumer(consumerRecord());
      await storage.saveConsumer(consumerRecord({ environment: 'dev' }));
      await storage.saveConsumer(consumerRecord({ consumerId: 'mobile' }));
      await storage.saveConsumer(consumerRecord({ schemaId: 'orders' }));

      assert.equal((await storage.listConsumers({})).length, 4);
      await storage.saveConsumer(consumerRecord({ consumerId: 'Web2' }));
      const usersProd = await storage.listConsumers({ schemaId: 'users', environment: 'prod' });
      assert.deepEqual(usersProd.map((c) => c.consumerId), ['Web2', 'mobile', 'web'], 'code-unit order in every backend');
      const webOfUsers = await storage.listConsumers({ schemaId: 'users', consumerId: 'web' });
      assert.deepEqual(webOfUsers.map((c) => c.environment), ['dev', 'prod'], 'one consumer of one schema, every environment');
      assert.equal(await storage.deleteConsumer({ consumerId: 'Web2', schemaId: 'users', environment: 'prod' }), true);
      assert.equal((await storage.listConsumers({ environment: 'dev' })).length, 1);

      await storage.saveConsumer(consumerRecord({ consumerVersion: '3.0.0', usedEndpoints: [] }));
      const updated = await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' });
      assert.equal(updated?.consumerVersion, '3.0.0');
      assert.deepEqual(updated?.usedEndpoints, []);
      assert.equal((await storage.listConsumers({ schemaId: 'users', environment: 'prod' })).length, 2);

      assert.equal(await storage.deleteConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' }), true);
      assert.equal(await storage.deleteConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' }), false);
      assert.equal(await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' }), undefined);
    });

    it('deletes a registration only while it is the one expected, when one is named', async () => {
      await storage.saveConsumer(consumerRecord());
      const key = { consumerId: 'web', schemaId: 'users', environment: 'prod' };
      const read = (await storage.getConsumer(key))!;
      await storage.saveConsumer(consumerRecord({ consumerVersion: '2.4.0' }));
      assert.equal(await storage.deleteConsumer(key, read), false, 'replaced since it was read');
      assert.equal((await storage.getConsumer(key))?.consumerVersion, '2.4.0');
      await storage.saveConsumer(consumerRecord({ usedEndpoints: [{ method: 'GET', path: '/users/{id}', usedFields: ['name'] }] }));
      const again = (await storage.getConsumer(key))!;
      await storage.saveConsumer(consumerRecord());
      assert.equal(await storage.deleteConsumer(key, again), false, 'the same versions and time, other used fields');
      assert.equal(await storage.deleteConsumer(key, (await storage.getConsumer(key))!), true);
      assert.equal(await storage.getConsumer(key), undefined);
    });

    it('counts a schema\'s registrations and what they weigh in a listing (the characters of their used fields and paths, and a weight per endpoint and field), every environment or one, as they are replaced and deleted', async () => {
      assert.deepEqual(await storage.consumerUsedFields('users'), { registrations: 0, chars: 0 });
      await storage.saveConsumer(consumerRecord()); // /users/{id}, id, email: 11 + 7, one endpoint, two fields
      const first = 18 + E + 2 * F;
      await storage.saveConsumer(consumerRecord({ environment: 'dev', usedEndpoints: [
        { method: 'GET', path: '/users/{id}', usedFields: ['name', 'address.city'] },
        { method: 'POST', path: '/users', usedFields: ['id'] },
      ] })); // 11 + 4 + 12, 6 + 2
      const dev = 35 + 2 * E + 3 * F;
      await storage.saveConsumer(consumerRecord({ schemaId: 'orders', usedEndpoints: [{ method: 'GET', path: '/orders', usedFields: ['total'] }] }));
      assert.deepEqual(await storage.consumerUsedFields('users'), { registrations: 2, chars: first + dev });
      assert.deepEqual(await storage.consumerUsedFields('users', 'dev'), { registrations: 1, chars: dev });
      assert.deepEqual(await storage.consumerUsedFields('users', 'staging'), { registrations: 0, chars: 0 });
      assert.deepEqual(await storage.consumerUsedFields('orders'), { registrations: 1, chars: 7 + 5 + E + F });
      await storage.saveConsumer(consumerRecord({ usedEndpoints: [{ method: 'GET', path: '/users/{id}', usedFields: ['é'] }] }));
      assert.deepEqual(await storage.consumerUsedFields('users'), { registrations: 2, chars: 11 + 1 + E + F + dev }, 'a replaced registration counts once, by its new fields');
      await storage.deleteConsumer({ consumerId: 'web', schemaId: 'users', environment: 'dev' });
      assert.deepEqual(await storage.consumerUsedFields('users'), { registrations: 1, chars: 11 + 1 + E + F });
      assert.deepEqual(await storage.consumerUsedFields('nobody'), { registrations: 0, chars: 0 });
    });

    it('returns copies that callers cannot use to change stored data', async () => {
      await storage.saveConsumer(consumerRecord());
      const first = await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' });
      first!.usedEndpoints[0]!.usedFields.push('mutated');
      const second = await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' });
      assert.deepEqual(second!.usedEndpoints[0]!.usedFields, ['id', 'email']);
    });

    it('creates environments once, lists them by name and deletes them', async () => {
      assert.deepEqual(await storage.listEnvironments(), []);
      assert.equal(await storage.createEnvironment(environmentRecord()), true);
      assert.equal(await storage.createEnvironment(environmentRecord({ description: 'again', createdBy: 'other' })), false);
      assert.equal(await storage.createEnvironment(environmentRecord({ name: 'eu-1', origin: 'deployment' })), true);
      assert.deepEqual(await storage.listEnvironments(), [environmentRecord({ name: 'eu-1', origin: 'deployment' }), environmentRecord()]);
      assert.deepEqual(await storage.deleteEnvironment('qa'), { outcome: 'deleted' });
      assert.deepEqual(await storage.deleteEnvironment('qa'), { outcome: 'not-found' });
      assert.deepEqual((await storage.listEnvironments()).map((e) => e.name), ['eu-1']);
    });

    it('keeps an environment a registration or a current deployment names, and refuses writes into one it does not hold', async () => {
      await storage.createEnvironment(environmentRecord());
      await storage.saveConsumer(consumerRecord({ environment: 'qa' }));
      assert.deepEqual(await storage.deleteEnvironment('qa'), { outcome: 'in-use', consumers: 1, deployments: 0 });
      await storage.deleteConsumer({ consumerId: 'web', schemaId: 'users', environment: 'qa' });
      await storage.appendDeployment(deploymentRecord({ environment: 'qa' }));
      assert.deepEqual(await storage.deleteEnvironment('qa'), { outcome: 'in-use', consumers: 0, deployments: 1 });
      await storage.appendDeployment(deploymentRecord({ environment: 'qa', version: '', action: 'undeployed' }));
      assert.deepEqual(await storage.deleteEnvironment('qa'), { outcome: 'deleted' }, 'history alone does not keep it');

      const gone = (error: unknown) => (error as { code?: unknown }).code === 'ENVIRONMENT_NOT_FOUND' && /"qa" does not exist any more/.test((error as Error).message);
      await assert.rejects(storage.saveConsumer(consumerRecord({ environment: 'qa' })), gone);
      await assert.rejects(storage.appendDeployment(deploymentRecord({ environment: 'qa', version: '2.0.0' })), gone);
      await assert.rejects(storage.saveConsumer(consumerRecord({ environment: 'never-created' })), (error: unknown) => (error as { code?: unknown }).code === 'ENVIRONMENT_NOT_FOUND');
      assert.equal(await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'qa' }), undefined);
      assert.equal((await storage.listDeployments({ environment: 'qa' }, 10)).length, 2, 'nothing appended after the delete');
      await storage.saveConsumer(consumerRecord({ environment: 'staging' }));
      await storage.appendDeployment(deploymentRecord({ environment: 'staging' }));
      assert.equal((await storage.listConsumers({ environment: 'staging' })).length, 1, 'built-in environments are never stored and always take writes');
    });

    it('lets a registration or a deployment racing the delete of its environment win, or the delete, never both', async () => {
      const ROUNDS = 12;
      let deletions = 0;
      let writes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const name = `race-${round}`;
        await storage.createEnvironment(environmentRecord({ name }));
        const write = round % 2 === 0
          ? storage.saveConsumer(consumerRecord({ environment: name }))
          : storage.appendDeployment(deploymentRecord({ environment: name }));
        const [deletion, written] = await Promise.allSettled([storage.deleteEnvironment(name), write]);
        assert.equal(deletion.status, 'fulfilled');
        const deleted = deletion.status === 'fulfilled' && deletion.value.outcome === 'deleted';
        if (written.status === 'rejected') assert.equal((written.reason as { code?: unknown }).code, 'ENVIRONMENT_NOT_FOUND');
        assert.ok(deleted !== (written.status === 'fulfilled'), `round ${round}: deleted ${deleted}, write ${written.status}`);
        const stored = (await storage.listEnvironments()).some((environment) => environment.name === name);
        const named = (await storage.listConsumers({ environment: name })).length + (await storage.currentDeployments({ environment: name })).length;
        assert.equal(stored, named > 0, `round ${round}: an environment is stored exactly when something names it`);
        if (deleted) deletions++;
        else writes++;
      }
      assert.equal(deletions + writes, ROUNDS);
    });

    it('keeps the deployment history newest first and derives what is deployed now', async () => {
      await storage.appendDeployment(deploymentRecord());
      await storage.appendDeployment(deploymentRecord({ version: '1.1.0' }));
      await storage.appendDeployment(deploymentRecord({ environment: 'staging', version: '1.2.0' }));
      await storage.appendDeployment(deploymentRecord({ consumerId: 'web', version: '3.0.0', schemaVersion: '1.0.0' }));
      await storage.appendDeployment(deploymentRecord({ schemaId: 'orders', version: '2.0.0' }));
      // Same second as the entries before: insertion order decides, not the timestamp.
      await storage.appendDeployment(deploymentRecord({ environment: 'staging', version: '', action: 'undeployed' }));

      const history = await storage.listDeployments({ schemaId: 'users' }, 10);
      assert.deepEqual(history.map((d) => `${d.environment}/${d.consumerId}/${d.action}/${d.version}`),
        ['staging//undeployed/', 'prod/web/deployed/3.0.0', 'staging//deployed/1.2.0', 'prod//deployed/1.1.0', 'prod//deployed/1.0.0']);
      assert.deepEqual(history[1], deploymentRecord({ consumerId: 'web', version: '3.0.0', schemaVersion: '1.0.0' }));
      assert.equal((await storage.listDeployments({ schemaId: 'users', environment: 'prod' }, 2)).length, 2);
      assert.equal((await storage.listDeployments({}, 100)).length, 6);

      const current = await storage.currentDeployments({ schemaId: 'users' });
      assert.deepEqual(current.map((d) => `${d.environment}/${d.consumerId}/${d.version}`), ['prod//1.1.0', 'prod/web/3.0.0']);
      assert.deepEqual((await storage.currentDeployments({ environment: 'prod' })).map((d) => `${d.schemaId}/${d.consumerId}/${d.version}`),
        ['orders//2.0.0', 'users//1.1.0', 'users/web/3.0.0']);
      assert.deepEqual(await storage.currentDeployments({ schemaId: 'users', environment: 'staging' }), []);
      assert.deepEqual((await storage.currentDeployments({ schemaId: 'users', environment: 'prod', consumerId: '' })).map((d) => d.version), ['1.1.0']);
      assert.deepEqual((await storage.currentDeployments({ schemaId: 'users', environment: 'prod', consumerId: 'web' })).map((d) => d.version), ['3.0.0']);
      assert.deepEqual((await storage.listDeployments({ schemaId: 'users', consumerId: 'web' }, 10)).map((d) => d.version), ['3.0.0']);
    });

    it('adds usage to the row of its key: counts add, times widen, fields unite up to the limit', async () => {
      await storage.addUsage([usageRecord(), usageRecord({ consumerId: 'app', status: 404 })], [], USAGE_LIMITS);
      await storage.addUsage([usageRecord({
        callCount: 9, validCount: 9, firstSeenAt: 1_700_000_050, lastSeenAt: 1_700_000_090, schemaVersion: '0.9.0',
        usedFields: ['name'], receivedFields: ['email', 'id'],
      })], [], USAGE_LIMITS);
      const rows = await storage.listUsage({ schemaId: 'users' });
      assert.deepEqual(rows, [
        usageRecord({ consumerId: 'app', status: 404 }),
        // Used by either: used. The schema version is the one seen last (the first addition's).
        usageRecord({ callCount: 12, validCount: 11, usedFields: ['id', 'name', 'tags[]'], receivedFields: ['email'] }),
      ]);
      await storage.addUsage([usageRecord({ callCount: 1, validCount: 0, usedFields: ['a', 'b'], receivedFields: ['c'] })], [], { ...USAGE_LIMITS, maxFieldsPerKey: 4 });
      const [capped] = await storage.listUsage({ consumerId: 'web' });
      assert.deepEqual(
        [capped!.usedFields, capped!.receivedFields],
        [[ALL_FIELDS, 'a', 'id', 'name', 'tags[]'], []],
        'stored fields first, used before received; the used field with no room (b) leaves ALL_FIELDS',
      );
      assert.deepEqual(await storage.listUsage({ consumerId: 'nobody' }), []);
      assert.deepEqual((await storage.listUsage({ before: 1_700_000_101, environment: 'prod' })).length, 2);
      assert.deepEqual(await storage.listUsage({ before: 1_700_000_100 }), []);
    });

    it('lists usage without its field lists, the same rows in the same order', async () => {
      await storage.addUsage([usageRecord(), usageRecord({ consumerId: 'app', status: 404 }), usageRecord({ schemaId: 'orders' })], [], USAGE_LIMITS);
      for (const filter of [{}, { schemaId: 'users' }, { consumerId: 'app' }, { before: 1_700_000_100 }]) {
        const withoutFields = (await storage.listUsage(filter)).map(({ usedFields: _used, receivedFields: _received, ...counts }) => counts);
        assert.deepEqual(await storage.listUsageCounts(filter), withoutFields, JSON.stringify(filter));
      }
      assert.equal((await storage.listUsageCounts({})).length, 3);
    });

    it('keeps the newest samples of a key, one per shape', async () => {
      const samples = Array.from({ length: 5 }, (_, i) => sampleRecord({ shape: `shape-${i}`, recordedAt: 1_700_000_000 + i }));
      await storage.addUsage([], samples, { ...USAGE_LIMITS, samplesPerKey: 3 });
      await storage.addUsage([], [sampleRecord({ shape: 'shape-2', recordedAt: 1_700_000_500, valid: false })], { ...USAGE_LIMITS, samplesPerKey: 3 });
      const kept = await storage.listSamples({ schemaId: 'users' });
      assert.deepEqual(kept.map((sample) => `${sample.shape}@${sample.recordedAt}`), ['shape-2@1700000500', 'shape-4@1700000004', 'shape-3@1700000003']);
      assert.equal(kept[0]!.valid, false);
      assert.deepEqual(kept[1], samples[4]);
    });

    it('removes the oldest samples of any key while all of them hold more than maxSampleBytesTotal, counting replacements and deletions', async () => {
      // Interactions of exactly `bytes` UTF-8 bytes (an é is two).
      const interaction = (bytes: number) => {
        const text = JSON.stringify({ request: { body: 'é' }, response: { body: '' } });
        return text.replace('"body":""', `"body":"${'x'.repeat(bytes - Buffer.byteLength(text))}"`);
      };
      const sized = (consumerId: string, shape: number, recordedAt: number, bytes = 1_000) =>
        sampleRecord({ consumerId, shape: `shape-${shape}`, recordedAt, interactionJson: interaction(bytes) });
      const limits = { ...USAGE_LIMITS, maxSampleBytesTotal: 6_500 };
      const kept = async () => (await storage.listSamples({})).map((sample) => `${sample.consumerId}/${sample.shape}`).sort();
      // Ten samples of 1,000 bytes, two keys interleaved by age: the six newest stay.
      await storage.addUsage([], Array.from({ length: 10 }, (_, i) => sized(i % 2 === 0 ? 'web' : 'app', i, 1_700_000_000 + i)), limits);
      assert.deepEqual(await kept(), ['app/shape-5', 'app/shape-7', 'app/shape-9', 'web/shape-4', 'web/shape-6', 'web/shape-8']);
      // A replacement counts its new size: 3,000 bytes for the newest makes 8,000, and the two oldest go.
      await storage.addUsage([], [sized('app', 9, 1_700_000_100, 3_000)], limits);
      assert.deepEqual(await kept(), ['app/shape-7', 'app/shape-9', 'web/shape-6', 'web/shape-8']);
      // A deletion counts too: with web's samples gone, four new ones fit beside app's two (4,000 + 4,000).
      await storage.deleteUsage({ consumerId: 'web' });
      await storage.addUsage([], Array.from({ length: 4 }, (_, i) => sized('ops', i, 1_700_000_200 + i, 500)), { ...limits, maxSampleBytesTotal: 6_000 });
      assert.deepEqual(await kept(), ['app/shape-7', 'app/shape-9', 'ops/shape-0', 'ops/shape-1', 'ops/shape-2', 'ops/shape-3']);
    });

    it('deletes usage and samples by filter and by age', async () => {
      await storage.addUsage(
        [usageRecord(), usageRecord({ consumerId: 'app', firstSeenAt: 1_500_000_000, lastSeenAt: 1_600_000_000 })],
        [sampleRecord(), sampleRecord({ consumerId: 'app', recordedAt: 1_600_000_000 })],
        USAGE_LIMITS,
      );
      assert.equal(await storage.deleteUsage({ before: 1_650_000_000 }), 2);
      assert.deepEqual((await storage.listUsage({})).map((row) => row.consumerId), ['web']);
      assert.equal(await storage.deleteUsage({ schemaId: 'users', consumerId: 'web' }), 2);
      assert.deepEqual(await storage.listUsage({}), []);
      assert.deepEqual(await storage.listSamples({}), []);
    });

    it('runs work under one key one at a time, under different keys side by side, and goes on after a failure', async () => {
      const events: string[] = [];
      const step = (name: string, ms: number) => async () => {
        events.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        events.push(`${name} end`);
        return name;
      };
      const failing = storage.exclusive('target', async () => {
        events.push('failing start');
        throw new Error('work failed');
      });
      const results = await Promise.allSettled([
        failing,
        storage.exclusive('target', step('first', 40)),
        storage.exclusive('target', step('second', 1)),
        storage.exclusive('other', step('other', 1)),
      ]);
      assert.deepEqual(results.map((result) => result.status), ['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
      const target = events.filter((event) => !event.startsWith('other'));
      assert.deepEqual(target, ['failing start', 'first start', 'first end', 'second start', 'second end']);
      assert.ok(events.indexOf('other end') < events.indexOf('first end'), `another key waited: ${events.join(', ')}`);
    });

    it('closes idempotently', async () => {
      await storage.close();
      await storage.close();
    });

    if (backend.reopen) {
      it('keeps everything across a reopen', async () => {
        await storage.saveSchemaVersion(schemaRecord());
        await storage.saveConsumer(consumerRecord());
        await storage.createEnvironment(environmentRecord());
        await storage.appendDeployment(deploymentRecord());
        await storage.addUsage([usageRecord()], [sampleRecord()], USAGE_LIMITS);
        await storage.close();
        storage = await backend.reopen!();
        assert.deepEqual(await storage.listUsage({}), [usageRecord()]);
        assert.deepEqual(await storage.listSamples({}), [sampleRecord()]);
        assert.deepEqual(await storage.listEnvironments(), [environmentRecord()]);
        assert.deepEqual(await storage.listDeployments({}, 10), [deploymentRecord()]);
        const { intakeRevision, ...record } = schemaRecord();
        assert.deepEqual(await storage.getSchemaVersion('users', '1.0.0'), record);
        assert.equal((await storage.getSchemaDocument('users', '1.0.0'))?.intakeRevision, intakeRevision);
        assert.deepEqual(await storage.getConsumer({ consumerId: 'web', schemaId: 'users', environment: 'prod' }), consumerRecord());
      });
    }
  });
}
