/**
 * Closing the store while the database does not answer (its processes stopped, a hung host): close
 * ends within `closeTimeoutMs` and leaves no socket open. Before, it waited for the server to
 * acknowledge each connection's end, and `svc serve` did not exit on SIGTERM until the server
 * answered again (40 s and counting with the database stopped).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

describe('PostgreSQL store closed while the database hangs', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('close ends within closeTimeoutMs and drops its connections', { timeout: 20_000 }, async () => {
    const databaseUrl = await cluster.createDatabase('hung');
    const store = await PostgresStorage.open({ databaseUrl, closeTimeoutMs: 500 });
    let resynced = false;
    store.changes.subscribe((change) => {
      if (change.type === 'resync') resynced = true;
    });
    await store.listEnvironments();
    for (let attempt = 0; attempt < 100 && !resynced; attempt++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(resynced, 'the listener is connected');
    cluster.pause();
    try {
      const started = Date.now();
      const closed = await Promise.race([
        store.close().then(() => Date.now() - started),
        new Promise<string>((resolve) => setTimeout(() => resolve('not closed within 5 s'), 5_000)),
      ]);
      assert.equal(typeof closed, 'number', String(closed));
      assert.ok((closed as number) < 2_000, `closed after ${closed} ms`);
      const sockets = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles()
        .filter((handle) => handle instanceof net.Socket && handle.remotePort === cluster.port);
      assert.equal(sockets.length, 0, 'no connection to the database is left open');
    } finally {
      cluster.resume();
    }
  });
});
