/**
 * The comparison thread dies during a CompareSchemas (terminated through the pool's handle, as an
 * out-of-memory kill or a native crash would end it): that call fails with UNAVAILABLE and a
 * message saying to retry, nothing is cached from it, and the same comparison then succeeds on a
 * new thread.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { largeApiDocument, plantedBreakingChanges, type LargeApiOptions } from '../helpers/large-documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { registerSchema } from '../helpers/validation';

/** A comparison of these takes a few hundred ms: long enough to be stopped halfway. */
const LARGE: LargeApiOptions = { operations: 1000, depth: 2, width: 4 };
const BREAKING: LargeApiOptions = { ...LARGE, breakEvery: 100 };
const NEW_VERSIONS = ['1.1.0', '1.2.0', '1.3.0'];

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  await registerSchema(server.client, 'large', largeApiDocument('1.0.0', LARGE));
  // Distinct contents, so each attempt below is a comparison the server has not cached.
  for (const [i, version] of NEW_VERSIONS.entries()) {
    await registerSchema(server.client, 'large', largeApiDocument(version, { ...BREAKING, operations: LARGE.operations - i }));
  }
});

after(() => server.close());

test('a comparison thread that dies fails its call with UNAVAILABLE; the next call compares', async (t) => {
  const pool = server.server.context.documentTasks;
  // The thread may finish before it is stopped on a loaded machine: try the next pair until one is hit.
  let failure: grpc.ServiceError | undefined;
  let version = '';
  for (const candidate of NEW_VERSIONS) {
    version = candidate;
    const comparison = server.client.call('CompareSchemas', { schema_id: 'large', old_version: '1.0.0', new_version: version });
    const waitUntil = Date.now() + 5_000;
    while (pool.workers.length === 0 && Date.now() < waitUntil) await sleep(5);
    await sleep(100); // into the comparison: parsing both documents and comparing takes longer
    await pool.workers[0]?.terminate();
    try {
      await comparison;
    } catch (error) {
      failure = error as grpc.ServiceError;
      break;
    }
  }
  assert.ok(failure, 'a comparison was stopped halfway');
  t.diagnostic(`stopped halfway at attempt ${NEW_VERSIONS.indexOf(version) + 1}`);
  assert.equal(failure.code, grpc.status.UNAVAILABLE);
  assert.match(failure.details, /the comparison worker stopped .*the schemas were not compared, retry/);

  const retried = await server.client.call('CompareSchemas', { schema_id: 'large', old_version: '1.0.0', new_version: version });
  assert.equal(retried.compatible, false);
  const removed = NEW_VERSIONS.indexOf(version); // endpoints left out of that version
  assert.equal(retried.breaking_changes.length, plantedBreakingChanges({ ...BREAKING, operations: LARGE.operations - removed }) + removed);
  assert.equal(pool.workers.length, 1, 'a new thread took over');
});
