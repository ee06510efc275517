/**
 * Evidence from recorded traffic against a real server (SQLite store): coverage, replay in
 * can-i-deploy for a tightened response pattern, field-level impact, observed consumers, redaction
 * on the stored rows, a bounded burst and durability across a restart, and the recording counter.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DEFAULT_RECORDING_LIMITS } from '../../src/main/evidence/recording-limits';
import { recordInteractions } from '../helpers/recording';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

const SCHEMA = 'people';
/**
 * Usage rows kept at most, a tenth of the default (--recording-max-usage-keys): the burst test shows
 * the bound with a tenth of the traffic, and the replay after the restart has a tenth of the samples.
 */
const MAX_USAGE_KEYS = DEFAULT_RECORDING_LIMITS.maxUsageKeys / 10;
const BURST_INTERACTIONS = 10 * MAX_USAGE_KEYS;
const SERVER_OPTIONS = { storage: 'sqlite', recordingMaxUsageKeys: MAX_USAGE_KEYS } as const;

function document(version: string, emailPattern?: string, withNick = true): string {
  const user = {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string', ...(emailPattern ? { pattern: emailPattern } : {}) },
      password: { type: 'string' },
      ...(withNick ? { nick: { type: 'string' } } : {}),
    },
  };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'people', version },
    paths: {
      '/users/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: user } } },
            '404': { description: 'missing' },
          },
        },
      },
      '/users/me': { get: { responses: { '200': { description: 'me', content: { 'application/json': { schema: user } } } } } },
    },
  });
}

interface Recorded {
  consumer: string;
  path: string;
  status?: number;
  body: object;
  reads?: string[];
  headers?: Record<string, string>;
}

function recordedInteraction(entry: Recorded) {
  return {
    schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod', consumer_id: entry.consumer,
    request: { method: 'GET', path: entry.path, headers: entry.headers ?? {}, body: '' },
    response: { status_code: entry.status ?? 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(entry.body) },
    valid: true, read_fields: entry.reads ?? [], read_fields_tracked: entry.reads !== undefined,
  };
}

function record(server: TestServer, entries: Iterable<ReturnType<typeof recordedInteraction>>) {
  return recordInteractions(server.client, entries);
}

async function flush(server: TestServer): Promise<void> {
  await server.server.context.usage.flush();
}

