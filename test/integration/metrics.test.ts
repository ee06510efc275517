/**
 * GET /metrics after a scripted session that touches every operation: each metric of the spec's
 * table is present with its type and has moved, Node process metrics are there, and label values
 * stay inside bounded sets (a flood of unknown schema ids adds no series).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { AUDIT_EVENT_TYPES } from '../../src/main/audit';
import { LIMITS } from '../../src/shared/limits';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { fetchText, scrapeMetrics, type Scrape } from '../helpers/metrics-scrape';
import { createTestClient, startTestServer, type TestServer } from '../helpers/server';

/** The spec's metrics table: name → type. */
const SPEC_METRICS: Readonly<Record<string, 'counter' | 'gauge' | 'histogram'>> = Object.freeze({
  svc_schemas_registered_total: 'counter',
  svc_schema_registration_errors_total: 'counter',
  svc_validations_total: 'counter',
  svc_validation_duration_seconds: 'histogram',
  svc_validation_errors_total: 'counter',
  svc_cache_hits_total: 'counter',
  svc_cache_misses_total: 'counter',
  svc_cache_size_bytes: 'gauge',
  svc_cache_items_total: 'gauge',
  svc_grpc_requests_total: 'counter',
  svc_grpc_request_duration_seconds: 'histogram',
  svc_breaking_changes_detected_total: 'counter',
  svc_schema_versions_total: 'gauge',
  svc_auth_success_total: 'counter',
  svc_auth_failure_total: 'counter',
  svc_schemas_by_owner: 'gauge',
  svc_schemas_by_team: 'gauge',
  svc_read_only_violations_total: 'counter',
  svc_audit_events_total: 'counter',
});

/** The sample whose value must have moved for each metric (histograms: their count). */
function movedSample(name: string, type: string): string {
  return type === 'histogram' ? `${name}_count` : name;
}

const API_KEY = 'metrics-test-key-5Rt8Yu2Io4Pa';
const GRPC_STATUS_NAMES = new Set(Object.keys(grpc.status).filter((key) => Number.isNaN(Number(key))));

