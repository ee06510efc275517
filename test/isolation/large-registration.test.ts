/**
 * Issue 12: a large RegisterSchema (parse, convert, check of an 8.6 MB description) once held every
 * other tenant's validations for seconds, because intake ran on the main thread. It runs on a
 * document-task thread now: other schemas' validations keep answering while it is read.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { largeApiDocument } from '../helpers/large-documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/** Neighbour calls answer in well under the registration's own time (blocked ones would take about all of it). */
const NEIGHBOUR_MAX_SHARE_OF_REGISTRATION = 0.5;

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

test('validations of another schema stay prompt while a large description is registered', async () => {
  const large = largeApiDocument('1.0.0', { operations: 4_000, depth: 2, width: 4 });
  let done = false;
  const started = performance.now();
  const registration = server.client.call('RegisterSchema', { schema_id: 'large', schema_content: large }, { deadlineMs: 120_000 })
    .finally(() => { done = true; });
  const neighbourMs: number[] = [];
  for (let i = 0; i < 2_000 && !done; i++) {
    const callStarted = performance.now();
    const answer = await server.client.call('ValidateInteraction', getUserInteraction('users', String(i + 1), { ...VALID_USER, id: i + 1 }));
    neighbourMs.push(performance.now() - callStarted);
    assert.equal(answer.valid, true);
  }
  const answer = await registration;
  const registrationMs = performance.now() - started;
  assert.equal(answer.success, true, answer.message);
  assert.equal(answer.metadata.endpoint_count, 4_000);
  const worst = Math.max(0, ...neighbourMs);
  assert.ok(neighbourMs.length >= 2, `only ${neighbourMs.length} neighbour calls during a ${Math.round(registrationMs)} ms registration`);
  assert.ok(worst < registrationMs * NEIGHBOUR_MAX_SHARE_OF_REGISTRATION, `a neighbour call took ${Math.round(worst)} ms during a ${Math.round(registrationMs)} ms registration`);
});
