/**
 * svc_recorded_interactions_total{outcome="accepted"} counts what RecordInteractions answered as
 * accepted: interactions written to the store. A write the store refuses fails the call, and its
 * interactions are counted as dropped, reason not_stored (they were counted accepted before the write).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { SQLITE_FILE_NAME } from '../../src/main/storage/sqlite-storage';
import { recordInteractions } from '../helpers/recording';
import { makeTempDir, startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction } from '../helpers/validation';

test('a recorded interaction counts as accepted once stored, and as dropped (not_stored) when the store refuses the write', async () => {
  const dir = makeTempDir('svc-recorded-count-');
  const server = await startTestServer({ storage: 'sqlite', dataDir: dir });
  const count = async (outcome: string, reason: string) => {
    const { values } = await server.server.context.metrics.recordedInteractions.get();
    return values.find((v) => v.labels.outcome === outcome && v.labels.reason === reason)?.value ?? 0;
  };
  try {
    const registered = await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: USERS_SCHEMA_TEXT });
    assert.equal(registered.success, true, registered.message);
    const interaction = { ...getUserInteraction('users', '42', VALID_USER), environment: 'prod', consumer_id: 'web', valid: true };
    const stored = await recordInteractions(server.client, [interaction, interaction]);
    assert.equal(stored.accepted, 2);
    assert.equal(await count('accepted', ''), 2);
    assert.equal(await count('dropped', 'not_stored'), 0, 'exported from the start');

    fs.rmSync(path.join(dir, SQLITE_FILE_NAME));
    await assert.rejects(recordInteractions(server.client, [interaction, interaction, interaction]), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.UNAVAILABLE);
      assert.match(error.details, /^3 recorded interaction\(s\) were not stored: .*; the server keeps them and writes them when the store takes writes again, so sending them again counts them twice$/);
      return true;
    });
    assert.equal(await count('accepted', ''), 2, 'the refused write is not counted as accepted');
    assert.equal(await count('dropped', 'not_stored'), 3);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
