/**
 * A notification whose read fails (every connection busy, the server's connections exhausted) while
 * the listening connection stays up: the change still reaches the replica within a second. Before, it
 * waited for the periodic re-read (`resyncIntervalMs`, 30 s), and the replica meanwhile validated
 * with the content it held: 17 s of wrong answers when max_connections was reached for 0.5 s.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import type { SchemaVersionWrite, StorageChange } from '../../src/main/storage/storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { within } from './replica-set';

function version(contentHash: string): SchemaVersionWrite {
  return {
    schemaId: 'users', version: '1.0.0', content: '{}', contentHash, documentJson: '{}', openapiVersion: '3.0.0', endpointCount: 1,
    ownership: { owner: '', team: '', contactEmail: '', readOnly: false }, registeredAt: 1, updatedAt: 1, intakeRevision: 1,
  };
}

describe('a registry change whose read failed', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('reaches the other replica once its reads succeed again, not at the next periodic re-read', async () => {
    const databaseUrl = await cluster.createDatabase('changes');
    const writer = await PostgresStorage.open({ databaseUrl });
    // One connection, waited for 200 ms: a statement holding it makes the change's read fail.
    const follower = await PostgresStorage.open({ databaseUrl, poolSize: 1, connectTimeoutMs: 200 });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const hashes: string[] = [];
    try {
      follower.changes.subscribe((change: StorageChange) => {
        if (change.type === 'schema-version') hashes.push(change.summary.contentHash);
        if (change.type === 'resync') hashes.push(...change.summaries.map((summary) => summary.contentHash));
      });
      await writer.saveSchemaVersion(version('a'.repeat(64)));
      await within(2_000, async () => hashes.includes('a'.repeat(64)));

      await admin.query('BEGIN');
      await admin.query('LOCK TABLE svc_environments IN ACCESS EXCLUSIVE MODE');
      const holding = follower.listEnvironments();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.saveSchemaVersion(version('b'.repeat(64)));
      // The notification's read waits 200 ms for the one connection, and fails.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await admin.query('COMMIT');
      await holding;
      const seenAfterMs = await within(3_000, async () => hashes.includes('b'.repeat(64)));
      assert.ok(seenAfterMs < 3_000);
    } finally {
      await admin.end();
      await Promise.all([writer.close(), follower.close()]);
    }
  });
});
