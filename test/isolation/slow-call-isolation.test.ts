/**
 * Issue 12: a contract whose calls run slow in the workers (slowCallMs) has its calls treated as
 * slow work, so they stop taking every lane. A `pattern` RE2 accepts (`a.{999}d`) costs about 5 µs a
 * character: 1 MB calls of it, under maxBatchBytes, ran on both lanes at once and held every other
 * schema's calls 4.5 s, call after call. A contract's first large calls (over slowCallBytes) count as
 * slow work too, before any of them has run: their cost is not known yet.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestClient } from '../helpers/server';
import {
  VALID_USER, getUserInteraction, neighbourWhile, nestedAnyOfSchema, postNested, postSlowPattern, slowPatternSchema, slowPatternText, startHostileAndNeighbour,
  type HostileAndNeighbour,
} from '../helpers/validation';

/** Characters of the slow body, over slowCallBytes: 0.75-3 s of RE2 (5-20 µs a character on 2-core machines), over slowCallMs (100 ms). */
const SLOW_BODY_CHARS = 150_000;
/** A neighbour call may wait this long while two slow calls run (it waited for a whole slow call, about 1.5 s, on both lanes). */
const NEIGHBOUR_BOUND_MS = 600;
/** Levels of the nested anyOf document, and of its slow body: 0.3–0.5 s a call, 37 bytes. */
const NESTED_LEVELS = 18;
/** Callers sending the nested body at once, and calls each. */
const NESTED_CALLERS = 4;
const NESTED_CALLS_EACH = 2;
/**
 * The neighbour's slowest call beside them: 19 ms measured. When calls of 0.3–0.5 s did not count as
 * slow work (slowCallMs was 500 ms) they shared batches and lanes: the neighbour waited 418–850 ms
 * here, and up to 1.4 s beside callers in other processes.
 */
const NESTED_NEIGHBOUR_MAX_MS = 250;

let setup: HostileAndNeighbour;
let hostile: TestClient;
let neighbour: TestClient;
before(async () => {
  setup = await startHostileAndNeighbour({ workerThreads: 2 }, {
    slow: slowPatternSchema(), 'slow-fresh': slowPatternSchema('slow pattern, fresh'), nested: nestedAnyOfSchema(NESTED_LEVELS),
  });
  ({ hostile, neighbour } = setup);
});
after(() => setup.close());

function slowCall(seed: number, schemaId = 'slow') {
  return hostile.call('ValidateInteraction', postSlowPattern(schemaId, slowPatternText(seed, SLOW_BODY_CHARS)), { deadlineMs: 60_000 });
}

test("a contract whose calls ran slow takes one lane at most: another schema's calls go on", async () => {
  // The first slow call shows the contract's cost.
  const first = await slowCall(1);
  assert.equal(first.valid, false);
  assert.match(first.errors[0], /must match pattern/);

  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    // The second a little later, so that it finds the first one's lane busy and the other free.
    async () => {
      const firstOut = slowCall(2);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return Promise.all([firstOut, slowCall(3)]);
    },
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  for (const result of answer) assert.equal(result.valid, false);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 5, `only ${neighbourMs.length} neighbour calls ran during ${Math.round(hostileMs)} ms of slow calls`);
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour call took ${Math.round(worst)} ms beside two slow calls (${Math.round(hostileMs)} ms)`);
});

test("a contract's first large calls take one lane at most, before any of them has shown its cost", async () => {
  // Compiled by a small call, which tells nothing of what a large one costs.
  const small = await hostile.call('ValidateInteraction', postSlowPattern('slow-fresh', 'ab'));
  assert.equal(small.valid, false);
  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    async () => {
      const firstOut = slowCall(4, 'slow-fresh');
      await new Promise((resolve) => setTimeout(resolve, 200));
      return Promise.all([firstOut, slowCall(5, 'slow-fresh')]);
    },
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  for (const result of answer) assert.equal(result.valid, false);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 5, `only ${neighbourMs.length} neighbour calls ran during ${Math.round(hostileMs)} ms of slow calls`);
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour call took ${Math.round(worst)} ms beside two first large calls (${Math.round(hostileMs)} ms)`);
});

test("a contract whose small calls run slow (anyOf nested through $ref, 37 bytes) takes one lane at most: another schema's calls go on", async () => {
  const nestedCall = () => hostile.call('ValidateInteraction', postNested('nested', NESTED_LEVELS), { deadlineMs: 60_000 });
  // The first call shows the contract's cost.
  const first = await nestedCall();
  assert.equal(first.valid, false);
  assert.match(first.errors[0], /must be integer/);
  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    () => Promise.all(Array.from({ length: NESTED_CALLERS }, async () => {
      const answers = [];
      for (let i = 0; i < NESTED_CALLS_EACH; i++) answers.push(await nestedCall());
      return answers;
    })),
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  for (const result of answer.flat()) assert.equal(result.valid, false);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 10, `only ${neighbourMs.length} neighbour calls ran during ${Math.round(hostileMs)} ms of nested calls`);
  assert.ok(worst < NESTED_NEIGHBOUR_MAX_MS, `a neighbour call took ${Math.round(worst)} ms beside ${NESTED_CALLERS} callers of nested calls (${Math.round(hostileMs)} ms)`);
});
