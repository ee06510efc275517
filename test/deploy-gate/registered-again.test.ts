/**
 * A version registered again with other content (allowed unless --immutable-versions) is not what a
 * consumer was tested against, nor what was deployed, before it. The gate compared versions by name:
 * shop 1.0.0 deployed and tested by a consumer that deletes orders, then 1.0.0 registered again
 * without DELETE, and CanIDeploy 1.0.0 answered "Safe to deploy: no breaking changes since 1.0.0
 * (deployed in prod); 1 consumer checked". Now such a consumer cannot be judged (FAILED_PRECONDITION,
 * naming it) until it registers again, and the deployed version is no longer the baseline.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server';

function shop(withDelete: boolean): string {
  const item = {
    get: { responses: { 200: { description: 'ok' } } },
    ...(withDelete ? { delete: { responses: { 204: { description: 'gone' } } } } : {}),
  };
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'shop', version: '1.0.0' }, paths: { '/orders/{id}': item } });
}

let server: TestServer;
before(async () => {
  server = await startTestServer();
  const call = server.client.call;
  assert.equal((await call('RegisterSchema', { schema_id: 'shop', schema_content: shop(true), schema_version: '1.0.0' })).success, true);
  const registered = await call('RegisterConsumer', {
    consumer_id: 'web', consumer_version: '1', schema_id: 'shop', schema_version: '1.0.0', environment: 'prod',
    used_endpoints: [{ method: 'DELETE', path: '/orders/{id}', used_fields: [] }],
  });
  assert.equal(registered.success, true, registered.message);
  assert.equal((await call('RecordDeployment', { schema_id: 'shop', environment: 'prod', version: '1.0.0' })).success, true);
  // Times are whole seconds: the registration again comes in a later one.
  await sleep(1_100);
  const again = await call('RegisterSchema', { schema_id: 'shop', schema_content: shop(false), schema_version: '1.0.0' });
  assert.match(again.message, /updated/);
});
after(() => server.close());

test('a consumer tested against a version registered again since cannot be judged, and is named', async () => {
  await assert.rejects(
    server.client.call('CanIDeploy', { schema_id: 'shop', new_version: '1.0.0', environment: 'prod' }),
    { code: 9, details: /^consumer web was tested against shop 1\.0\.0, which was registered again since \(.*\): it cannot be checked/ },
  );
});

test('once the consumer registers again, the gate answers, not against the deployment made before the new content', async () => {
  const registered = await server.client.call('RegisterConsumer', {
    consumer_id: 'web', consumer_version: '2', schema_id: 'shop', schema_version: '1.0.0', environment: 'prod',
    used_endpoints: [{ method: 'GET', path: '/orders/{id}', used_fields: [] }],
  });
  assert.equal(registered.success, true, registered.message);
  const answer = await server.client.call('CanIDeploy', { schema_id: 'shop', new_version: '1.0.0', environment: 'prod' });
  assert.equal(answer.safe_to_deploy, true, answer.summary);
  assert.notEqual(answer.compared_with, 'deployed', 'what was deployed is gone');
});
