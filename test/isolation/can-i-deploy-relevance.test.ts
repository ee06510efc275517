/**
 * CanIDeploy finds the changes on a consumer's endpoints in time linear in changes plus endpoints.
 * It compared every change with every endpoint (and, with field_level_impact, looked through every
 * endpoint again for each change's used fields): one consumer of 1,000 endpoints meeting 9,000
 * changes held the main thread 0.5 s, 1.5 s with field-level impact, on every deploy check.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerBreakingVersions, registerSchema } from '../helpers/validation';

const OPERATIONS = 1_000;
/** Response properties of each operation whose type changes in 2.0.0: OPERATIONS × this many changes. */
const CHANGED_PROPERTIES = 9;
/** It took 1.5 s; the answer itself (9,000 changes) takes 20–40 ms. */
const NEIGHBOUR_BOUND_MS = 300;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await registerBreakingVersions(server.client, 'gate', OPERATIONS, CHANGED_PROPERTIES);
  // Every endpoint but the first, last first: a change's endpoint is found far down the list.
  const usedEndpoints = Array.from({ length: OPERATIONS - 1 }, (_, i) => ({ method: 'GET', path: `/r${OPERATIONS - 1 - i}/{id}`, used_fields: ['p0'] }));
  const answer = await server.client.call('RegisterConsumer', {
    consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'gate', schema_version: '1.0.0', environment: 'dev', used_endpoints: usedEndpoints,
  });
  assert.equal(answer.success, true, answer.message);
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
  // The comparison, on its thread, is cached by the first check.
  await server.client.call('CanIDeploy', { schema_id: 'gate', new_version: '2.0.0', environment: 'dev' });
});
after(() => server.close());

for (const fieldLevelImpact of [false, true]) {
  test(`CanIDeploy (field_level_impact ${fieldLevelImpact}) judges a consumer of ${OPERATIONS - 1} endpoints against ${OPERATIONS * CHANGED_PROPERTIES} changes without holding a neighbour`, async () => {
    const { answer, hostileMs, neighbourMs } = await neighbourWhile(
      () => server.client.call('CanIDeploy', { schema_id: 'gate', new_version: '2.0.0', environment: 'dev', field_level_impact: fieldLevelImpact }),
      () => server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER)),
      { pauseMs: 0 },
    );
    assert.equal(answer.safe_to_deploy, false);
    const [impact] = answer.affected_consumers;
    assert.equal(impact.will_break, true);
    // The first endpoint is not used: its changes are not the consumer's.
    assert.equal(impact.relevant_changes.length + impact.omitted_changes + impact.unreached_changes.length, (OPERATIONS - 1) * CHANGED_PROPERTIES);
    assert.ok(impact.relevant_changes.every((change: { path: string }) => change.path !== '/r0/{id}'));
    if (fieldLevelImpact) assert.ok(impact.relevant_changes.every((change: { description: string }) => change.description.includes('"p0"')), 'only p0 is used');
    assert.match(answer.summary, /1 of 1 consumer would break/);
    const worst = neighbourMs.at(-1) ?? 0;
    assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(worst)} ms while CanIDeploy took ${Math.round(hostileMs)} ms`);
  });
}
