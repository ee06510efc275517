/**
 * Issue 12: cancelling a call stops its work. A caller whose deadline passed was answered
 * DEADLINE_EXCEEDED, but its call still ran to the end in a worker (a slow `pattern` over 900,000
 * characters: 4.5 s), and every call queued behind it on that worker waited as long. The pool now
 * drops calls whose callers have gone, and stops a slow batch that holds only such calls.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { createTestClient, startTestServer, type TestClient, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/** Characters of the slow body: about 4.5 s of RE2 on the test machine. */
const SLOW_BODY_CHARS = 900_000;
/** The hostile caller's deadline. */
const DEADLINE_MS = 300;
/**
 * The neighbour's call waits behind the abandoned one (one worker) until it has run slowCallMs
 * (500 ms) and the lanes are next checked (every second): about 1.5 s, not the call's 4.5 s.
 */
const NEIGHBOUR_BOUND_MS = 3_000;

const SLOW_PATTERN_SCHEMA = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'slow pattern', version: '1.0.0' },
  paths: { '/x': { post: {
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { s: { type: 'string', pattern: 'a.{999}d' } } } } } },
    responses: { 200: { description: 'ok' } },
  } } },
});

let server: TestServer;
let hostile: TestClient;
let neighbour: TestClient;
before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  hostile = createTestClient(server.address);
  neighbour = createTestClient(server.address);
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  await registerSchema(server.client, 'slow', SLOW_PATTERN_SCHEMA);
  await neighbour.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  await hostile.call('ValidateInteraction', postSlow('ab'));
});
after(async () => {
  hostile.close();
  neighbour.close();
  await server.close();
});

function postSlow(text: string) {
  return {
    schema_id: 'slow',
    request: { method: 'POST', path: '/x', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ s: text }) },
    response: { status_code: 200, headers: {}, body: '' },
  };
}

test('a call whose deadline passed stops holding the worker: the call queued behind it is answered', async () => {
  let state = 1;
  const text = Array.from({ length: SLOW_BODY_CHARS }, () => ((state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) >> 16) & 1 ? 'a' : 'b').join('');
  const abandoned = hostile.call('ValidateInteraction', postSlow(text), { deadlineMs: DEADLINE_MS }).then(
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
