/**
 * The periodic re-read of the index (resync) on a replica whose registry holds many versions of one
 * id: it must not hold the main thread, which every validation shares. Before, each version of the
 * resync was looked up by a scan of its id's versions: with 20,000 versions of one id each resync
 * (every 30 s) held the event loop 0.8 s; a ValidateInteraction waited that long.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { SchemaRegistry } from '../../src/main/registry/schema-registry';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

const VERSIONS = 30_000;
/** 30 to 60 ms with the fix on a 2-core machine; 1.8 s before it. */
const MAX_RESYNC_STALL_MS = 400;

describe('resync of a large index', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it(`${VERSIONS} versions of one id are re-read without holding the event loop`, async () => {
    const databaseUrl = await cluster.createDatabase('large');
    await (await PostgresStorage.open({ databaseUrl })).close();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`INSERT INTO svc_schema_versions (schema_id, version, content, content_hash, document_json, openapi_version,
        endpoint_count, owner, team, contact_email, read_only, registered_at, updated_at, intake_revision)
      SELECT 'ci', '1.0.' || i, '{}', md5(i::text) || md5(i::text), '{}', '3.0.3', 1, '', '', '', false, 1, 1, 1
      FROM generate_series(1, ${VERSIONS}) i`);
    await admin.end();
    const store = await PostgresStorage.open({ databaseUrl, resyncIntervalMs: 300 });
    try {
      const registry = await SchemaRegistry.open(store);
      assert.equal(registry.versionsOf('ci').length, VERSIONS);
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      // The resync at connection, then every 300 ms.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      delay.disable();
      const maxMs = Math.round(delay.max / 1e6);
      assert.ok(maxMs < MAX_RESYNC_STALL_MS, `the event loop was held ${maxMs} ms`);
      assert.equal(registry.versionsOf('ci').length, VERSIONS);
    } finally {
      await store.close();
    }
  });
});
