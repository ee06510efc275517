/**
 * The server's comparison cache is bounded by the characters of the changes it keeps
 * (compareCacheMaxChars), not only by its 64 entries. One caller registered 65 versions of a 26 KB
 * document whose neighbours differ by 8,000 changes of a 400-character path (7.5 M characters, under
 * compareMaxChangeChars) and compared each pair once: in 29 s the cache held 640 MB of the main
 * thread's heap, memory every other caller shares.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { longPathChangesDocument } from '../helpers/documents';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/** 8,000 changes of about 950 characters each: 7.5 M characters a pair. */
const PATH_CHARS = 400;
/** Pairs compared: 24 results of 7.5 M characters are 5 times compareCacheMaxChars, and far under 64 entries. */
const PAIRS = 24;
/** Growth of the main thread's heap after the comparisons (about 10 MB a kept result: 240 MB before). */
const HEAP_GROWTH_BOUND_BYTES = 120 * 1024 * 1024;
/** A neighbour's validation right after them. */
const NEIGHBOUR_BOUND_MS = 400;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const heapUsed = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  for (let i = 1; i <= PAIRS + 1; i++) await registerSchema(server.client, 'long', longPathChangesDocument(`${i}.0.0`, i % 2 === 0, PATH_CHARS), `${i}.0.0`);
});
after(() => server.close());

const compare = (oldVersion: number) => server.client.call('CompareSchemas', {
  schema_id: 'long', old_version: `${oldVersion}.0.0`, new_version: `${oldVersion + 1}.0.0`,
}, { deadlineMs: 60_000 });

/** Changes counted by svc_breaking_changes_detected_total: it moves when a comparison is computed, not when a kept result is served. */
async function changesDetected(): Promise<number> {
  return (await scrapeMetrics(server.server.metricsPort!)).value('svc_breaking_changes_detected_total');
}

test('results kept by the comparison cache stay within compareCacheMaxChars; the oldest large ones are computed again', async () => {
  const heapBefore = heapUsed();
  for (let pair = 1; pair <= PAIRS; pair++) {
    const answer = await compare(pair);
    assert.equal(answer.breaking_changes.length, 8_000, answer.message);
  }
  const grown = heapUsed() - heapBefore;
  assert.ok(grown < HEAP_GROWTH_BOUND_BYTES, `the main thread's heap grew by ${Math.round(grown / 2 ** 20)} MiB over ${PAIRS} comparisons`);

  const started = performance.now();
  await server.client.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  assert.ok(performance.now() - started < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(performance.now() - started)} ms`);

  // The latest result is served from the cache; the first was let go by weight and is computed again.
  const detected = await changesDetected();
  assert.equal((await compare(PAIRS)).breaking_changes.length, 8_000);
  assert.equal(await changesDetected(), detected);
  assert.equal((await compare(1)).breaking_changes.length, 8_000);
  assert.equal(await changesDetected(), detected + 8_000);
});
