/**
 * GetCoverage of a version whose templates are many, of one length over 16 Ki characters, and differ
 * at their end (`/{a 17,000-character parameter name}/l0001`, matched by `/x/l0001`). V8 hashes
 * strings that long by their length alone, so grouping usage rows by operation compared every
 * template with the others: 600 of them took 588 ms and held another caller's calls 451 ms. Long
 * templates stand in the operation's key by their digest (usage-keys.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { operationKey } from '../../src/main/storage/usage-keys';
import { recordInteractions } from '../helpers/recording';
import { startTestServer, type TestServer } from '../helpers/server';
import { registerSchema } from '../helpers/validation';

const OPERATIONS = 1_000;
const NAME = 'a'.repeat(17_000);
/** About 200 ms measured on the 2-core test machine; 1.2 s and more before. */
const MAX_COVERAGE_MS = 600;

const suffix = (i: number) => `l${String(i).padStart(4, '0')}`;
let server: TestServer;

before(async () => {
  server = await startTestServer();
  const paths = Object.fromEntries(Array.from({ length: OPERATIONS }, (_, i) => [`/{${NAME}}/${suffix(i)}`, { get: { responses: { default: { description: 'any' } } } }]));
  await registerSchema(server.client, 'long', JSON.stringify({ openapi: '3.0.3', info: { title: 'long', version: '1.0.0' }, paths }), '1.0.0');
  const recorded = await recordInteractions(server.client, Array.from({ length: OPERATIONS }, (_, i) => ({
    schema_id: 'long', consumer_id: 'web', request: { method: 'GET', path: `/x/${suffix(i)}`, headers: {}, body: '' }, response: { status_code: 200, headers: {}, body: '' },
  })));
  assert.equal(recorded.accepted, OPERATIONS, recorded.message);
  await server.client.call('GetCoverage', { schema_id: 'long' }); // the listing and the first read
});
after(() => server.close());

test('coverage of many long templates is grouped at once, and complete', async () => {
  const started = performance.now();
  const coverage = await server.client.call('GetCoverage', { schema_id: 'long' });
  const ms = performance.now() - started;
  assert.equal(coverage.exercised_statuses, OPERATIONS);
  assert.equal(coverage.coverage_percent, 100);
  assert.ok(ms < MAX_COVERAGE_MS, `GetCoverage took ${Math.round(ms)} ms`);
});

test('an operation key tells long templates apart by their digest', () => {
  const key = operationKey('GET', `/{${NAME}}/${suffix(1)}`);
  assert.ok(key.length < 100, 'short');
  assert.notEqual(key, operationKey('GET', `/{${NAME}}/${suffix(2)}`));
  assert.equal(operationKey('GET', '/users/{id}'), 'GET /users/{id}');
});
