/**
 * The client's breaking-change, fixture and consumer-registry methods against a real server:
 * compareSchemas, registerSchema with checkCompatibility, generateFixture / generateResponse /
 * generateRequestBody, registerConsumer, listConsumers, deregisterConsumer, canIDeploy and
 * registerConsumerFromInteractions, all with camelCase results.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import { USERS_V1_YAML, USERS_V2_YAML } from '../helpers/client-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let client: ContractValidator;
const SCHEMA = 'registry-api';

before(async () => {
  server = await startTestServer();
  client = new ContractValidator(server.address);
  await client.registerSchemaWithVersion(SCHEMA, USERS_V1_YAML, '1.0.0');
});

after(async () => {
  client.close();
  await server.close();
});

const postsRemoved = { type: 'ENDPOINT_REMOVED', path: '/users/{id}/posts', method: 'GET' };

describe('breaking changes', () => {
  test('registerSchema with checkCompatibility reports the changes and registers anyway', async () => {
    const registration = await client.registerSchemaWithVersion(SCHEMA, USERS_V2_YAML, '2.0.0', { checkCompatibility: true });
    assert.equal(registration.metadata.schemaVersion, '2.0.0');
    assert.ok(
      registration.breakingChanges.some((c) => c.type === postsRemoved.type && c.path === postsRemoved.path && c.method === postsRemoved.method),
      JSON.stringify(registration.breakingChanges),
    );
  });

  test('compareSchemas: explicit versions, and previous → latest by default', async () => {
    const explicit = await client.compareSchemas(SCHEMA, '1.0.0', '2.0.0');
    assert.equal(explicit.compatible, false);
    assert.equal(explicit.oldSchema?.schemaVersion, '1.0.0');
    assert.equal(explicit.newSchema?.schemaVersion, '2.0.0');
    const removed = explicit.breakingChanges.find((c) => c.type === 'ENDPOINT_REMOVED');
    assert.ok(removed);
    assert.equal(removed.path, postsRemoved.path);
    assert.equal(removed.method, postsRemoved.method);
    assert.equal(typeof removed.description, 'string');
    assert.equal(typeof removed.oldValue, 'string');
    assert.deepEqual(await client.compareSchemas(SCHEMA), explicit);
    const same = await client.compareSchemas(SCHEMA, '2.0.0', '2.0.0');
    assert.equal(same.compatible, true);
    assert.deepEqual(same.breakingChanges, []);
  });

  test('comparing an unknown schema fails naming it', async () => {
    await assert.rejects(client.compareSchemas('no-such-schema'), (error: ContractValidatorError) => {
      assert.ok(['REJECTED', 'NOT_FOUND'].includes(error.code), error.code);
      assert.match(error.details, /Schema not found: no-such-schema/);
      return true;
    });
  });
});

describe('fixtures', () => {
  test('generateFixture: a pair the service itself accepts', async () => {
    const fixture = await client.generateFixture('get', '/users/{id}', { schemaVersion: '1.0.0' });
    assert.equal(fixture.request.method, 'GET');
    assert.match(fixture.request.path, /^\/users\/[^/{}]+$/);
    assert.equal(fixture.response.statusCode, 200);
    const body = fixture.response.body as { id: unknown; name: unknown };
    assert.equal(typeof body.id, 'number');
    assert.equal(typeof body.name, 'string');
    assert.equal(fixture.response.rawBody, JSON.stringify(JSON.parse(fixture.response.rawBody)));
    const result = await client.validate(fixture.request, fixture.response, { schemaVersion: '1.0.0' });
    assert.deepEqual(result.errors, []);
  });

  test('generateResponse for a chosen status, generateRequestBody parsed', async () => {
    const notFound = await client.generateResponse('GET', '/users/{id}', { statusCode: 404 });
    assert.equal(notFound.statusCode, 404);
    assert.equal(typeof (notFound.body as { message: unknown }).message, 'string');
    const body = await client.generateRequestBody('POST', '/users');
    assert.equal(typeof (body as { name: unknown }).name, 'string');
    assert.equal(await client.generateRequestBody('GET', '/users'), undefined);
  });

  test('a path the schema does not have is REJECTED with the service message', async () => {
    await assert.rejects(client.generateFixture('GET', '/nope'), (error: ContractValidatorError) => {
      assert.equal(error.code, 'REJECTED');
      assert.match(error.details, /\/nope/);
      return true;
    });
  });
});

describe('consumer registry and can-i-deploy', () => {
  const usesPosts = {
    consumerId: 'feed-web',
    consumerVersion: '5.0.0',
    schemaId: SCHEMA,
    schemaVersion: '1.0.0',
    environment: 'prod',
    usedEndpoints: [{ method: 'GET', path: '/users/{id}/posts', usedFields: ['items[].title'] }],
  };
  const usesUsers = { ...usesPosts, consumerId: 'profile-web', usedEndpoints: [{ method: 'get', path: '/users/{id}', usedFields: ['name'] }] };

  test('registerConsumer returns the registration in camelCase; listConsumers filters by environment', async () => {
    const info = await client.registerConsumer(usesPosts);
    assert.equal(info.consumerId, 'feed-web');
    assert.equal(info.consumerVersion, '5.0.0');
    assert.equal(info.schemaId, SCHEMA);
    assert.equal(info.schemaVersion, '1.0.0');
    assert.equal(info.environment, 'prod');
    assert.ok(info.registeredAt > 1_600_000_000);
    assert.deepEqual(info.usedEndpoints, usesPosts.usedEndpoints);
    await client.registerConsumer(usesUsers);
    await client.registerConsumer({ ...usesUsers, consumerId: 'staging-only', environment: 'staging' });

    const prod = await client.listConsumers(SCHEMA, 'prod');
    assert.deepEqual(prod.map((c) => c.consumerId).sort(), ['feed-web', 'profile-web']);
    assert.deepEqual(prod.find((c) => c.consumerId === 'profile-web')?.usedEndpoints, [{ method: 'GET', path: '/users/{id}', usedFields: ['name'] }]);
    const all = await client.listConsumers(SCHEMA);
    assert.deepEqual(all.map((c) => c.consumerId).sort(), ['feed-web', 'profile-web', 'staging-only']);
  });

  test('canIDeploy names the consumer that breaks and the one that does not', async () => {
    const verdict = await client.canIDeploy(SCHEMA, '2.0.0', 'prod');
    assert.equal(verdict.safeToDeploy, false);
    assert.ok(verdict.breakingChanges.some((c) => c.type === 'ENDPOINT_REMOVED'));
    assert.ok(verdict.summary.length > 0);
    const byId = new Map(verdict.affectedConsumers.map((c) => [c.consumerId, c]));
    assert.equal(byId.get('feed-web')?.willBreak, true);
    assert.equal(byId.get('feed-web')?.currentSchemaVersion, '1.0.0');
    assert.ok(byId.get('feed-web')?.relevantChanges.some((c) => c.path === '/users/{id}/posts'));
    assert.equal(byId.get('profile-web')?.willBreak, false);
    assert.deepEqual(byId.get('profile-web')?.relevantChanges, []);

    const empty = await client.canIDeploy(SCHEMA, '2.0.0', 'dev');
    assert.equal(empty.safeToDeploy, true);
    assert.deepEqual(empty.affectedConsumers, []);
  });

  test('deregisterConsumer removes one registration; an unknown one is REJECTED', async () => {
    await client.deregisterConsumer('staging-only', SCHEMA, 'staging');
    assert.deepEqual((await client.listConsumers(SCHEMA, 'staging')).map((c) => c.consumerId), []);
    await assert.rejects(client.deregisterConsumer('staging-only', SCHEMA, 'staging'), (error: ContractValidatorError) => {
      assert.equal(error.code, 'REJECTED');
      assert.match(error.details, /consumer not found/);
      return true;
    });
  });

  test('registerConsumerFromInteractions registers the templated endpoints and fields', async () => {
    const consumer = new ContractValidator({ address: server.address, schemaId: SCHEMA, schemaVersion: '1.0.0' });
    try {
      const info = await consumer.registerConsumerFromInteractions([
        { request: { method: 'GET', path: '/users/7' }, response: { statusCode: 200, body: { id: 7, name: 'Ada' } } },
        { request: { method: 'GET', path: '/users/8' }, response: { statusCode: 200, body: { id: 8, email: 'e@example.com' } } },
      ], { consumerId: 'auto-web', consumerVersion: '0.1.0', environment: 'staging' });
      assert.equal(info.schemaVersion, '1.0.0');
      assert.deepEqual(info.usedEndpoints, [{ method: 'GET', path: '/users/{id}', usedFields: ['email', 'id', 'name'] }]);
      const listed = await consumer.listConsumers(SCHEMA, 'staging');
      assert.deepEqual(listed.map((c) => c.consumerId), ['auto-web']);
    } finally {
      consumer.close();
    }
  });
});
