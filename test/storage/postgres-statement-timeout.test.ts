/**
 * A statement cancelled for running past its time (statementTimeoutMs) is not the database gone: the
 * call fails UNAVAILABLE saying so, and `svc_storage_up` and the log do not report an outage. Before,
 * one slow statement logged `registry database unreachable` at error level and set svc_storage_up
 * to 0 while the database answered, until the next statement set it back.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { captureLogs } from '../helpers/log-capture';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

describe('PostgreSQL statement timeout', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('a statement past statementTimeoutMs fails the call, and the database is not reported down', async () => {
    const databaseUrl = await cluster.createDatabase('slow');
    const reported: boolean[] = [];
    const logs = captureLogs('info');
    const store = await PostgresStorage.open({ databaseUrl, statementTimeoutMs: 300, reportUp: (up) => reported.push(up), logger: logs.logger });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // A read of the table waits for this lock until its statement timeout cancels it.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE svc_environments IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      await assert.rejects(store.listEnvironments(), (error: SvcError) => {
        assert.equal(error.code, ErrorCode.UNAVAILABLE);
        assert.match(error.message, /^the registry database cancelled a statement of this call \(canceling statement due to statement timeout\): it ran past its time \(statementTimeoutMs\)/);
        return true;
      });
      assert.ok(performance.now() - started < 5_000);
      await admin.query('COMMIT');
      assert.deepEqual(await store.listEnvironments(), []);
      assert.deepEqual(reported, [true]);
      assert.ok(!logs.lines().some((line) => /unreachable/.test(String(line.msg))), logs.text());
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
