/**
 * Issue 12: a tenant whose schema takes long to compile never holds the validations of another
 * schema. The first call of the slow operation compiles in a batch of its own, on one lane; the
 * other lane answers everyone else meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/**
 * Another tenant's calls must not wait for the compile: each answers in well under the compile's own
 * time (a bound relative to it, so a loaded 2-core CI machine running other test files beside this one
 * does not make the test flaky; blocked calls would take about the whole compile).
 */
const NEIGHBOUR_MAX_SHARE_OF_COMPILE = 0.6;

/** An operation whose request body is four objects of 1,000 properties with patterns: about a second or more to compile. */
function slowSchema(): string {
  const wide = (prefix: string) => ({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`${prefix}${i}`, { type: 'string', pattern: `^${prefix}[a-z]{1,${(i % 40) + 2}}$`, maxLength: 64 }])),
  });
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'slow', version: '1.0.0' },
    paths: {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { allOf: ['a', 'b', 'c', 'd'].map(wide) } } } },
          responses: { '204': { description: 'stored' } },
        },
      },
    },
  });
}

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'slow', slowSchema());
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  // Warm the neighbour: its contract and operation are compiled before the slow call starts.
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

test("a slow first compile holds only its own schema's calls", async () => {
  const slowStarted = performance.now();
  const slowCall = server.client.call('ValidateInteraction', {
    schema_id: 'slow',
    request: { method: 'POST', path: '/things', headers: { 'content-type': 'application/json' }, body: '{}' },
    response: { status_code: 204, headers: {}, body: '' },
  }, { deadlineMs: 60_000 });
  let slowDone = false;
  const slowAnswer = slowCall.finally(() => { slowDone = true; });

  const neighbourMs: number[] = [];
  // Bounded: at most 400 calls or until the slow call answers.
  for (let i = 0; i < 400 && !slowDone; i++) {
    const started = performance.now();
    const answer = await server.client.call('ValidateInteraction', getUserInteraction('users', String(i + 1), { ...VALID_USER, id: i + 1 }));
    neighbourMs.push(performance.now() - started);
    assert.equal(answer.valid, true, answer.errors.join('\n'));
  }
  const answer = await slowAnswer;
  const slowMs = performance.now() - slowStarted;
  assert.equal(answer.valid, true, answer.errors.join('\n'));
  const worst = Math.max(...neighbourMs);
  assert.ok(neighbourMs.length >= 2, `only ${neighbourMs.length} neighbour calls ran during a ${Math.round(slowMs)} ms compile`);
  assert.ok(worst < slowMs * NEIGHBOUR_MAX_SHARE_OF_COMPILE, `a neighbour call took ${Math.round(worst)} ms during a ${Math.round(slowMs)} ms compile`);
});
