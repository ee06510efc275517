/** CompareSchemas defaults and answers, RegisterSchema's compatibility check, and the change counter. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { ordersApi } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';

describe('CompareSchemas', () => {
  let server: TestServer;
  const register = async (version: string, content: string, extra: object = {}) => {
    const response = await server.client.call('RegisterSchema', { schema_id: 'orders', schema_version: version, schema_content: content, ...extra });
    assert.equal(response.success, true, response.message);
    return response;
  };

  before(async () => {
    server = await startTestServer();
    // Registered out of order: "previous" and "latest" follow semantic versions, not registration.
    await register('10.0.0', ordersApi({ withoutDelete: true, withoutTotal: true }));
    await register('1.0.0', ordersApi());
    await register('9.0.0', ordersApi({ withoutDelete: true }));
    await register('1.1.0', ordersApi({ withAdditions: true }));
  });
  after(() => server.close());

  test('empty versions compare the version before the latest with the latest', async () => {
    const answer = await server.client.call('CompareSchemas', { schema_id: 'orders' });
    assert.equal(answer.old_schema.schema_version, '9.0.0');
    assert.equal(answer.new_schema.schema_version, '10.0.0');
    assert.equal(answer.compatible, false);
    assert.deepEqual(answer.breaking_changes.map((change: { type: string; method: string; path: string }) => `${change.type} ${change.method} ${change.path}`), [
      'RESPONSE_SCHEMA_CHANGED GET /orders',
      'RESPONSE_SCHEMA_CHANGED POST /orders',
      'RESPONSE_SCHEMA_CHANGED GET /orders/{id}',
    ]);
    assert.match(answer.breaking_changes[2].description, /field "total" was removed \(at #\/components\/schemas\/Order\/properties\/total\)/);
    assert.equal(answer.breaking_changes[2].old_value, 'number');
    assert.equal(answer.breaking_changes[2].new_value, 'absent');
  });

  test('an empty old version means the version just before the given new one', async () => {
    const answer = await server.client.call('CompareSchemas', { schema_id: 'orders', new_version: '9.0.0' });
    assert.equal(answer.old_schema.schema_version, '1.1.0');
    // 1.1.0 added `note` and GET /orders/{id}/items, which 9.0.0 does not have; 9.0.0 also drops DELETE.
    assert.deepEqual(answer.breaking_changes.map((change: { type: string; method: string; path: string }) => `${change.type} ${change.method} ${change.path}`), [
      'RESPONSE_SCHEMA_CHANGED GET /orders',
      'RESPONSE_SCHEMA_CHANGED POST /orders',
      'RESPONSE_SCHEMA_CHANGED GET /orders/{id}',
      'ENDPOINT_REMOVED DELETE /orders/{id}',
      'ENDPOINT_REMOVED GET /orders/{id}/items',
    ]);
  });

  test('explicit versions, in either direction; non-breaking additions are compatible', async () => {
    const additions = await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '1.0.0', new_version: '1.1.0' });
    assert.deepEqual([additions.compatible, additions.breaking_changes.length, additions.message], [true, 0, '']);
    const backwards = await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '10.0.0', new_version: '1.0.0' });
    assert.equal(backwards.compatible, true, 'going back adds things: nothing breaks');
    const skipping = await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '1.0.0', new_version: '10.0.0' });
    assert.equal(skipping.breaking_changes.length, 4);
  });

  test('an unknown schema or version is answered in the message', async () => {
    const unknownSchema = await server.client.call('CompareSchemas', { schema_id: 'nope' });
    assert.deepEqual([unknownSchema.compatible, unknownSchema.message], [false, 'Schema not found: nope']);
    const unknownNew = await server.client.call('CompareSchemas', { schema_id: 'orders', new_version: '3.0.0' });
    assert.equal(unknownNew.compatible, false);
    assert.match(unknownNew.message, /^schema version not found: new_version 3\.0\.0 of orders \(registered: 1\.0\.0, 1\.1\.0, 9\.0\.0, 10\.0\.0\)$/);
    const unknownOld = await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '0.1.0' });
    assert.match(unknownOld.message, /^schema version not found: old_version 0\.1\.0 of orders/);
    assert.equal(unknownOld.new_schema, null);
  });

  test('the first version has nothing to compare with', async () => {
    const answer = await server.client.call('CompareSchemas', { schema_id: 'orders', new_version: '1.0.0' });
    assert.equal(answer.compatible, true);
    assert.equal(answer.new_schema.schema_version, '1.0.0');
    assert.match(answer.message, /first version/);
  });

  test('RegisterSchema with check_compatibility registers and reports the changes since the previous version', async () => {
    const before = await scrapeMetrics(server.server.metricsPort!);
    const response = await register('11.0.0', ordersApi({ withoutDelete: true, withoutTotal: true, basePath: '/v2' }), { check_compatibility: true });
    assert.equal(response.metadata.schema_version, '11.0.0');
    assert.equal(response.message, 'Schema orders version 11.0.0 registered; 1 breaking change(s) found since 10.0.0');
    assert.deepEqual(response.breaking_changes.map((change: { type: string; path: string; method: string }) => [change.type, change.path, change.method]), [['ENDPOINT_REMOVED', '', '']]);
    const afterScrape = await scrapeMetrics(server.server.metricsPort!);
    const detected = (scrape: typeof before) => scrape.value('svc_breaking_changes_detected_total', { change_type: 'ENDPOINT_REMOVED' });
    assert.equal(detected(afterScrape) - detected(before), 1);
    assert.equal(afterScrape.value('svc_schema_versions_total', { schema_id: 'orders' }), 5);

    const unchecked = await register('12.0.0', ordersApi());
    assert.deepEqual([unchecked.breaking_changes, unchecked.message], [[], 'Schema orders version 12.0.0 registered']);
  });

  test('CompareSchemas counts the changes it finds by type, once per comparison computed', async () => {
    // 1.0.0 → 9.0.0 has not been compared by the tests above: it is computed here.
    const changed = (scrape: Awaited<ReturnType<typeof scrapeMetrics>>) =>
      scrape.value('svc_breaking_changes_detected_total', { change_type: 'ENDPOINT_REMOVED' });
    const before = await scrapeMetrics(server.server.metricsPort!);
    const first = await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '1.0.0', new_version: '9.0.0' });
    const removed = first.breaking_changes.filter((c: { type: string }) => c.type === 'ENDPOINT_REMOVED').length;
    assert.ok(removed > 0);
    const afterFirst = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(changed(afterFirst) - changed(before), removed);
    // The same comparison again is answered from the cache and detects nothing new.
    await server.client.call('CompareSchemas', { schema_id: 'orders', old_version: '1.0.0', new_version: '9.0.0' });
    const afterRepeat = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(changed(afterRepeat), changed(afterFirst));
  });
});
