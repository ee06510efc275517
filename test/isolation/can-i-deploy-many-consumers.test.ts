/**
 * CanIDeploy judges its consumers in turns of the event loop, not all in one: each consumer's
 * changes are looked up in its own time, and 300 consumers of 1,000 endpoints meeting 9,000 changes
 * held other callers 260-360 ms in one piece (680-1,070 ms with field-level impact).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { callFromThread } from '../helpers/thread-call';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerBreakingVersions, registerSchema } from '../helpers/validation';

const OPERATIONS = 1_000;
/** Response properties of each operation whose type changes in 2.0.0: OPERATIONS × this many changes. */
const CHANGED_PROPERTIES = 9;
/** Consumers of two endpoints each, no two alike: each one's changes are looked up on its own. */
const CONSUMERS = 1_500;
const NEIGHBOUR_BOUND_MS = 300;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await registerBreakingVersions(server.client, 'gate', OPERATIONS, CHANGED_PROPERTIES);
  for (let i = 0; i < CONSUMERS; i++) {
    const usedEndpoints = [i % OPERATIONS, (i + 1 + Math.floor(i / OPERATIONS)) % OPERATIONS].map((operation) => ({ method: 'GET', path: `/r${operation}/{id}`, used_fields: ['p0'] }));
    const answer = await server.client.call('RegisterConsumer', {
      consumer_id: `c${i}`, consumer_version: '1.0.0', schema_id: 'gate', schema_version: '1.0.0', environment: 'dev', used_endpoints: usedEndpoints,
    });
    assert.equal(answer.success, true, answer.message);
  }
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
  // The comparison, on its thread, is cached by the first check.
  await server.client.call('CanIDeploy', { schema_id: 'gate', new_version: '2.0.0', environment: 'dev' });
});
after(() => server.close());

for (const fieldLevelImpact of [false, true]) {
  test(`CanIDeploy (field_level_impact ${fieldLevelImpact}) judges ${CONSUMERS} consumers against ${OPERATIONS * CHANGED_PROPERTIES} changes without holding a neighbour`, async () => {
    // Its 6 MB answer is decoded on a thread of its own, off the thread the server shares with the neighbour.
    const { answer: reader, hostileMs, neighbourMs } = await neighbourWhile(
      () => callFromThread(server.address, 'CanIDeploy', { schema_id: 'gate', new_version: '2.0.0', environment: 'dev', field_level_impact: fieldLevelImpact }),
      () => server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER)),
      { pauseMs: 0 },
    );
    const answer = reader.answer();
    assert.equal(answer.safe_to_deploy, false);
    assert.equal(answer.affected_consumers.length, CONSUMERS);
    for (const impact of answer.affected_consumers as Array<{ will_break: boolean; relevant_changes: unknown[]; omitted_changes: number; unreached_changes: unknown[] }>) {
      assert.equal(impact.will_break, true);
      assert.equal(impact.relevant_changes.length + impact.unreached_changes.length + impact.omitted_changes, 2 * CHANGED_PROPERTIES);
    }
    const worst = neighbourMs.at(-1) ?? 0;
    assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(worst)} ms while CanIDeploy took ${Math.round(hostileMs)} ms`);
  });
}
