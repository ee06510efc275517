/** RegisterConsumer, ListConsumers and DeregisterConsumer over gRPC: defaults, updates, and every refusal. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { ordersApi } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';

describe('consumer registry', () => {
  let server: TestServer;
  const call = <R = any>(method: string, request: object) => server.client.call<R>(method, request);
  const registerConsumer = (request: object) => call('RegisterConsumer', { consumer_version: '1.0.0', schema_id: 'orders', ...request });

  before(async () => {
    server = await startTestServer();
    for (const [version, content] of [['1.0.0', ordersApi()], ['2.0.0', ordersApi({ withoutDelete: true })]] as const) {
      const response = await call('RegisterSchema', { schema_id: 'orders', schema_version: version, schema_content: content });
      assert.equal(response.success, true, response.message);
    }
  });
  after(() => server.close());

  test('registers in dev against the latest version by default; endpoints are stored under the schema template', async () => {
    const response = await registerConsumer({
      consumer_id: 'web',
      used_endpoints: [{ method: 'get', path: '/orders/{orderId}', used_fields: ['status', 'total'] }, { method: 'POST', path: '/orders' }],
    });
    assert.equal(response.success, true, response.message);
    assert.equal(response.message, 'Consumer web registered for orders version 2.0.0 in dev (2 endpoints)');
    const consumer = response.consumer;
    assert.deepEqual([consumer.consumer_id, consumer.schema_id, consumer.schema_version, consumer.environment], ['web', 'orders', '2.0.0', 'dev']);
    assert.deepEqual(consumer.used_endpoints, [
      { method: 'GET', path: '/orders/{id}', used_fields: ['status', 'total'] },
      { method: 'POST', path: '/orders', used_fields: [] },
    ]);
    assert.ok(consumer.registered_at > 0 && consumer.last_validated_at >= consumer.registered_at);
  });

  test('registering again updates version, endpoints and last_validated_at and keeps registered_at', async () => {
    const first = await registerConsumer({ consumer_id: 'mobile', schema_version: '1.0.0', environment: 'staging', used_endpoints: [{ method: 'GET', path: '/orders' }] });
    assert.equal(first.success, true, first.message);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // timestamps are whole seconds
    const second = await registerConsumer({
      consumer_id: 'mobile', consumer_version: '1.1.0', schema_version: '2.0.0', environment: 'staging',
      used_endpoints: [{ method: 'GET', path: '/customers/{customerId}', used_fields: ['name'] }, { method: 'GET', path: '/customers/{id}', used_fields: ['id', 'name'] }],
    });
    assert.equal(second.success, true, second.message);
    assert.match(second.message, /^Consumer mobile updated for orders version 2\.0\.0 in staging \(1 endpoint\)$/);
    assert.equal(second.consumer.registered_at, first.consumer.registered_at);
    assert.ok(second.consumer.last_validated_at > first.consumer.last_validated_at);
    assert.equal(second.consumer.consumer_version, '1.1.0');
    assert.deepEqual(second.consumer.used_endpoints, [{ method: 'GET', path: '/customers/{id}', used_fields: ['name', 'id'] }], 'the same endpoint twice is kept once');
    const listed = await call('ListConsumers', { schema_id: 'orders', environment: 'staging' });
    assert.deepEqual(listed.consumers.map((consumer: { consumer_id: string; schema_version: string }) => [consumer.consumer_id, consumer.schema_version]), [['mobile', '2.0.0']]);
  });

  test('one consumer holds one registration per environment; ListConsumers filters by environment', async () => {
    assert.equal((await call('CreateEnvironment', { name: 'qa-2' })).success, true, 'environments other than dev, staging and prod are created first');
    for (const environment of ['prod', 'qa-2']) {
      const response = await registerConsumer({ consumer_id: 'batch', environment, used_endpoints: [{ method: 'GET', path: '/orders' }] });
      assert.equal(response.success, true, response.message);
    }
    const all = await call('ListConsumers', { schema_id: 'orders' });
    assert.deepEqual(all.consumers.map((consumer: { consumer_id: string; environment: string }) => `${consumer.consumer_id}/${consumer.environment}`).sort(),
      ['batch/prod', 'batch/qa-2', 'mobile/staging', 'web/dev']);
    const prod = await call('ListConsumers', { schema_id: 'orders', environment: 'prod' });
    assert.deepEqual(prod.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['batch']);
    assert.deepEqual((await call('ListConsumers', { schema_id: 'orders', environment: 'nowhere' })).consumers, []);
  });

  test('an endpoint the schema version does not have is refused, naming every unknown endpoint', async () => {
    const response = await registerConsumer({
      consumer_id: 'legacy', schema_version: '2.0.0',
      used_endpoints: [{ method: 'DELETE', path: '/orders/{id}' }, { method: 'GET', path: '/orders' }, { method: 'PATCH', path: '/invoices/{id}' }],
    });
    assert.equal(response.success, false);
    assert.equal(response.message, 'used_endpoints: 2 endpoints are not in schema orders version 2.0.0: DELETE /orders/{id}, PATCH /invoices/{id}');
    assert.equal(response.consumer, null);
    const accepted = await registerConsumer({ consumer_id: 'legacy', schema_version: '1.0.0', used_endpoints: [{ method: 'DELETE', path: '/orders/{id}' }] });
    assert.equal(accepted.success, true, 'the version that has it accepts it');
  });

  test('unknown schemas and versions, bad ids, environments, methods and paths are refused with a clear message', async () => {
    const refusals: Array<[object, RegExp]> = [
      [{ consumer_id: 'x', schema_id: 'nope' }, /^Schema not found: nope$/],
      [{ consumer_id: 'x', schema_version: '7.0.0' }, /^schema version not found: orders has no version 7\.0\.0 \(registered: 1\.0\.0, 2\.0\.0\)$/],
      [{ consumer_id: '' }, /^consumer_id is required$/],
      [{ consumer_id: 'bad id' }, /^consumer_id "bad id" is not valid/],
      [{ consumer_id: 'x', environment: 'Prod' }, /^environment "Prod" is not valid: use 1 to 63 lowercase letters, digits and '-'/],
      [{ consumer_id: 'x', environment: 'e'.repeat(64) }, /^environment "e+…?" is not valid/],
      [{ consumer_id: 'x', used_endpoints: [{ method: 'FETCH', path: '/orders' }] }, /^used_endpoints\[0\]\.method "FETCH" is not an HTTP method/],
      [{ consumer_id: 'x', used_endpoints: [{ method: 'GET', path: 'orders' }] }, /^used_endpoints\[0\]\.path must be an API path template starting with '\/'/],
      [{ consumer_id: 'x', consumer_version: 'v'.repeat(300) }, /consumer_version is 300 characters, over the limit of 256 \(maxMetadataLength\)/],
    ];
    for (const [request, message] of refusals) {
      const response = await registerConsumer(request);
      assert.equal(response.success, false, JSON.stringify(request));
      assert.match(response.message, message);
    }
    const listed = await call('ListConsumers', { schema_id: 'orders' });
    assert.ok(!listed.consumers.some((consumer: { consumer_id: string }) => consumer.consumer_id === 'x'), 'nothing refused was stored');
  });

  test('ListConsumers needs a registered schema id and a valid environment', async () => {
    await assert.rejects(call('ListConsumers', { schema_id: '' }), (error: { code: number; details: string }) =>
      error.code === status.INVALID_ARGUMENT && error.details === 'schema_id is required');
    await assert.rejects(call('ListConsumers', { schema_id: 'nope' }), (error: { code: number; details: string }) =>
      error.code === status.NOT_FOUND && error.details === 'Schema not found: nope');
    await assert.rejects(call('ListConsumers', { schema_id: 'orders', environment: 'PROD' }), (error: { code: number }) => error.code === status.INVALID_ARGUMENT);
  });

  test('DeregisterConsumer removes one registration (dev by default) and answers "consumer not found" when absent', async () => {
    const registered = await registerConsumer({ consumer_id: 'temp', used_endpoints: [] });
    assert.equal(registered.success, true, registered.message);
    const removed = await call('DeregisterConsumer', { consumer_id: 'temp', schema_id: 'orders' });
    assert.deepEqual([removed.success, removed.message], [true, 'Consumer temp deregistered from orders in dev']);
    const again = await call('DeregisterConsumer', { consumer_id: 'temp', schema_id: 'orders' });
    assert.deepEqual([again.success, again.message], [false, 'consumer not found']);
    const otherEnvironment = await call('DeregisterConsumer', { consumer_id: 'batch', schema_id: 'orders', environment: 'staging' });
    assert.deepEqual([otherEnvironment.success, otherEnvironment.message], [false, 'consumer not found']);
    const stillThere = await call('ListConsumers', { schema_id: 'orders', environment: 'prod' });
    assert.deepEqual(stillThere.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['batch']);
    const invalid = await call('DeregisterConsumer', { consumer_id: 'batch', schema_id: 'orders', environment: 'PROD' });
    assert.equal(invalid.success, false);
    assert.match(invalid.message, /environment "PROD" is not valid/);
  });
});