describe('evidence from recorded traffic', () => {
  const dataDir = makeTempDir('svc-evidence-');
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ ...SERVER_OPTIONS, dataDir });
    await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.0.0'), schema_version: '1.0.0' });
    await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.1.0', '^[a-z]+@[a-z]+$'), schema_version: '1.1.0' });
    await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('2.0.0', undefined, false), schema_version: '2.0.0' });
    await server.client.call('RecordDeployment', { schema_id: SCHEMA, environment: 'prod', version: '1.0.0' });
    // web is registered and declares what it reads; app has traffic only.
    await server.client.call('RegisterConsumer', {
      consumer_id: 'web', consumer_version: '3.1.0', schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod',
      used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['id', 'name'] }],
    });
    const answer = await record(server, [
      recordedInteraction({
        consumer: 'web', path: '/users/1', reads: ['id', 'name'], headers: { authorization: 'Bearer s3cret-token' },
        body: { id: '1', name: 'Ann', email: 'ann@example', nick: 'a', password: 'hunter2' },
      }),
      recordedInteraction({ consumer: 'web', path: '/users/1', reads: ['id'], body: { id: '1', name: 'Ann', email: 'ann@example' } }),
      recordedInteraction({ consumer: 'app', path: '/users/2', body: { id: '2', name: 'Bob', email: 'BOB@EXAMPLE', nick: 'b' } }),
      recordedInteraction({ consumer: 'app', path: '/nowhere', body: {} }),
    ]);
    assert.deepEqual({ accepted: answer.accepted, dropped: answer.dropped }, { accepted: 3, dropped: 1 });
    assert.match(answer.message, /1 route/);
    await flush(server);
  });

  after(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts kept and dropped interactions by reason in svc_recorded_interactions_total', async () => {
    const count = async (outcome: string, reason: string) => {
      const { values } = await server.server.context.metrics.recordedInteractions.get();
      return values.find((v) => v.labels.outcome === outcome && v.labels.reason === reason)?.value;
    };
    assert.equal(await count('accepted', ''), 3);
    assert.equal(await count('dropped', 'route'), 1);
    assert.equal(await count('dropped', 'unknown_schema'), 0, 'every reason is exported from the start');
    const answer = await record(server, [{ ...recordedInteraction({ consumer: 'web', path: '/users/1', body: {} }), schema_id: 'nobody' }]);
    assert.deepEqual({ accepted: answer.accepted, dropped: answer.dropped, message: answer.message }, { accepted: 0, dropped: 1, message: 'not kept: 1 unknown schema' });
    assert.equal(await count('dropped', 'unknown_schema'), 1);
  });

  it('lists exactly what was exercised as coverage', async () => {
    const coverage = await server.client.call('GetCoverage', { schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod' });
    const byOperation = Object.fromEntries(coverage.operations.map((operation: any) => [
      `${operation.method} ${operation.path}`,
      operation.statuses.map((status: any) => `${status.status}:${Number(status.call_count)}:${status.consumers.map((c: any) => c.consumer_id).sort().join('+')}`),
    ]));
    assert.deepEqual(byOperation, { 'GET /users/me': ['200:0:'], 'GET /users/{id}': ['200:3:app+web', '404:0:'] });
    assert.equal(coverage.exercised_statuses, 1);
    assert.equal(coverage.documented_statuses, 3);
    assert.equal(coverage.coverage_percent, 33.3);
    assert.deepEqual(coverage.consumers, ['app', 'web']);
  });

  it('catches a tightened response pattern by replay, for the consumer whose responses no longer match', async () => {
    const answer = await server.client.call('CanIDeploy', { schema_id: SCHEMA, new_version: '1.1.0', environment: 'prod', include_observed: true });
    assert.equal(answer.breaking_changes.length, 0, 'the structural comparison sees nothing');
    assert.equal(answer.safe_to_deploy, false);
    const impacts = Object.fromEntries(answer.affected_consumers.map((impact: any) => [impact.consumer_id, impact]));
    assert.equal(impacts.web.will_break, false);
    assert.equal(impacts.web.replayed_interactions, 2);
    assert.equal(impacts.app.will_break, true);
    assert.equal(impacts.app.observed, true);
    assert.equal(impacts.app.replay_failures.length, 1);
    const failure = impacts.app.replay_failures[0];
    assert.deepEqual([failure.method, failure.path, failure.status_code], ['GET', '/users/2', 200]);
    assert.match(failure.errors.join('\n'), /email/);
    assert.equal(answer.replayed_interactions, 3);
    assert.match(answer.summary, /3 recorded interactions replayed \(web 2, app 1\): 1 no longer valid/);
  });

  it('leaves observed consumers out unless asked', async () => {
    const answer = await server.client.call('CanIDeploy', { schema_id: SCHEMA, new_version: '1.1.0', environment: 'prod' });
    assert.deepEqual(answer.affected_consumers.map((impact: any) => impact.consumer_id), ['web']);
    assert.equal(answer.safe_to_deploy, true);
  });

  it('spares, in field-level mode, the consumer that never read the removed field', async () => {
    const structural = await server.client.call('CanIDeploy', { schema_id: SCHEMA, new_version: '2.0.0', environment: 'prod', skip_replay: true });
    assert.equal(structural.affected_consumers[0].will_break, true, 'the default is the path-and-method rule');
    const fieldLevel = await server.client.call('CanIDeploy', {
      schema_id: SCHEMA, new_version: '2.0.0', environment: 'prod', field_level_impact: true, include_observed: true, skip_replay: true,
    });
    const impacts = Object.fromEntries(fieldLevel.affected_consumers.map((impact: any) => [impact.consumer_id, impact]));
    assert.equal(impacts.web.will_break, false);
    assert.match(impacts.web.unreached_changes[0].description, /"nick"/);
    // app's reads were not tracked, so everything it received counts as used, nick included.
    assert.equal(impacts.app.will_break, true);
    assert.equal(fieldLevel.safe_to_deploy, false);
  });

  it('stores only redacted interactions and keeps read and received fields apart', async () => {
    // The server's own store (SQLite holds its data folder): the rows exactly as stored.
    const storage = server.server.context.storage;
    {
      const samples = await storage.listSamples({ schemaId: SCHEMA });
      assert.equal(samples.length, 3);
      const stored = samples.map((sample) => sample.interactionJson).join('\n');
      assert.doesNotMatch(stored, /hunter2|s3cret/);
      assert.match(stored, /password\\":\\"\[REDACTED\]/);
      assert.match(stored, /"authorization":"\[REDACTED\]"/);
      const web = (await storage.listUsage({ consumerId: 'web' }))[0]!;
      assert.deepEqual(web.usedFields, ['id', 'name']);
      assert.deepEqual(web.receivedFields, ['email', 'nick', 'password']);
    }
  });

  it(`keeps memory and rows bounded under a burst of ${BURST_INTERACTIONS.toLocaleString('en')} interactions`, async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const limits = { ...DEFAULT_RECORDING_LIMITS, maxUsageKeys: MAX_USAGE_KEYS };
    function* burst() {
      for (let i = 0; i < BURST_INTERACTIONS; i++) {
        // More consumers than maxUsageKeys, and many shapes per key.
        yield recordedInteraction({ consumer: `burst-${i % (1.2 * MAX_USAGE_KEYS)}`, path: `/users/${i}`, body: { id: String(i), [`extra${i % 50}`]: 'x' } });
      }
    }
    const answer = await record(server, burst());
    assert.equal(answer.accepted + answer.dropped, BURST_INTERACTIONS);
    assert.ok(answer.dropped > 0, 'new keys beyond maxUsageKeys are dropped and counted');
    await flush(server);
    const usage = server.server.context.usage;
    assert.ok(usage.size <= limits.maxUsageKeys, `${usage.size} usage keys`);
    const storage = server.server.context.storage;
    {
      const rows = await storage.listUsage({ schemaId: SCHEMA });
      assert.ok(rows.length <= limits.maxUsageKeys);
      const samples = await storage.listSamples({ schemaId: SCHEMA });
      const perKey = new Map<string, number>();
      for (const sample of samples) perKey.set(sample.consumerId, (perKey.get(sample.consumerId) ?? 0) + 1);
      assert.ok(Math.max(...perKey.values()) <= limits.samplesPerKey);
    }
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    assert.ok(heapGrowth < 256 * 1024 * 1024, `heap grew ${Math.round(heapGrowth / 1024 / 1024)} MiB`);
    await server.client.call('PurgeRecordings', { schema_id: SCHEMA, consumer_id: 'burst-1' });
    assert.equal((await usage.list({ consumerId: 'burst-1' })).length, 0);
  });

  it('keeps usage and samples across a restart', async () => {
    await server.close();
    server = await startTestServer({ ...SERVER_OPTIONS, dataDir });
    const coverage = await server.client.call('GetCoverage', { schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod' });
    assert.ok(coverage.consumers.includes('web') && coverage.consumers.includes('app'));
    const answer = await server.client.call('CanIDeploy', { schema_id: SCHEMA, new_version: '1.1.0', environment: 'prod', include_observed: true });
    const app = answer.affected_consumers.find((impact: any) => impact.consumer_id === 'app');
    assert.equal(app.replay_failures.length, 1);
  });
});
