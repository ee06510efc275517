/**
 * A contract whose calls cost very different amounts: most quick, some slow (a 60 KB body under a
 * `pattern` RE2 runs at 5 µs a character: 0.35 s). Its first slow batch marks it, and its calls
 * travel alone on one lane; but each quick call alone unmarked it again, and a stream's next calls
 * went in batches of up to 64, slow ones among them, to both lanes: another schema's calls waited
 * up to 7 s behind a stream whose every tenth call was slow. Calls of such a contract as large as
 * half its slow batch's largest call now stay slow work after it is unmarked, until one that large
 * runs quickly, so its quick small calls still share batches and lanes. Slow calls as small as the
 * quick ones (anyOf nested through $ref: 37 bytes, 0.9 s) held the neighbour 6.9 s the same way; a
 * contract now stays marked for slowMarkTimes its slow batch's time.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestClient } from '../helpers/server';
import {
  VALID_USER, getUserInteraction, neighbourWhile, nestedAnyOfSchema, postNested, postSlowPattern, slowPatternSchema, slowPatternText,
  startHostileAndNeighbour, type HostileAndNeighbour,
} from '../helpers/validation';

/** Characters of a slow call's text: about 0.35 s of RE2 on the test machine, under slowCallBytes. */
const SLOW_CHARS = 60_000;
/** Items of the stream, and how often one of them is slow. */
const STREAM_ITEMS = 100;
const SLOW_EVERY = 10;
/** The neighbour's slowest call beside the stream: 19 ms measured; 7.3 s when a quick call unmarked the contract. */
const NEIGHBOUR_MAX_MS = 250;
/** Levels of the nested anyOf document: its 37-byte body of as many levels takes 0.3–0.9 s; one of 2 levels, a few ms. */
const NESTED_LEVELS = 18;
/** Items of the nested stream (every SLOW_EVERY-th slow). */
const NESTED_ITEMS = 50;

let setup: HostileAndNeighbour;
let hostile: TestClient;
let neighbour: TestClient;
before(async () => {
  setup = await startHostileAndNeighbour({ workerThreads: 2 }, { slow: slowPatternSchema(), nested: nestedAnyOfSchema(NESTED_LEVELS) });
  ({ hostile, neighbour } = setup);
});
after(() => setup.close());

type Answer = { valid: boolean; errors: string[] };

/** Streams `items` requests over one ValidateInteractionStream and resolves with their answers. */
function streamOf(items: object[]): Promise<Answer[]> {
  return new Promise((resolve, reject) => {
    const stream = (hostile.raw as any).ValidateInteractionStream();
    const answers: Answer[] = [];
    stream.on('data', (answer: Answer) => answers.push(answer));
    stream.on('error', reject);
    stream.on('end', () => resolve(answers));
    for (const item of items) stream.write(item);
    stream.end();
  });
}

const slowEvery = <T>(count: number, slow: (i: number) => T, quick: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => (i % SLOW_EVERY === SLOW_EVERY - 1 ? slow(i) : quick(i)));

test("a stream whose every tenth call is slow leaves another schema's calls prompt", async () => {
  // The first slow call shows the contract's cost.
  const first = await hostile.call('ValidateInteraction', postSlowPattern('slow', slowPatternText(1, SLOW_CHARS)), { deadlineMs: 60_000 });
  assert.match(first.errors[0], /must match pattern/);
  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    () => streamOf(slowEvery(STREAM_ITEMS, (i) => postSlowPattern('slow', slowPatternText(i, SLOW_CHARS)), (i) => postSlowPattern('slow', `ab${i}`))),
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  assert.equal(answer.length, STREAM_ITEMS);
  assert.ok(answer.every((result) => !result.valid && /must match pattern/.test(result.errors[0]!)));
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 10, `only ${neighbourMs.length} neighbour calls ran during ${Math.round(hostileMs)} ms of the stream`);
  assert.ok(worst < NEIGHBOUR_MAX_MS, `a neighbour call took ${Math.round(worst)} ms beside the stream (${Math.round(hostileMs)} ms)`);
});

test("a stream whose every tenth call is slow at the size of the quick ones leaves another schema's calls prompt", async () => {
  const first = await hostile.call('ValidateInteraction', postNested('nested', NESTED_LEVELS), { deadlineMs: 60_000 });
  assert.match(first.errors[0], /must be integer/);
  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    () => streamOf(slowEvery(NESTED_ITEMS, () => postNested('nested', NESTED_LEVELS), () => postNested('nested', 2))),
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  assert.equal(answer.length, NESTED_ITEMS);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 10, `only ${neighbourMs.length} neighbour calls ran during ${Math.round(hostileMs)} ms of the stream`);
  assert.ok(worst < NEIGHBOUR_MAX_MS, `a neighbour call took ${Math.round(worst)} ms beside the stream (${Math.round(hostileMs)} ms)`);
});
