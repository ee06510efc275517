/**
 * An uncached comparison of two large documents runs in a worker thread: while CompareSchemas is
 * being answered, the server's event loop stays free and ValidateInteraction calls keep being
 * answered promptly (on the main thread, such a comparison stalled every call for its whole length).
 */
import assert from 'node:assert/strict';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { largeApiDocument, plantedBreakingChanges, type LargeApiOptions } from '../helpers/large-documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/** About 2 MB per document; comparing the two takes about half a second of CPU on the test machine. */
const LARGE: LargeApiOptions = { operations: 1000, depth: 2, width: 4 };
const BREAKING: LargeApiOptions = { ...LARGE, breakEvery: 50 };
/** Longest the event loop may be held while the comparison runs. */
const MAX_EVENT_LOOP_DELAY_MS = 100;
/** Bounds on the validation calls made while waiting for the comparison. */
const MAX_CALLS = 2_000;
const MAX_WAIT_MS = 20_000;

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  await registerSchema(server.client, 'large', largeApiDocument('1.0.0', LARGE));
  await registerSchema(server.client, 'large', largeApiDocument('1.1.0', BREAKING));
});

after(() => server.close());

test('validation calls are answered promptly while a large comparison runs', async (t) => {
  const interaction = getUserInteraction('users', '42', VALID_USER);
  assert.equal((await server.client.call('ValidateInteraction', interaction)).valid, true, 'the contract is compiled before measuring');

  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The monitor's first tick only sets its baseline: let it start before the comparison can block.
  await sleep(50);
  const started = performance.now();
  let comparing = true;
  const comparison = server.client.call('CompareSchemas', { schema_id: 'large', old_version: '1.0.0', new_version: '1.1.0' })
    .finally(() => { comparing = false; });
  const latenciesMs: number[] = [];
  while (comparing && latenciesMs.length < MAX_CALLS && performance.now() - started < MAX_WAIT_MS) {
    const sent = performance.now();
    const result = await server.client.call('ValidateInteraction', interaction);
    latenciesMs.push(performance.now() - sent);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  }
  const answer = await comparison;
  const comparisonMs = performance.now() - started;
  delay.disable();

  assert.equal(answer.breaking_changes.length, plantedBreakingChanges(BREAKING), answer.message);
  const maxDelayMs = delay.max / 1e6;
  const slowestCallMs = Math.max(...latenciesMs);
  t.diagnostic(`comparison ${comparisonMs.toFixed(0)} ms; event loop delay max ${maxDelayMs.toFixed(1)} ms, ` +
    `p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; ${latenciesMs.length} validation calls, slowest ${slowestCallMs.toFixed(1)} ms`);
  assert.ok(comparisonMs >= 150, `the comparison is heavy enough to show a stall (${comparisonMs.toFixed(0)} ms)`);
  assert.ok(maxDelayMs < MAX_EVENT_LOOP_DELAY_MS, `event loop held for ${maxDelayMs.toFixed(1)} ms during the comparison`);
  assert.ok(latenciesMs.length >= 10, `validation calls went on during the comparison (${latenciesMs.length} answered)`);
  assert.ok(slowestCallMs < 2 * MAX_EVENT_LOOP_DELAY_MS, `slowest validation call during the comparison: ${slowestCallMs.toFixed(1)} ms`);
});

test('the same comparison again is answered from the cache, with the same changes', async () => {
  const request = { schema_id: 'large', old_version: '1.0.0', new_version: '1.1.0' };
  await server.client.call('CompareSchemas', request); // computed here unless the test above did
  const started = performance.now();
  const answer = await server.client.call('CompareSchemas', request);
  const cachedMs = performance.now() - started;
  assert.equal(answer.compatible, false);
  assert.equal(answer.breaking_changes.length, plantedBreakingChanges(BREAKING));
  assert.deepEqual(
    new Set(answer.breaking_changes.map((change: { type: string }) => change.type)),
    new Set(['TYPE_CHANGED', 'RESPONSE_SCHEMA_CHANGED']),
  );
  assert.ok(cachedMs < 100, `a cached comparison takes no engine time (${cachedMs.toFixed(1)} ms)`);
});
