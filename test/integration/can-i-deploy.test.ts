/** CanIDeploy over gRPC: spec "Consumer impact rules" 1-6 and the tested-version correction. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { ordersApi, type OrdersApiOptions } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';

interface Impact {
  consumer_id: string;
  current_schema_version: string;
  environment: string;
  will_break: boolean;
  relevant_changes: Array<{ type: string; path: string; method: string }>;
}

describe('CanIDeploy', () => {
  let server: TestServer;
  const call = <R = any>(method: string, request: object) => server.client.call<R>(method, request);

  async function schema(schemaId: string, versions: Array<[string, OrdersApiOptions]>): Promise<void> {
    for (const [version, options] of versions) {
      const response = await call('RegisterSchema', { schema_id: schemaId, schema_version: version, schema_content: ordersApi(options) });
      assert.equal(response.success, true, response.message);
    }
  }

  async function consumer(schemaId: string, consumerId: string, schemaVersion: string, environment: string, endpoints: Array<[string, string]>): Promise<void> {
    const response = await call('RegisterConsumer', {
      consumer_id: consumerId, consumer_version: '1.0.0', schema_id: schemaId, schema_version: schemaVersion, environment,
      used_endpoints: endpoints.map(([method, path]) => ({ method, path, used_fields: [] })),
    });
    assert.equal(response.success, true, response.message);
  }

  const changeList = (changes: Impact['relevant_changes']) => changes.map((change) => `${change.type} ${change.method} ${change.path}`);
  const verdicts = (impacts: Impact[]) => impacts.map((impact) => [impact.consumer_id, impact.will_break]);

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('no consumers registered: safe, with the breaking changes listed and a note that nothing was gated', async () => {
    await schema('lonely', [['1.0.0', {}], ['2.0.0', { withoutDelete: true }]]);
    const answer = await call('CanIDeploy', { schema_id: 'lonely', new_version: '2.0.0', environment: 'prod' });
    assert.equal(answer.safe_to_deploy, true);
    assert.deepEqual(answer.affected_consumers, []);
    assert.deepEqual(changeList(answer.breaking_changes), ['ENDPOINT_REMOVED DELETE /orders/{id}']);
    assert.equal(answer.summary, 'Safe to deploy lonely 2.0.0 to prod: no consumers are registered for lonely in prod; 1 breaking change since 1.0.0 went unchecked, register consumers to gate on them.');
  });

  test('safe: the breaking changes touch no endpoint a consumer uses; every consumer is listed', async () => {
    await schema('calm', [['1.0.0', {}], ['1.1.0', { withAdditions: true, withoutDelete: true }]]);
    await consumer('calm', 'web', '1.0.0', 'prod', [['GET', '/orders'], ['GET', '/orders/{orderId}']]);
    await consumer('calm', 'crm', '1.0.0', 'prod', [['GET', '/customers/{id}']]);
    const answer = await call('CanIDeploy', { schema_id: 'calm', new_version: '1.1.0', environment: 'prod' });
    assert.equal(answer.safe_to_deploy, true);
    assert.deepEqual(verdicts(answer.affected_consumers), [['crm', false], ['web', false]]);
    assert.ok(answer.affected_consumers.every((impact: Impact) => impact.relevant_changes.length === 0 && impact.current_schema_version === '1.0.0' && impact.environment === 'prod'));
    assert.equal(answer.summary, 'Safe to deploy calm 1.1.0 to prod: 1 breaking change since 1.0.0, none on an endpoint used by the 2 consumers in prod.');
  });

  test('unsafe: one of three consumers uses a changed endpoint (its template spelled with other parameter names)', async () => {
    await schema('shop', [['1.0.0', {}], ['2.0.0', { withoutTotal: true, withAdditions: true }]]);
    await consumer('shop', 'web', '1.0.0', 'prod', [['GET', '/orders/{orderId}'], ['GET', '/customers/{id}']]);
    await consumer('shop', 'crm', '1.0.0', 'prod', [['GET', '/customers/{customerId}']]);
    await consumer('shop', 'ledger', '1.0.0', 'prod', [['DELETE', '/orders/{id}']]);
    const answer = await call('CanIDeploy', { schema_id: 'shop', new_version: '2.0.0', environment: 'prod' });
    assert.equal(answer.safe_to_deploy, false);
    assert.deepEqual(changeList(answer.breaking_changes), ['RESPONSE_SCHEMA_CHANGED GET /orders', 'RESPONSE_SCHEMA_CHANGED POST /orders', 'RESPONSE_SCHEMA_CHANGED GET /orders/{id}']);
    assert.deepEqual(verdicts(answer.affected_consumers), [['crm', false], ['ledger', false], ['web', true]]);
    const web = answer.affected_consumers.find((impact: Impact) => impact.consumer_id === 'web');
    assert.deepEqual(changeList(web.relevant_changes), ['RESPONSE_SCHEMA_CHANGED GET /orders/{id}']);
    assert.equal(answer.summary,
      'Not safe to deploy shop 2.0.0 to prod: 1 of 3 consumers would break: web 1.0.0 (tested against 1.0.0) on GET /orders/{id}. ' +
      'Keep those endpoints compatible, or update the consumers and register them against 2.0.0 before deploying.');
  });

  test('a change with an empty path (every endpoint moved) applies to every consumer', async () => {
    await schema('moved', [['1.0.0', {}], ['2.0.0', { basePath: '/v2' }]]);
    await consumer('moved', 'web', '1.0.0', 'prod', [['GET', '/orders']]);
    await consumer('moved', 'crm', '1.0.0', 'prod', [['GET', '/customers/{id}']]);
    await consumer('moved', 'quiet', '1.0.0', 'prod', []);
    const answer = await call('CanIDeploy', { schema_id: 'moved', new_version: '2.0.0', environment: 'prod' });
    assert.equal(answer.safe_to_deploy, false);
    assert.deepEqual(changeList(answer.breaking_changes), ['ENDPOINT_REMOVED  ']);
    // Rule 3 relates a change to "some endpoint in the consumer's used_endpoints": one that lists none is not touched.
    assert.deepEqual(verdicts(answer.affected_consumers), [['crm', true], ['quiet', false], ['web', true]]);
    for (const impact of (answer.affected_consumers as Impact[]).filter((one) => one.will_break)) {
      assert.deepEqual(changeList(impact.relevant_changes), ['ENDPOINT_REMOVED  ']);
    }
    assert.match(answer.summary, /^Not safe to deploy moved 2\.0\.0 to prod: 2 of 3 consumers would break: crm 1\.0\.0 \(tested against 1\.0\.0\) on every endpoint; web /);
  });

  test('environments are isolated; the environment defaults to prod', async () => {
    await schema('envs', [['1.0.0', {}], ['2.0.0', { withoutDelete: true }]]);
    await consumer('envs', 'cleanup', '1.0.0', 'staging', [['DELETE', '/orders/{id}']]);
    await consumer('envs', 'web', '1.0.0', 'prod', [['GET', '/orders']]);
    await consumer('envs', 'web', '1.0.0', 'dev', [['DELETE', '/orders/{id}']]);

    const staging = await call('CanIDeploy', { schema_id: 'envs', new_version: '2.0.0', environment: 'staging' });
    assert.equal(staging.safe_to_deploy, false);
    assert.deepEqual(verdicts(staging.affected_consumers), [['cleanup', true]]);
    const prod = await call('CanIDeploy', { schema_id: 'envs', new_version: '2.0.0', environment: 'prod' });
    assert.equal(prod.safe_to_deploy, true);
    assert.deepEqual(verdicts(prod.affected_consumers), [['web', false]]);
    const byDefault = await call('CanIDeploy', { schema_id: 'envs', new_version: '2.0.0' });
    assert.deepEqual([byDefault.safe_to_deploy, verdicts(byDefault.affected_consumers)], [true, [['web', false]]]);
    assert.match(byDefault.summary, / to prod: /);
    // An environment never created is an error, not "no consumers, safe" (docs/deploy-gate.md).
    await assert.rejects(call('CanIDeploy', { schema_id: 'envs', new_version: '2.0.0', environment: 'qa' }),
      { code: status.FAILED_PRECONDITION, details: /environment "qa" is not known; known environments: dev, staging, prod/ });
  });

  test('a consumer tested against a version older than the previous one is judged from its own version', async () => {
    // 1.0.0 → 1.1.0 removes DELETE; 1.1.0 → 1.2.0 only adds. The spec's rule 1 alone (1.1.0 → 1.2.0) finds nothing.
    await schema('drift', [['1.0.0', {}], ['1.1.0', { withoutDelete: true }], ['1.2.0', { withoutDelete: true, withAdditions: true }]]);
    await consumer('drift', 'old-admin', '1.0.0', 'prod', [['DELETE', '/orders/{id}'], ['GET', '/orders']]);
    await consumer('drift', 'old-reader', '1.0.0', 'prod', [['GET', '/orders']]);
    await consumer('drift', 'current', '1.1.0', 'prod', [['GET', '/orders/{id}']]);
    await consumer('drift', 'ahead', '1.2.0', 'prod', [['GET', '/orders/{id}/items']]);

    const answer = await call('CanIDeploy', { schema_id: 'drift', new_version: '1.2.0', environment: 'prod' });
    assert.deepEqual(answer.breaking_changes, [], 'rule 1: no breaking change from 1.1.0 to 1.2.0');
    assert.equal(answer.safe_to_deploy, false);
    assert.deepEqual(verdicts(answer.affected_consumers), [['ahead', false], ['current', false], ['old-admin', true], ['old-reader', false]]);
    const admin = answer.affected_consumers.find((impact: Impact) => impact.consumer_id === 'old-admin');
    assert.equal(admin.current_schema_version, '1.0.0');
    assert.deepEqual(changeList(admin.relevant_changes), ['ENDPOINT_REMOVED DELETE /orders/{id}']);
    assert.match(answer.summary, /^Not safe to deploy drift 1\.2\.0 to prod: 1 of 4 consumers would break: old-admin 1\.0\.0 \(tested against 1\.0\.0\) on DELETE \/orders\/\{id\}\./);
  });

  test('an empty new_version means the latest; unknown schemas, versions and bad environments are refused', async () => {
    await schema('latest', [['1.0.0', {}], ['3.0.0', { withoutDelete: true }], ['2.0.0', {}]]);
    await consumer('latest', 'admin', '2.0.0', 'prod', [['DELETE', '/orders/{id}']]);
    const latest = await call('CanIDeploy', { schema_id: 'latest', environment: 'prod' });
    assert.deepEqual([latest.safe_to_deploy, verdicts(latest.affected_consumers)], [false, [['admin', true]]]);
    assert.match(latest.summary, /latest 3\.0\.0 to prod/);

    await assert.rejects(call('CanIDeploy', { schema_id: 'missing', new_version: '1.0.0' }), (error: { code: number; details: string }) =>
      error.code === status.NOT_FOUND && error.details === 'Schema not found: missing');
    await assert.rejects(call('CanIDeploy', { schema_id: 'latest', new_version: '9.9.9' }), (error: { code: number; details: string }) =>
      error.code === status.NOT_FOUND && /^schema version not found: new_version 9\.9\.9 of latest/.test(error.details));
    await assert.rejects(call('CanIDeploy', { schema_id: 'latest', new_version: '1.0.0', environment: 'Prod!' }), (error: { code: number }) =>
      error.code === status.INVALID_ARGUMENT);
  });

  test('consumers on more distinct versions than one caller may queue comparisons for are all judged, none refused', async () => {
    // Each version has content of its own, so every consumer needs a comparison of its own.
    const versions = LIMITS.documentTaskMaxQueuedPerCaller + 4;
    for (let minor = 0; minor < versions; minor++) {
      const document = JSON.parse(ordersApi());
      document.info.description = `release ${minor}`;
      const response = await call('RegisterSchema', { schema_id: 'crowded', schema_version: `1.${minor}.0`, schema_content: JSON.stringify(document) });
      assert.equal(response.success, true, response.message);
      await consumer('crowded', `app-${minor}`, `1.${minor}.0`, 'prod', [['DELETE', '/orders/{id}']]);
    }
    await schema('crowded', [['2.0.0', { withoutDelete: true }]]);
    const answer = await call('CanIDeploy', { schema_id: 'crowded', new_version: '2.0.0', environment: 'prod' });
    assert.equal(answer.safe_to_deploy, false);
    assert.equal(answer.affected_consumers.length, versions);
    assert.ok(answer.affected_consumers.every((impact: Impact) => impact.will_break && changeList(impact.relevant_changes).includes('ENDPOINT_REMOVED DELETE /orders/{id}')));
  });
});
