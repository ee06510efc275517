/**
 * What only the PostgreSQL store does: migrations under a lock, start-up errors, the change feed,
 * conditional writes across connections, recorded usage added in one transaction.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { UsageRegistry } from '../../src/main/evidence/usage-registry';
import { MIGRATIONS } from '../../src/main/storage/postgres/migrations';
import { LISTED_ENDPOINT_CHARS, LISTED_USED_FIELD_CHARS, type SchemaVersionWrite, type StorageChange } from '../../src/main/storage/storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

function record(overrides: Partial<SchemaVersionWrite> = {}): SchemaVersionWrite {
  return {
    schemaId: 'users', version: '1.0.0', content: '{}', contentHash: 'a'.repeat(64), documentJson: '{}', openapiVersion: '3.0.0',
    endpointCount: 1, ownership: { owner: '', team: '', contactEmail: '', readOnly: false }, registeredAt: 1, updatedAt: 1, intakeRevision: 1, ...overrides,
  };
}

describe('PostgreSQL store', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  let databases = 0;
  const freshDatabase = () => cluster.createDatabase(`store_${++databases}`);
  /** A database migrated as an earlier svc left it, up to the first migration that mentions `marker`, with `fill` run on it. */
  const databaseBefore = async (marker: string, fill: (client: pg.Client) => Promise<unknown>): Promise<string> => {
    const databaseUrl = await freshDatabase();
    const upTo = MIGRATIONS.findIndex((migration) => migration.includes(marker));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query('CREATE TABLE svc_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (let version = 0; version < upTo; version++) {
        await client.query(MIGRATIONS[version]!);
        await client.query('INSERT INTO svc_schema_migrations (version) VALUES ($1)', [version + 1]);
      }
      await fill(client);
    } finally {
      await client.end();
    }
    return databaseUrl;
  };
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('replicas starting at once migrate once, under the advisory lock', async () => {
    const databaseUrl = await freshDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresStorage.open({ databaseUrl })));
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query('SELECT version FROM svc_schema_migrations ORDER BY version');
    await client.end();
    assert.deepEqual(rows.map((row) => row.version), MIGRATIONS.map((_, i) => i + 1));
  });

  it('says clearly when the database is unreachable, without showing the password', async () => {
    const closedPort = cluster.port === 1 ? 2 : 1;
    await assert.rejects(PostgresStorage.open({ databaseUrl: `postgres://svc:s3cret@127.0.0.1:${closedPort}/svc` }), (error: Error) => {
      assert.match(error.message, /^cannot reach the registry database at postgres:\/\/svc:\*\*\*@127\.0\.0\.1:\d+\/svc: .*ECONNREFUSED/);
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    });
  });

  it('shows no password given as a URL parameter either', async () => {
    const closedPort = cluster.port === 1 ? 2 : 1;
    const databaseUrl = `postgres://svc@127.0.0.1:${closedPort}/svc?sslmode=disable&password=s3cret&sslpassword=k3y`;
    await assert.rejects(PostgresStorage.open({ databaseUrl }), (error: Error) => {
      assert.match(error.message, /^cannot reach the registry database at postgres:\/\/svc@127\.0\.0\.1:\d+\/svc\?sslmode=disable&password=\*\*\*&sslpassword=\*\*\*: /);
      assert.doesNotMatch(error.message, /s3cret|k3y/);
      return true;
    });
  });

  it('a migration, and replicas waiting for it, may run longer than a statement of a call', async () => {
    // The last migration updates every registration: here each update takes 300 ms.
    const databaseUrl = await databaseBefore("endpoint ->> 'path'", (client) => client.query(
      `INSERT INTO svc_consumers VALUES ('web', 'users', 'prod', '1', '1.0.0', 1, 1, '[]');
        CREATE FUNCTION slow_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
        CREATE TRIGGER slow_update BEFORE UPDATE ON svc_consumers FOR EACH ROW EXECUTE FUNCTION slow_update()`));
    // Before, statementTimeoutMs cancelled the migration, and the wait of the replica started with it.
    const stores = await Promise.all([PostgresStorage.open({ databaseUrl, statementTimeoutMs: 100 }), PostgresStorage.open({ databaseUrl, statementTimeoutMs: 100 })]);
    await Promise.all(stores.map((store) => store.close()));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query('SELECT max(version) AS version FROM svc_schema_migrations');
    await client.end();
    assert.equal(rows[0].version, MIGRATIONS.length);
  });

  it('a migration waits for a table lock at most lockWaitMs, so the statements queued behind it are not held longer', { timeout: 20_000 }, async () => {
    // The next migration alters svc_schema_versions; a long transaction (a backup) has read it.
    const databaseUrl = await databaseBefore('names_intake_revision', async () => undefined);
    const backup = new pg.Client({ connectionString: databaseUrl });
    const replica = new pg.Client({ connectionString: databaseUrl, statement_timeout: 5_000 });
    await Promise.all([backup.connect(), replica.connect()]);
    try {
      await backup.query('BEGIN');
      await backup.query('SELECT count(*) FROM svc_schema_versions');
      const started = Date.now();
      const opening = PostgresStorage.open({ databaseUrl, lockWaitMs: 300 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      // A running replica's read queues behind the migration's lock request.
      const read = replica.query('SELECT count(*) FROM svc_schema_versions').then(() => Date.now() - started);
      await assert.rejects(opening, /migration 8 waited over 300 ms \(lockWaitMs\) for a table another session holds/);
      assert.ok(await read < 2_000, 'the read went on once the migration gave up');
      await backup.query('COMMIT');
      await (await PostgresStorage.open({ databaseUrl })).close();
    } finally {
      await Promise.all([backup.end(), replica.end()]);
    }
  });

  it('refuses a database migrated by a newer svc', async () => {
    const databaseUrl = await freshDatabase();
    await (await PostgresStorage.open({ databaseUrl })).close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('INSERT INTO svc_schema_migrations (version) VALUES (99)');
    await client.end();
    await assert.rejects(PostgresStorage.open({ databaseUrl }), /has schema version 99, newer than this svc supports \(\d+\): upgrade svc/);
  });

  it('a document written by a replica of an earlier svc, which names no intake revision, is marked to be read again', async () => {
    const databaseUrl = await freshDatabase();
    const store = await PostgresStorage.open({ databaseUrl });
    try {
      await store.saveSchemaVersion(record({ intakeRevision: 2 }));
      // This svc's own writes of another document name its revision: it stays.
      await store.saveSchemaVersion(record({ intakeRevision: 2, documentJson: '{"again":1}', contentHash: 'b'.repeat(64) }));
      assert.equal((await store.getSchemaDocument('users', '1.0.0'))?.intakeRevision, 2, 'an upsert of this svc keeps its revision');
      const current = (await store.loadSchemaIndex())[0]!;
      assert.equal((await store.saveSchemaVersion(record({ intakeRevision: 2, documentJson: '{"again":2}', contentHash: 'c'.repeat(64) }), current)).saved, true);
      assert.equal((await store.getSchemaDocument('users', '1.0.0'))?.intakeRevision, 2, 'a conditional write of this svc keeps its revision');
      // What an earlier svc's registration of the version sends: its own document, the columns it knows.
      const earlier = new pg.Client({ connectionString: databaseUrl });
      await earlier.connect();
      await earlier.query(`UPDATE svc_schema_versions SET document_json = '{"earlier":true}', updated_at = 2 WHERE schema_id = 'users' AND version = '1.0.0'`);
      await earlier.query(`UPDATE svc_schema_versions SET updated_at = 3 WHERE schema_id = 'users' AND version = '1.0.0'`);
      await earlier.end();
      assert.equal((await store.getSchemaDocument('users', '1.0.0'))?.intakeRevision, 0);
      assert.equal(await store.updateSchemaDocument('users', '1.0.0', { contentHash: 'c'.repeat(64), documentJson: '{}', intakeRevision: 2 }), true);
      assert.equal((await store.getSchemaDocument('users', '1.0.0'))?.intakeRevision, 2, 'a write that names the revision keeps it');
    } finally {
      await store.close();
    }
  });

  it('a database that has the intake revision column gets the trigger that marks unrevised documents', async () => {
    const databaseUrl = await databaseBefore('names_intake_revision', async () => undefined);
    await (await PostgresStorage.open({ databaseUrl })).close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query(`SELECT tgname FROM pg_trigger WHERE tgname = 'svc_schema_versions_intake_revision'`);
    await client.end();
    assert.equal(rows.length, 1);
  });

  it('conditional writes from two connections: one wins, the other sees what won', async () => {
    const databaseUrl = await freshDatabase();
    const [a, b] = await Promise.all([PostgresStorage.open({ databaseUrl }), PostgresStorage.open({ databaseUrl })]);
    try {
      const results = await Promise.all([a!.saveSchemaVersion(record(), null), b!.saveSchemaVersion(record({ contentHash: 'b'.repeat(64) }), null)]);
      assert.equal(results.filter((result) => result.saved).length, 1);
      const lost = results.find((result) => !result.saved);
      assert.ok(lost && !lost.saved && lost.current);
      const stale = await a!.saveSchemaVersion(record({ contentHash: 'c'.repeat(64) }), { ...record(), contentHash: 'd'.repeat(64) });
      assert.equal(stale.saved, false);
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  it('numbers the writes of a version in the order they commit, across connections', async () => {
    const databaseUrl = await freshDatabase();
    const [a, b] = await Promise.all([PostgresStorage.open({ databaseUrl }), PostgresStorage.open({ databaseUrl })]);
    try {
      const first = await a!.saveSchemaVersion(record());
      const second = await a!.saveSchemaVersion(record({ contentHash: 'b'.repeat(64) }));
      assert.ok(first.saved && second.saved && first.revision! < second.revision!);
      // Unconditional writes of one version racing from two connections: the one stored is the one
      // with the highest revision, and a read gives that revision.
      for (let round = 0; round < 10; round++) {
        const hashes = [`${round}a`.padEnd(64, 'a'), `${round}b`.padEnd(64, 'b')];
        const saved = await Promise.all([a!.saveSchemaVersion(record({ contentHash: hashes[0] })), b!.saveSchemaVersion(record({ contentHash: hashes[1] }))]);
        const revisions = saved.map((result) => (result.saved ? result.revision! : -1));
        const [stored] = (await b!.loadSchemaVersions('users'));
        assert.equal(stored!.revision, Math.max(...revisions));
        assert.equal(stored!.contentHash, hashes[revisions.indexOf(Math.max(...revisions))]);
      }
    } finally {
      await Promise.all([a!.close(), b!.close()]);
    }
  });

  it('excludes work under one key across replicas, and a replica that waits too long is told CONFLICT', async () => {
    const databaseUrl = await freshDatabase();
    const [a, b, impatient] = await Promise.all([
      PostgresStorage.open({ databaseUrl }), PostgresStorage.open({ databaseUrl }), PostgresStorage.open({ databaseUrl, lockWaitMs: 200 }),
    ]);
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    try {
      const key = 'the deployment of users in prod';
      const events: string[] = [];
      let firstStarted!: () => void;
      const started = new Promise<void>((resolve) => {
        firstStarted = resolve;
      });
      const first = a!.exclusive(key, async () => {
        events.push('a start');
        firstStarted();
        await firstHolds;
        events.push('a end');
      });
      await started;
      const second = b!.exclusive(key, async () => {
        events.push('b start');
      });
      await assert.rejects(impatient!.exclusive(key, async () => events.push('impatient ran')), (error: SvcError) => {
        assert.equal(error.code, ErrorCode.CONFLICT);
        assert.equal(error.message, `another replica has been writing ${key} for over 200 ms; nothing was written: try again`);
        return true;
      });
      assert.equal(await impatient!.exclusive('the deployment of users in dev', async () => 'free'), 'free', 'another key is not held');
      assert.deepEqual(events, ['a start'], 'b waits while a holds the key');
      releaseFirst();
      await Promise.all([first, second]);
      assert.deepEqual(events, ['a start', 'a end', 'b start']);
      // Work that fails releases the lock: the other replica gets it at once.
      await assert.rejects(a!.exclusive('k', async () => {
        throw new Error('work failed');
      }), /work failed/);
      assert.equal(await impatient!.exclusive('k', async () => 'after'), 'after');
    } finally {
      releaseFirst(); // a store closes once its work is done
      await Promise.all([a!.close(), b!.close(), impatient!.close()]);
    }
  });

  it('upgrades a database of an earlier svc: versions stored before revisions get one', async () => {
    const databaseUrl = await databaseBefore('svc_schema_revisions', (client) =>
      client.query(`INSERT INTO svc_schema_versions VALUES ('users', '1.0.0', '{}', '${'a'.repeat(64)}', '{}', '3.0.0', 1, '', '', '', false, 1, 1)`));
    const store = await PostgresStorage.open({ databaseUrl });
    try {
      const [before] = await store.loadSchemaVersions('users');
      assert.equal(typeof before!.revision, 'number');
      const saved = await store.saveSchemaVersion(record({ contentHash: 'b'.repeat(64) }));
      assert.ok(saved.saved && saved.revision! > before!.revision!);
    } finally {
      await store.close();
    }
  });

  it('upgrades a database of an earlier svc: registrations stored before their used-field counts get them, paths and the weights of endpoints and fields included', async () => {
    const endpoints = (fields: string[]) => JSON.stringify([{ method: 'GET', path: '/users/{id}', usedFields: fields }, { method: 'POST', path: '/users', usedFields: ['id'] }]);
    const databaseUrl = await databaseBefore('used_field_chars', (client) =>
      client.query(`INSERT INTO svc_consumers VALUES ('web', 'users', 'prod', '1', '1.0.0', 1, 1, $1), ('app', 'users', 'dev', '1', '1.0.0', 1, 1, $2)`,
        [endpoints(['id', 'email']), endpoints(['naïve'])]));
    const store = await PostgresStorage.open({ databaseUrl });
    try {
      // Two registrations of two endpoints each, with five used fields between them.
      const weights = 4 * LISTED_ENDPOINT_CHARS + 5 * LISTED_USED_FIELD_CHARS;
      assert.deepEqual(await store.consumerUsedFields('users'), { registrations: 2, chars: 2 + 5 + 2 + 5 + 2 + 2 * ('/users/{id}'.length + '/users'.length) + weights });
    } finally {
      await store.close();
    }
  });

  it('keeps a read-only version unchanged whoever writes, and tells every store of each change', async () => {
    const databaseUrl = await freshDatabase();
    const [writer, follower] = await Promise.all([PostgresStorage.open({ databaseUrl }), PostgresStorage.open({ databaseUrl })]);
    try {
      const seen: StorageChange[] = [];
      follower.changes.subscribe((change) => seen.push(change));
      await waitFor(() => seen.some((change) => change.type === 'resync'));
      const readOnly = record({ ownership: { owner: 'o', team: 't', contactEmail: '', readOnly: true } });
      await writer.saveSchemaVersion(readOnly);
      await waitFor(() => seen.some((change) => change.type === 'schema-version' && change.summary.ownership.readOnly));
      await assert.rejects(writer.saveSchemaVersion(record({ contentHash: 'e'.repeat(64) })),
        (error: SvcError) => error.code === ErrorCode.READ_ONLY && /read-only/.test(error.message));
      await writer.saveSchemaVersion(readOnly);
    } finally {
      await Promise.all([writer.close(), follower.close()]);
    }
  });

  it('adds recorded usage whole or not at all: a failed sample write leaves the counts as they were, and the retry counts once and keeps the sample', async () => {
    const databaseUrl = await freshDatabase();
    const store = await PostgresStorage.open({ databaseUrl });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const registry = await UsageRegistry.open(store, { limits: { flushIntervalMs: 3_600_000 } });
    try {
      await admin.query(`CREATE FUNCTION refuse_sample() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'samples refused'; END $$;
        CREATE TRIGGER refuse_sample BEFORE INSERT ON svc_usage_samples FOR EACH ROW EXECUTE FUNCTION refuse_sample()`);
      const observation = {
        consumerId: 'web', schemaId: 'users', schemaVersion: '1.0.0', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
        valid: true, usedFields: ['id'], receivedFields: [], shape: 'shape-1', interactionJson: '{"request":{},"response":{}}',
      };
      assert.equal(registry.observe(observation), undefined);
      await assert.rejects(registry.persist(), /samples refused/);
      // Before, the usage rows were committed ahead of the samples: this read 1, and the retry made it 2.
      assert.deepEqual(await store.listUsageCounts({}), []);

      await admin.query('DROP TRIGGER refuse_sample ON svc_usage_samples');
      await registry.persist();
      const [usage] = await store.listUsageCounts({});
      assert.deepEqual([usage?.callCount, usage?.validCount], [1, 1]);
      // Before, the sample was dropped while its shape stayed known, so it was never written.
      assert.deepEqual((await store.listSamples({})).map((sample) => sample.shape), ['shape-1']);
    } finally {
      await registry.close();
      await admin.end();
      await store.close();
    }
  });
});

async function waitFor(check: () => boolean, timeoutMs = 1_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
