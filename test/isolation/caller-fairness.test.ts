/**
 * One caller cannot stall another's registration on a shared server. Caller A (one API key) holds a
 * document-task thread with a fixture that runs until its 10 s budget stops it and queues several
 * large registrations behind it; caller B (another key) registers a small schema meanwhile. Before
 * callers were told apart, A's registrations took the thread that fixtures leave free and B waited
 * behind all of them (seconds); now A holds at most its share (one of the two threads) and B's
 * intake starts at once. A thread nobody else needs is lent: A's own small registration does not
 * wait for A's slow fixture (it waited the fixture's whole 10 s before loans), and a lent thread is
 * taken back for B.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { largeApiDocument } from '../helpers/large-documents';
import { SLOW_FIXTURE_DOCUMENT, minimalDocument } from '../helpers/documents';
import { apiKeyMetadata } from '../helpers/api-keys';
import { waitUntil } from '../helpers/polling';
import { startTestServer, type TestServer } from '../helpers/server';

const KEY_A = 'team-a-key-Lk3Jh5Gf7Ds9';
const KEY_B = 'team-b-key-Po2Iu4Yt6Re8';
/** Large registrations A queues: each takes about 0.7 s of intake on a quiet machine, all of them seconds. */
const A_REGISTRATIONS = 5;
/**
 * B's registration of a small schema: about 0.3 s on a quiet two-core machine (a lent thread taken
 * back, a new one started), 1.05 s once with other test files and a load of 4 beside it; behind A's
 * queue it took 3.5 s and more.
 */
const B_MAX_MS = 2_000;
/** Longest the test waits for A's calls to reach the pool's queue. */
const QUEUE_WAIT_MS = 20_000;

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 1, apiKeyAuth: true, env: { SVC_API_KEYS: `${KEY_A},${KEY_B}` } });
  const register = (key: string, schemaId: string, content: string) =>
    server.client.call('RegisterSchema', { schema_id: schemaId, schema_content: content }, { metadata: apiKeyMetadata(key) });
  // Two callers at once start both threads, so B's timed call below pays for no thread start.
  const warmed = await Promise.all([register(KEY_A, 'grid', SLOW_FIXTURE_DOCUMENT), register(KEY_B, 'warm-up', minimalDocument())]);
  for (const answer of warmed) assert.equal(answer.success, true, answer.message);
});
after(() => server.close());

test("a caller's small registration answers promptly while another caller's slow fixture and large registrations hold the threads", async (t) => {
  const a = apiKeyMetadata(KEY_A);
  let fixtureDone = false;
  const fixture = server.client.call('GenerateFixture', { schema_id: 'grid', method: 'GET', path: '/grid', output_type: 'OUTPUT_RESPONSE' }, { metadata: a, deadlineMs: 120_000 })
    .finally(() => { fixtureDone = true; });
  let registrationsDone = 0;
  const registrations = Array.from({ length: A_REGISTRATIONS }, (_, i) => server.client.call('RegisterSchema', {
    schema_id: `large-${i}`, schema_content: largeApiDocument(`1.0.${i}`, { operations: 4_000, depth: 2, width: 4 }),
  }, { metadata: a, deadlineMs: 120_000 }).finally(() => { registrationsDone++; }));

  // Whatever is asserted below, A's work ends within this test, so the next one starts with idle threads.
  t.after(() => Promise.allSettled([fixture, ...registrations]));
  // A's tasks are all in the pool (one or two of them running) before B asks.
  const pool = server.server.context.documentTasks;
  await waitUntil(() => pool.waiting >= A_REGISTRATIONS - 1, QUEUE_WAIT_MS);
  assert.ok(pool.waiting >= A_REGISTRATIONS - 1, `only ${pool.waiting} of caller A's tasks reached the queue`);

  const started = performance.now();
  const answer = await server.client.call('RegisterSchema', { schema_id: 'small', schema_content: minimalDocument('2.0.0') }, { metadata: apiKeyMetadata(KEY_B) });
  const elapsedMs = performance.now() - started;
  t.diagnostic(`caller B's registration took ${Math.round(elapsedMs)} ms`);
  assert.equal(answer.success, true, answer.message);
  assert.ok(elapsedMs < B_MAX_MS, `caller B's registration took ${Math.round(elapsedMs)} ms behind caller A's work`);
  assert.ok(!fixtureDone && registrationsDone < A_REGISTRATIONS, "caller A's work was still in flight when B's registration answered");

  const stopped = await fixture;
  assert.equal(stopped.success, false);
  assert.match(stopped.message, /\(fixtureMaxMs\)/);
  for (const registered of await Promise.all(registrations)) assert.equal(registered.success, true, registered.message);
});

test("a caller's own small registration does not wait for its slow fixture while the other thread is idle", async (t) => {
  const a = apiKeyMetadata(KEY_A);
  let fixtureDone = false;
  const fixture = server.client.call('GenerateFixture', { schema_id: 'grid', method: 'GET', path: '/grid', output_type: 'OUTPUT_RESPONSE' }, { metadata: a, deadlineMs: 120_000 })
    .then(() => undefined, () => undefined) // stopped by its budget, or by the server's close after this test
    .finally(() => { fixtureDone = true; });
  const pool = server.server.context.documentTasks;
  // The fixture holds caller A's share (one of the two threads) before A registers.
  await waitUntil(() => pool.workers.length >= 1, QUEUE_WAIT_MS);
  await sleep(200);
  const started = performance.now();
  const answer = await server.client.call('RegisterSchema', { schema_id: 'own', schema_content: minimalDocument('3.0.0') }, { metadata: a });
  const elapsedMs = performance.now() - started;
  t.diagnostic(`caller A's own registration took ${Math.round(elapsedMs)} ms beside its fixture`);
  assert.equal(answer.success, true, answer.message);
  assert.ok(!fixtureDone, "caller A's fixture was still running");
  assert.ok(elapsedMs < B_MAX_MS, `caller A's registration took ${Math.round(elapsedMs)} ms behind its own fixture`);
  void fixture;
});
