/**
 * Issue 12: a tenant whose schema takes long to compile never holds the validations of another
 * schema. The first call of the slow operation compiles in a batch of its own, on one lane; the
 * other lane answers everyone else meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, postThings, registerSchema, slowSchema } from '../helpers/validation';

/**
 * Another tenant's calls must not wait for the compile: each answers in well under the compile's own
 * time (a bound relative to it, so a loaded 2-core CI machine running other test files beside this one
 * does not make the test flaky; blocked calls would take about the whole compile).
 */
const NEIGHBOUR_MAX_SHARE_OF_COMPILE = 0.6;
/** Time for a first call's document to be read and its compile batch sent (a few milliseconds here). */
const COMPILE_SENT_MS = 150;

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'slow', slowSchema());
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  // Warm the neighbour: its contract and operation are compiled before the slow call starts.
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

/**
 * Starts the first call of `slowSchemaId` and, after `headStartMs`, calls `neighbour` one call at a
 * time until it answers (400 calls at most); asserts that no neighbour call waited for most of the compile.
 */
async function assertNeighbourNotHeld(target: TestServer, slowSchemaId: string, neighbour: (i: number) => object, headStartMs = 0): Promise<void> {
  const slowStarted = performance.now();
  let slowDone = false;
  const slowAnswer = target.client.call('ValidateInteraction', postThings(slowSchemaId), { deadlineMs: 60_000 }).finally(() => { slowDone = true; });
  await new Promise((resolve) => setTimeout(resolve, headStartMs));

  const neighbourMs: number[] = [];
  for (let i = 0; i < 400 && !slowDone; i++) {
    const started = performance.now();
    const answer = await target.client.call('ValidateInteraction', neighbour(i));
    neighbourMs.push(performance.now() - started);
    assert.equal(answer.valid, true, answer.errors.join('\n'));
  }
  const answer = await slowAnswer;
  const slowMs = performance.now() - slowStarted;
  assert.equal(answer.valid, true, answer.errors.join('\n'));
  const worst = Math.max(...neighbourMs);
  assert.ok(neighbourMs.length >= 2, `only ${neighbourMs.length} neighbour calls ran during a ${Math.round(slowMs)} ms compile`);
  assert.ok(worst < slowMs * NEIGHBOUR_MAX_SHARE_OF_COMPILE, `a neighbour call took ${Math.round(worst)} ms during a ${Math.round(slowMs)} ms compile`);
}

test("a slow first compile holds only its own schema's calls", async () => {
  await assertNeighbourNotHeld(server, 'slow', (i) => getUserInteraction('users', String(i + 1), { ...VALID_USER, id: i + 1 }));
});

test('a neighbour whose own compile was slow is not held either: the first compile goes to the lane that holds nothing', async () => {
  // A server of its own, so which lane holds what depends on this test alone. The neighbour's
  // compile takes longer than slowCompileMs, so it may not spread to the last lane free of slow work:
  // had the slow compile gone to the neighbour's lane, the neighbour's calls would wait for all of it.
  // The neighbour waits until the slow compile has been sent, when both lanes were idle: its lane
  // then depends on the pool's choice alone, not on whether a neighbour call happened to be out.
  const own = await startTestServer({ workerThreads: 2 });
  try {
    await registerSchema(own.client, 'slow', slowSchema());
    await registerSchema(own.client, 'wide-neighbour', slowSchema(150, 'wide neighbour'));
    const warm = await own.client.call('ValidateInteraction', postThings('wide-neighbour'), { deadlineMs: 60_000 });
    assert.equal(warm.valid, true, warm.errors.join('\n'));
    await assertNeighbourNotHeld(own, 'slow', () => postThings('wide-neighbour'), COMPILE_SENT_MS);
  } finally {
    await own.close();
  }
});
