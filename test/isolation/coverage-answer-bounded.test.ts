/**
 * A GetCoverage answer lists at most coverageMaxEntries operations and documented statuses; a version
 * with more is refused, naming the limit, before anything is built. 2,000 operations of 400 statuses
 * each (a 20 MB document) built 800,000 entries on the main thread: every caller waited 2.6-4.0 s a
 * call and the server grew to 1.7 GB.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerSchema } from '../helpers/validation';

/**
 * Before the limit the answer held a neighbour 2.6-4.0 s. The refusal is at once: what a neighbour
 * waits now is the loaded machine, bounded as in the other isolation tests.
 */
const NEIGHBOUR_BOUND_MS = 250;

function coverageDocument(operations: number, statuses: number): string {
  const responses = Object.fromEntries(Array.from({ length: statuses }, (_, i) => [String(100 + i), { description: 'x' }]));
  const paths = Object.fromEntries(Array.from({ length: operations }, (_, i) => [`/r${i}`, { get: { responses } }]));
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'coverage', version: '1.0.0' }, paths });
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await registerSchema(server.client, 'wide', coverageDocument(500, 100), '1.0.0');
  await registerSchema(server.client, 'fits', coverageDocument(100, 5), '1.0.0');
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

test('GetCoverage of a version with more operations and statuses than coverageMaxEntries is refused, naming the limit', async () => {
  const { answer, hostileMs, neighbourMs } = await neighbourWhile(
    () => server.client.call('GetCoverage', { schema_id: 'wide' }).then(() => undefined, (error: { code: number; details: string }) => error),
    () => server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER)),
    { pauseMs: 0 },
  );
  assert.equal(answer?.code, 8, 'RESOURCE_EXHAUSTED');
  assert.match(answer!.details, /wide version 1\.0\.0 has 500 operations and 50000 documented statuses, over the limit of \d+ \(together\) one GetCoverage answer lists \(coverageMaxEntries\)/);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(worst)} ms while GetCoverage took ${Math.round(hostileMs)} ms`);

  const fits = await server.client.call('GetCoverage', { schema_id: 'fits' });
  assert.equal(fits.operations.length, 100);
  assert.equal(fits.documented_statuses, 500);
});
