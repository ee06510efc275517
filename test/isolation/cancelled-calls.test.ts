/**
 * Issue 12: cancelling a call stops its work. A caller whose deadline passed was answered
 * DEADLINE_EXCEEDED, but its call still ran to the end in a worker (a slow `pattern` over 900,000
 * characters: 4.5 s), and every call queued behind it on that worker waited as long. The pool now
 * drops calls whose callers have gone, and stops a slow batch that holds only such calls.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { TestClient } from '../helpers/server';
import {
  VALID_USER, getUserInteraction, postSlowPattern, slowPatternSchema, slowPatternText, startHostileAndNeighbour, type HostileAndNeighbour,
} from '../helpers/validation';

/** Characters of the slow body: about 4.5 s of RE2 on the test machine. */
const SLOW_BODY_CHARS = 900_000;
/** The hostile caller's deadline. */
const DEADLINE_MS = 300;
/**
 * The neighbour's call waits behind the abandoned one (one worker) until it has run slowCallMs
 * (100 ms) and the lanes are next checked (four times a second): under 1 s, not the call's 4.5 s.
 */
const NEIGHBOUR_BOUND_MS = 3_000;

let setup: HostileAndNeighbour;
let hostile: TestClient;
let neighbour: TestClient;
before(async () => {
  setup = await startHostileAndNeighbour({ workerThreads: 1 }, { slow: slowPatternSchema() });
  ({ hostile, neighbour } = setup);
  await hostile.call('ValidateInteraction', postSlowPattern('slow', 'ab'));
});
after(() => setup.close());

test('a call whose deadline passed stops holding the worker: the call queued behind it is answered', async () => {
  const abandoned = hostile.call('ValidateInteraction', postSlowPattern('slow', slowPatternText(1, SLOW_BODY_CHARS)), { deadlineMs: DEADLINE_MS }).then(
    () => assert.fail('the call was answered within its deadline'),
    (error: grpc.ServiceError) => error,
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = performance.now();
  const answer = await neighbour.call('ValidateInteraction', getUserInteraction('users', '2', VALID_USER), { deadlineMs: 30_000 });
  const neighbourMs = performance.now() - started;
  assert.equal(answer.valid, true);
  assert.equal((await abandoned).code, grpc.status.DEADLINE_EXCEEDED);
  assert.ok(neighbourMs < NEIGHBOUR_BOUND_MS, `the call behind the abandoned one was answered after ${Math.round(neighbourMs)} ms`);
});
