/**
 * Issue 12: CanIDeploy's answer is bounded by canIDeployChangesPerConsumer and
 * canIDeployListedChanges, whatever the number of consumers times the changes each one meets.
 * Every consumer of an endpoint with thousands of breaking changes listed all of them: 800 of 5,000
 * built 4 million wire objects on the main thread, stalled every call for 30 s and ended the server
 * out of heap; 200 made an answer of 250 MB that could not be sent.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { createChangeListing } from '../../src/main/compatibility/listed-changes';
import type { BreakingChangeRecord } from '../../src/shared/compare';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerSchema } from '../helpers/validation';

/** Changes of the gate's one endpoint: every response property changes type in 2.0.0. */
const CHANGES = 2_000;
/** Consumers of that endpoint: CONSUMERS × CHANGES far above canIDeployListedChanges. */
const CONSUMERS = 150;
/** A neighbour's validation may take this long while the gate answers (it took seconds unbounded). */
const NEIGHBOUR_BOUND_MS = 400;

/** Response properties in objects of 500 (maxSchemaObjectProperties is 1,000). */
const PROPERTIES_PER_OBJECT = 500;

function gateDocument(version: string, changed: boolean): string {
  const properties = Object.fromEntries(Array.from({ length: CHANGES / PROPERTIES_PER_OBJECT }, (_, o) => [`o${o}`, {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: PROPERTIES_PER_OBJECT }, (_, i) => [`p${i}`, { type: changed ? 'string' : 'integer' }])),
  }]));
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'gate', version },
    paths: {
      '/items/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } },
        },
      },
    },
  });
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await registerSchema(server.client, 'gate', gateDocument('1.0.0', false), '1.0.0');
  await registerSchema(server.client, 'gate', gateDocument('2.0.0', true), '2.0.0');
  for (let i = 0; i < CONSUMERS; i++) {
    const answer = await server.client.call('RegisterConsumer', {
      consumer_id: `c${String(i).padStart(3, '0')}`, consumer_version: '1.0.0', schema_id: 'gate', schema_version: '1.0.0', environment: 'dev',
      used_endpoints: [{ method: 'GET', path: '/items/{id}' }],
    });
    assert.equal(answer.success, true, answer.message);
  }
});
after(() => server.close());

test('CanIDeploy over consumers × changes far above its limits lists within them, counts the rest, and holds no neighbour', async () => {
  const { answer, hostileMs, neighbourMs } = await neighbourWhile(
    () => server.client.call('CanIDeploy', { schema_id: 'gate', new_version: '2.0.0', environment: 'dev' }),
    () => server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER)),
    { pauseMs: 0 },
  );

  assert.equal(answer.safe_to_deploy, false);
  assert.equal(answer.breaking_changes.length, CHANGES);
  assert.equal(answer.affected_consumers.length, CONSUMERS);
  let listed = 0;
  for (const impact of answer.affected_consumers) {
    assert.equal(impact.will_break, true, `${impact.consumer_id} breaks whether or not its changes are listed`);
    assert.ok(impact.relevant_changes.length <= LIMITS.canIDeployChangesPerConsumer);
    assert.equal(impact.relevant_changes.length + impact.unreached_changes.length + impact.omitted_changes, CHANGES, impact.consumer_id);
    listed += impact.relevant_changes.length;
  }
  assert.equal(listed, LIMITS.canIDeployListedChanges, 'the lists fill the answer\'s room, no more');
  assert.equal(answer.affected_consumers[0]!.relevant_changes.length, LIMITS.canIDeployChangesPerConsumer, 'the first consumers get full lists');
  assert.equal(answer.affected_consumers.at(-1)!.relevant_changes.length, 0, 'the last ones find the room spent');
  assert.match(answer.summary, new RegExp(`leave out ${CONSUMERS * CHANGES - LIMITS.canIDeployListedChanges} changes \\(at most ${LIMITS.canIDeployChangesPerConsumer} are listed per consumer and ${LIMITS.canIDeployListedChanges} in all\\)`));
  assert.match(answer.summary, /^Not safe to deploy gate 2\.0\.0 to dev: 150 of 150 consumers would break/);

  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(worst)} ms while CanIDeploy took ${Math.round(hostileMs)} ms`);
});

test('the listing gives each consumer its relevant changes first, then unreached ones, within both limits', () => {
  const change = (i: number): BreakingChangeRecord => ({ type: 'TYPE_CHANGED', path: '/a', method: 'GET', description: `change ${i}`, oldValue: '', newValue: '' });
  const relevant = Array.from({ length: 4 }, (_, i) => change(i));
  const unreached = Array.from({ length: 3 }, (_, i) => change(10 + i));
  const listing = createChangeListing({ perConsumer: 5, total: 8 });

  const first = listing.listFor(relevant, unreached);
  assert.deepEqual(first.relevant.map((wire) => wire.description), ['change 0', 'change 1', 'change 2', 'change 3']);
  assert.deepEqual(first.unreached.map((wire) => wire.description), ['change 10']);
  assert.equal(first.omitted, 2);
  const second = listing.listFor(relevant, unreached);
  assert.equal(second.relevant.length, 3, 'three left of the total of eight');
  assert.equal(second.unreached.length, 0);
  assert.equal(second.omitted, 4);
  const third = listing.listFor(relevant, []);
  assert.equal(third.relevant.length, 0);
  assert.equal(third.omitted, 4);
  assert.equal(listing.omitted, 10);
  assert.equal(second.relevant[0], first.relevant[0], 'one wire object per change, shared by the consumers that list it');
});
