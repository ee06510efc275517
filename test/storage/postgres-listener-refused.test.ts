/**
 * The listening connection cannot connect again (the role's or the server's connection limit
 * reached) while the pool's connections work: the database is not reported down. Before, each
 * attempt (every reconnectDelayMs) marked it down and the next statement up again: svc_storage_up
 * flapped and 'registry database unreachable ... writes fail' was logged twice a second while every
 * write succeeded (19 such lines in 10 s on a real server).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

describe('PostgreSQL listener refused a connection', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('svc_storage_up stays 1 while the pool works and the listener cannot reconnect', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    // A role of its own: superusers are not held to a connection limit.
    await admin.query('CREATE ROLE app LOGIN');
    await admin.query('CREATE DATABASE limited OWNER app');
    const reported: boolean[] = [];
    const store = await PostgresStorage.open({
      databaseUrl: `postgres://app@127.0.0.1:${cluster.port}/limited`, reconnectDelayMs: 100, reportUp: (up) => reported.push(up),
    });
    try {
      let resynced = false;
      store.changes.subscribe((change) => {
        if (change.type === 'resync') resynced = true;
      });
      for (let attempt = 0; attempt < 100 && !resynced; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
      await store.listEnvironments();
      const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = 'app'`);
      await admin.query(`ALTER ROLE app CONNECTION LIMIT ${rows[0].n}`);
      const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN svc_registry'`);
      assert.equal(rowCount, 1);
      // The pool's one connection keeps answering while the listener tries every 100 ms.
      for (let i = 0; i < 15; i++) {
        await store.listEnvironments();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.deepEqual(reported, [true], 'never reported down');
    } finally {
      await store.close();
      await admin.end();
    }
  });
});
