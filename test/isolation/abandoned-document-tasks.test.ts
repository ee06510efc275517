/**
 * Document tasks whose callers have gone are not run for nobody. Caller A asked for six slow fixtures
 * (each runs until fixtureMaxMs, 10 s) with a deadline of 1 s and was told DEADLINE_EXCEEDED, but the
 * fixtures still ran one after another on the fixture thread, all callers' one: for a minute every
 * fixture of caller B waited 8–9 s. Now a waiting task whose call has gone is dropped, and a running
 * one is stopped within goneCheckMs (its thread replaced).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { SLOW_FIXTURE_DOCUMENT, minimalDocument } from '../helpers/documents';
import { apiKeyMetadata } from '../helpers/api-keys';
import { waitUntil } from '../helpers/polling';
import { startTestServer, type TestServer } from '../helpers/server';

const KEY_A = 'team-a-key-Vb7Nm2Qw4Er6';
const KEY_B = 'team-b-key-Zx8Cv1As3Df5';
/** Slow fixtures caller A abandons: a minute of the fixture thread if they all ran. */
const ABANDONED = 6;
const DEADLINE_MS = 1_000;
/**
 * B's small fixture after A's deadlines: a thread replaced (about 0.3 s on a quiet 2-core machine) and
 * the fixture itself; 8–9 s behind the abandoned fixtures before.
 */
const B_MAX_MS = 3_000;

let server: TestServer;
before(async () => {
  server = await startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS: `${KEY_A},${KEY_B}` } });
  const register = (key: string, schemaId: string, content: string) =>
    server.client.call('RegisterSchema', { schema_id: schemaId, schema_content: content }, { metadata: apiKeyMetadata(key) });
  for (const answer of await Promise.all([register(KEY_A, 'grid', SLOW_FIXTURE_DOCUMENT), register(KEY_B, 'small', minimalDocument())])) {
    assert.equal(answer.success, true, answer.message);
  }
  assert.equal((await smallFixture()).success, true, 'the warm-up fixture');
});
after(() => server.close());

const smallPath = Object.keys(JSON.parse(minimalDocument()).paths)[0]!;
const smallFixture = () => server.client.call('GenerateFixture', {
  schema_id: 'small', method: 'GET', path: smallPath, status_code: 200, output_type: 'OUTPUT_RESPONSE',
}, { metadata: apiKeyMetadata(KEY_B), deadlineMs: 30_000 });

test("fixtures whose callers' deadlines passed are dropped and stopped: another caller's fixture does not wait for them", async (t) => {
  const abandoned = await Promise.all(Array.from({ length: ABANDONED }, () => server.client.call('GenerateFixture', {
    schema_id: 'grid', method: 'GET', path: '/grid', output_type: 'OUTPUT_RESPONSE',
  }, { metadata: apiKeyMetadata(KEY_A), deadlineMs: DEADLINE_MS }).then(
    () => assert.fail('a slow fixture was answered within its deadline'),
    (error: grpc.ServiceError) => error.code,
  )));
  assert.deepEqual(abandoned, Array(ABANDONED).fill(grpc.status.DEADLINE_EXCEEDED));
  // Looked at every goneCheckMs (250 ms).
  const pool = server.server.context.documentTasks;
  await waitUntil(() => pool.waiting === 0, 2_000, 25);
  assert.equal(pool.waiting, 0, 'abandoned fixtures still wait for the thread');

  for (const attempt of [1, 2]) {
    const started = performance.now();
    const answer = await smallFixture();
    const elapsedMs = performance.now() - started;
    t.diagnostic(`caller B's fixture ${attempt} took ${Math.round(elapsedMs)} ms`);
    assert.equal(answer.success, true, answer.message);
    assert.ok(elapsedMs < B_MAX_MS, `caller B's fixture ${attempt} took ${Math.round(elapsedMs)} ms after caller A's abandoned ones`);
  }
});