describe('metrics endpoint', () => {
  let t: TestServer;
  let baseline: Scrape;
  let scrape: Scrape;
  const withKey = () => {
    const md = new grpc.Metadata();
    md.set('x-api-key', API_KEY);
    return md;
  };
  /** Resolves with the response, or with the gRPC error: the session goes on whatever each call answers. */
  const call = (method: string, request: object, metadata = withKey()) =>
    t.client.call(method, request, { metadata }).catch((error: grpc.ServiceError) => error);

  before(async () => {
    t = await startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS: API_KEY } });
    baseline = await scrapeMetrics(t.server.metricsPort!);

    const users = readSchemaFixture('users-3.0.json');
    const usersV2 = JSON.parse(users);
    usersV2.info.version = '2.0.0';
    delete usersV2.paths['/users/{id}'].delete; // ENDPOINT_REMOVED
    const ownership = { owner: 'alice', team: 'payments' };

    // Authentication: one refusal of each reason; every other call carries the key.
    await call('ListSchemas', {}, new grpc.Metadata());
    const wrong = new grpc.Metadata();
    wrong.set('x-api-key', `${API_KEY}x`);
    await call('ListSchemas', {}, wrong);

    // Registry: success, failure, read-only violation, new version with a breaking change.
    await call('RegisterSchema', { schema_id: 'users', schema_content: users, ownership });
    await call('RegisterSchema', { schema_id: 'users', schema_content: 'not: [an openapi document' });
    await call('RegisterSchema', { schema_id: 'frozen', schema_content: minimalDocument('1.0.0'), ownership: { ...ownership, read_only: true } });
    await call('RegisterSchema', { schema_id: 'frozen', schema_content: minimalDocument('1.0.0', {}, 'Changed'), ownership: { ...ownership, read_only: true } });
    await call('RegisterSchema', { schema_id: 'users', schema_content: JSON.stringify(usersV2), ownership, check_compatibility: true });
    await call('GetSchema', { schema_id: 'users' });
    await call('ListEndpoints', { schema_id: 'users' });
    await call('CompareSchemas', { schema_id: 'users', old_version: '1.0.0', new_version: '2.0.0' });
    await call('GenerateFixture', { schema_id: 'users', method: 'GET', path: '/users/{id}' });

    // Validation: valid, invalid response, unknown route; twice, so the contract cache is hit.
    for (let round = 0; round < 2; round++) {
      await call('ValidateInteraction', {
        schema_id: 'users', schema_version: '1.0.0',
        request: { method: 'GET', path: '/v1/users/7', headers: {} },
        response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"id": 7, "name": "Ada", "email": "ada@example.com"}' },
      });
      await call('ValidateInteraction', {
        schema_id: 'users', schema_version: '1.0.0',
        request: { method: 'GET', path: '/v1/users/7', headers: {} },
        response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"id": "seven"}' },
      });
      await call('ValidateProducerResponse', {
        schema_id: 'users', method: 'GET', path: '/v1/nowhere', response: { status_code: 200, headers: {}, body: '{}' },
      });
    }

    // Consumers and can-i-deploy: registration, a decision that breaks the consumer, deregistration.
    await call('RegisterConsumer', {
      consumer_id: 'web', consumer_version: '3.1.0', schema_id: 'users', schema_version: '1.0.0', environment: 'prod',
      used_endpoints: [{ method: 'DELETE', path: '/users/{id}', used_fields: [] }],
    });
    await call('ListConsumers', { schema_id: 'users' });
    await call('CanIDeploy', { schema_id: 'users', new_version: '2.0.0', environment: 'prod' });
    await call('DeregisterConsumer', { consumer_id: 'web', schema_id: 'users', environment: 'prod' });

    scrape = await scrapeMetrics(t.server.metricsPort!);
  });
  after(() => t.close());

  it('serves the text exposition format at GET /metrics only', async () => {
    const ok = await fetchText(`http://127.0.0.1:${t.server.metricsPort}/metrics`);
    assert.equal(ok.status, 200);
    assert.match(ok.contentType, /^text\/plain; version=0\.0\.4/);
    const other = await fetchText(`http://127.0.0.1:${t.server.metricsPort}/other`);
    assert.equal(other.status, 404);
  });

  for (const [name, type] of Object.entries(SPEC_METRICS)) {
    it(`${name} is a ${type} and moved during the session`, () => {
      const family = scrape.families.get(name);
      assert.ok(family, `${name} is exposed`);
      assert.equal(family.type, type);
      const sample = movedSample(name, type);
      const moved = type === 'gauge' ? scrape.value(sample) : scrape.value(sample) - baseline.value(sample);
      assert.ok(moved > 0, `${sample} moved (before ${baseline.value(sample)}, after ${scrape.value(sample)})`);
    });
  }

  it('counts the events of the session under the expected labels', () => {
    const delta = (sample: string, labels: Record<string, string>) => scrape.value(sample, labels) - baseline.value(sample, labels);
    assert.equal(delta('svc_schemas_registered_total', { status: 'failure' }), 2);
    assert.equal(delta('svc_schema_registration_errors_total', { error_type: 'read_only' }), 1);
    assert.equal(delta('svc_read_only_violations_total', {}), 1);
    assert.equal(delta('svc_auth_failure_total', { reason: 'missing_key' }), 1);
    assert.equal(delta('svc_auth_failure_total', { reason: 'invalid_key' }), 1);
    assert.equal(delta('svc_grpc_requests_total', { method: 'ListSchemas', status: 'UNAUTHENTICATED' }), 2);
    assert.equal(delta('svc_grpc_requests_total', { method: 'RegisterSchema', status: 'OK' }), 5);
    assert.ok(delta('svc_breaking_changes_detected_total', { change_type: 'ENDPOINT_REMOVED' }) >= 1);
    assert.equal(scrape.value('svc_schema_versions_total', { schema_id: 'users' }), 2);
    assert.equal(scrape.value('svc_schemas_by_owner', { owner: 'alice' }), 2);
    assert.equal(scrape.value('svc_schemas_by_team', { team: 'payments' }), 2);
    assert.equal(delta('svc_validations_total', { schema_id: 'users' }), 6);
    for (const category of ['response_invalid', 'route_not_found']) {
      assert.ok(delta('svc_validation_errors_total', { error_category: category }) >= 1, `${category} counted`);
    }
    for (const eventType of ['schema_registered', 'read_only_violation', 'auth_failure', 'consumer_registered', 'consumer_deregistered', 'can_i_deploy_decision']) {
      assert.ok(delta('svc_audit_events_total', { event_type: eventType }) >= 1, `audit ${eventType} counted`);
    }
  });

  it('labels gRPC requests with operation names and status names only', () => {
    const operations = new Set(Object.keys(contractValidatorDefinition()));
    const samples = scrape.families.get('svc_grpc_requests_total')!.samples;
    assert.ok(samples.length > 0);
    for (const { labels } of samples) {
      assert.ok(operations.has(labels.method!), `method ${labels.method}`);
      assert.ok(GRPC_STATUS_NAMES.has(labels.status!), `status ${labels.status}`);
    }
    const eventTypes = new Set<string>(AUDIT_EVENT_TYPES);
    for (const { labels } of scrape.families.get('svc_audit_events_total')!.samples) assert.ok(eventTypes.has(labels.event_type!));
  });

  it('counts calls that grpc-js ends itself: message over the limit, deadline passed', async () => {
    const unlimited = createTestClient(t.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': -1 });
    const before = await scrapeMetrics(t.server.metricsPort!);
    try {
      await assert.rejects(unlimited.call('RegisterSchema', { schema_id: 'huge', schema_content: ' '.repeat(LIMITS.maxGrpcMessageBytes + 1) }, { metadata: withKey() }),
        { code: grpc.status.RESOURCE_EXHAUSTED });
      // A request that never sends its message, with a 100 ms deadline the server alone enforces
      // (no client deadline), so the server's own timer ends the call.
      const definition = contractValidatorDefinition().RegisterSchema;
      const metadata = withKey();
      metadata.set('grpc-timeout', '100m');
      const stalled = new Promise<grpc.ServiceError | null>((resolve) => {
        unlimited.raw.makeClientStreamRequest(definition.path, (bytes: Buffer) => bytes, definition.responseDeserialize, metadata, {}, (error) => resolve(error));
      });
      assert.equal((await stalled)?.code, grpc.status.DEADLINE_EXCEEDED);
    } finally {
      unlimited.close();
    }
    const after = await scrapeMetrics(t.server.metricsPort!);
    const delta = (status: string) => after.value('svc_grpc_requests_total', { method: 'RegisterSchema', status })
      - before.value('svc_grpc_requests_total', { method: 'RegisterSchema', status });
    assert.equal(delta('RESOURCE_EXHAUSTED'), 1);
    assert.equal(delta('DEADLINE_EXCEEDED'), 1);
  });

  it('exposes Node process metrics', () => {
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      assert.ok(scrape.families.has(name), `${name} is exposed`);
    }
  });

  it('adds no series for a flood of unknown schema ids', async () => {
    const seriesCount = (s: Scrape) => [...s.families.entries()]
      .filter(([name]) => name.startsWith('svc_'))
      .reduce((sum, [, family]) => sum + family.samples.length, 0);
    const flood = async (prefix: string) => {
      for (let i = 0; i < 50; i++) {
        const id = `${prefix}-${i}`;
        await call('GetSchema', { schema_id: id });
        await call('ListEndpoints', { schema_id: id });
        await call('CompareSchemas', { schema_id: id });
        await call('ValidateInteraction', {
          schema_id: id, request: { method: `M${i}`, path: `/x/${i}`, headers: {} }, response: { status_code: 200, headers: {}, body: '{}' },
        });
        await call('ValidateProducerResponse', { schema_id: id, method: 'GET', path: `/y/${i}`, response: { status_code: 200, headers: {}, body: '{}' } });
        await call('GenerateFixture', { schema_id: id, method: 'GET', path: `/z/${i}` });
        await call('ListConsumers', { schema_id: id });
        await call('CanIDeploy', { schema_id: id, new_version: '9.9.9', environment: 'prod' });
      }
    };
    await flood('warm-up'); // first sightings of each status/category label may add their (bounded) series
    const before = seriesCount(await scrapeMetrics(t.server.metricsPort!));
    await flood('ghost');
    const after = await scrapeMetrics(t.server.metricsPort!);
    assert.equal(seriesCount(after), before);
    assert.ok(!after.raw.includes('ghost-'), 'no unknown schema id appears in any label');
  });
});
