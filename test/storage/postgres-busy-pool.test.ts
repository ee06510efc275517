/**
 * Every connection of the pool in use (one caller's many reads) is not the database gone: a call
 * that waited `connectTimeoutMs` for a connection fails saying so, and `svc_storage_up` and the log
 * do not report an outage. Before, it read `the registry database is unavailable (timeout exceeded
 * when trying to connect)` and logged `registry database unreachable` while the database answered.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

describe('PostgreSQL pool busy', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('a call that waited for a connection fails as busy, and the database is not reported down', async () => {
    const databaseUrl = await cluster.createDatabase('busy');
    const reported: boolean[] = [];
    const store = await PostgresStorage.open({ databaseUrl, poolSize: 1, connectTimeoutMs: 200, reportUp: (up) => reported.push(up) });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // The pool's one connection waits for this lock while the second call waits for the connection.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE svc_environments IN ACCESS EXCLUSIVE MODE');
      const holding = store.listEnvironments();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await assert.rejects(store.listEnvironments(), (error: SvcError) => {
        assert.equal(error.code, ErrorCode.UNAVAILABLE);
        assert.match(error.message, /^all 1 connections of this server to the registry database \(poolSize\) stayed busy for 200 ms \(connectTimeoutMs\)/);
        return true;
      });
      await admin.query('COMMIT');
      assert.deepEqual(await holding, []);
      assert.deepEqual(reported, [true]);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
