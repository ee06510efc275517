/**
 * A connection the server ends while a write holds it (a restart, pg_terminate_backend): the write
 * fails, the process lives on, and the next write succeeds. Before, the checked-out connection's
 * 'error' event had no listener and ended the process (a replica recording a deployment died when
 * the database was stopped).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import type { ConsumerRecord } from '../../src/main/storage/storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

const REGISTRATION: ConsumerRecord = {
  consumerId: 'web', consumerVersion: '1', schemaId: 'users', schemaVersion: '1.0.0', environment: 'qa',
  registeredAt: 1, lastValidatedAt: 1, usedEndpoints: [],
};

describe('PostgreSQL connection ended while a write holds it', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  let store: PostgresStorage;
  let admin: pg.Client;
  before(async () => {
    cluster = await startPostgresCluster();
    const databaseUrl = await cluster.createDatabase('lost');
    store = await PostgresStorage.open({ databaseUrl });
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await store.createEnvironment({ name: 'qa', description: '', origin: 'created', createdAt: 1, createdBy: 'ci' });
  });
  after(async () => {
    await admin?.end();
    await store?.close();
    await cluster?.destroy();
  });

  it('the connection holding an exclusive lock, idle while the work runs', async () => {
    const result = await store.exclusive('users in qa', async () => {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`);
      // The server's message reaches the idle connection meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(await store.exclusive('users in qa', async () => 'again'), 'again');
  });

  it('a transaction whose statement is running', async () => {
    await admin.query(`CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$;
      CREATE TRIGGER slow_insert BEFORE INSERT ON svc_consumers FOR EACH ROW EXECUTE FUNCTION slow_insert()`);
    const write = store.saveConsumer(REGISTRATION);
    // Handled at once: the write may fail while the loop below still awaits the administrator's query.
    write.catch(() => undefined);
    let terminated = 0;
    for (let attempt = 0; attempt < 100 && terminated === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ({ rowCount: terminated } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'INSERT INTO svc_consumers%' AND pid <> pg_backend_pid()`,
      ) as { rowCount: number });
    }
    assert.equal(terminated, 1);
    await assert.rejects(write, (error: SvcError) => error.code === ErrorCode.UNAVAILABLE);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query('DROP TRIGGER slow_insert ON svc_consumers');
    await store.saveConsumer(REGISTRATION);
    assert.equal((await store.getConsumer(REGISTRATION))?.consumerVersion, '1');
  });
});
