/**
 * A validation worker dies mid-load (its thread is terminated through the pool's handle, as an
 * out-of-memory kill or a native crash would end it). Only the calls it held fail, with
 * UNAVAILABLE and a message saying to retry; Piscina replaces the thread; the next calls succeed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { startTestServer, type TestServer } from '../helpers/server';
import { JSON_HEADERS, USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});

after(() => server.close());

/** GET /users with 1,000 users: heavy enough that the workers are always holding batches. */
const LIST_CALL = {
  schema_id: 'users',
  request: { method: 'GET', path: '/users?limit=10', headers: {}, body: '' },
  response: {
    status_code: 200,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ id: i, email: `u${i}@example.com`, name: `user ${i}` }))),
  },
};

type Outcome = { ok: true } | { ok: false; error: grpc.ServiceError };

/** Keeps 64 calls in flight for `durationMs` and terminates worker 0 after `crashAfterMs`. */
async function loadWithCrash(durationMs: number, crashAfterMs: number): Promise<Outcome[]> {
  const pool = server.server.context.pool;
  const outcomes: Outcome[] = [];
  const deadline = Date.now() + durationMs;
  const crash = setTimeout(() => void pool.workers[0]!.terminate(), crashAfterMs);
  const lane = async () => {
    while (Date.now() < deadline) {
      try {
        const result = await server.client.call('ValidateInteraction', LIST_CALL);
        assert.equal(result.valid, true, JSON.stringify(result.errors));
        outcomes.push({ ok: true });
      } catch (error) {
        outcomes.push({ ok: false, error: error as grpc.ServiceError });
      }
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  clearTimeout(crash);
  return outcomes;
}

async function waitForWorkers(count: number): Promise<void> {
  const pool = server.server.context.pool;
  const waitUntil = Date.now() + 5_000;
  while (pool.workers.length < count && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(pool.workers.length, count, 'the pool is back to full strength');
}

test('a worker crash fails only the calls it held; the pool replaces it and serves on', async () => {
  // The terminated worker can be between batches (the test client shares the main thread with the
  // server, so workers sometimes wait for it); crash again until one crash has hit calls.
  let failures: Array<{ ok: false; error: grpc.ServiceError }> = [];
  let succeeded = 0;
  for (let attempt = 0; attempt < 5 && failures.length === 0; attempt++) {
    const outcomes = await loadWithCrash(600, 200);
    failures = outcomes.filter((o): o is { ok: false; error: grpc.ServiceError } => !o.ok);
    succeeded += outcomes.length - failures.length;
    await waitForWorkers(2);
  }
  assert.ok(failures.length > 0, 'a terminated worker held calls');
  assert.ok(succeeded > 0, 'calls on the other worker went on');
  // A worker holds at most concurrentTasksPerWorker batches of maxBatchItems calls.
  assert.ok(failures.length <= 2 * 64, `only the calls of one worker's batches fail (${failures.length} failed)`);
  for (const { error } of failures) {
    assert.equal(error.code, grpc.status.UNAVAILABLE);
    assert.match(error.details, /validation worker holding this call stopped .*retry it/);
  }

  const next = await Promise.all(Array.from({ length: 50 }, (_, i) => server.client.call('ValidateInteraction', getUserInteraction('users', String(i), VALID_USER))));
  assert.ok(next.every((result) => result.valid));
  const list = await server.client.call('ValidateInteraction', LIST_CALL);
  assert.equal(list.valid, true);

  // The dead worker's cache no longer counts.
  const metrics = await (await fetch(`http://127.0.0.1:${server.server.metricsPort}/metrics`)).text();
  const items = Number(/^svc_cache_items_total (\d+)/m.exec(metrics)?.[1]);
  assert.ok(items >= 1 && items <= 2, `cached contracts across the 2 live workers: ${items}`);
});
