/**
 * Captured interactions → consumer registration: real paths mapped to the schema's templates
 * (static segments preferred, server prefixes tolerated), used fields as dot paths with `[]`,
 * everything deduplicated and sorted; through the client, with the templates from ListEndpoints.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidatorError, buildConsumerRegistration, createEndpointMatcher, type CapturedInteraction } from '@svc/client';
import { USERS_SCHEMA_ID, startUsersApiServer, type UsersApiServer } from '../helpers/client-fixtures';

const get = (path: string, body?: unknown, statusCode = 200): CapturedInteraction => ({
  request: { method: 'GET', path },
  response: { statusCode, body },
});

describe('path templates', () => {
  const match = createEndpointMatcher([
    { method: 'GET', path: '/users/{id}' },
    { method: 'GET', path: '/users/me' },
    { method: 'GET', path: '/users/{id}/posts' },
    { method: 'GET', path: '/{tenant}/settings' },
    { method: 'GET', path: '/files/{name}.{extension}' },
    { method: 'DELETE', path: '/users/{id}' },
    { method: 'GET', path: '/' },
  ]);
  const templateOf = (method: string, path: string) => match(method, path)?.path;

  test('a real path maps to its template; method matters', () => {
    assert.equal(templateOf('GET', '/users/123'), '/users/{id}');
    assert.equal(templateOf('get', '/users/123/posts'), '/users/{id}/posts');
    assert.equal(templateOf('DELETE', '/users/123'), '/users/{id}');
    assert.equal(templateOf('POST', '/users/123'), undefined);
    assert.equal(templateOf('GET', '/'), '/');
  });

  test('static segments win over parameters, earliest segment first', () => {
    assert.equal(templateOf('GET', '/users/me'), '/users/me');
    // `/users/settings` could be /{tenant}/settings or /users/{id}: the first segment decides.
    assert.equal(templateOf('GET', '/users/settings'), '/users/{id}');
    assert.equal(templateOf('GET', '/acme/settings'), '/{tenant}/settings');
  });

  test('segments mixing text and parameters; query strings, fragments and trailing slashes ignored', () => {
    assert.equal(templateOf('GET', '/files/report.pdf'), '/files/{name}.{extension}');
    assert.equal(templateOf('GET', '/files/report'), undefined);
    assert.equal(templateOf('GET', '/users/7?expand=posts#top'), '/users/{id}');
    assert.equal(templateOf('GET', '/users/7/'), '/users/{id}');
  });

  test('a server URL prefix in the real path is dropped when nothing matches with it', () => {
    assert.equal(templateOf('GET', '/api/v1/users/7/posts'), '/users/{id}/posts');
    assert.equal(templateOf('GET', '/v1/users/me'), '/users/me');
  });

  test('empty parameter values do not match', () => {
    assert.equal(templateOf('GET', '/users//posts'), undefined);
  });
});

describe('buildConsumerRegistration', () => {
  const endpoints = [
    { method: 'GET', path: '/users' },
    { method: 'GET', path: '/users/{id}' },
    { method: 'GET', path: '/users/me' },
    { method: 'POST', path: '/users' },
  ];
  const config = { consumerId: 'web', consumerVersion: '3.1.0', schemaId: 'users-api', schemaVersion: '1.0.0' };

  test('used fields: every key at every level, [] for array items, from objects and JSON text', () => {
    const { registration, unmatched } = buildConsumerRegistration([
      get('/users/1', { id: 1, name: 'Ada', address: { city: 'London', geo: { lat: 1 } } }),
      get('/users/2', '{"id":2,"email":"b@example.com","tags":["x"],"roles":[{"name":"admin"}]}'),
      get('/users', [{ id: 1, name: 'Ada' }, { id: 2, nickname: 'bob' }]),
      get('/users/me', { id: 3 }),
      { request: { method: 'POST', path: '/users', body: { name: 'C' } }, response: { statusCode: 201, body: Buffer.from('{"id":9}') } },
      get('/nowhere', { ignored: true }),
    ], endpoints, config);

    assert.deepEqual(registration, {
      consumerId: 'web',
      consumerVersion: '3.1.0',
      schemaId: 'users-api',
      schemaVersion: '1.0.0',
      environment: 'dev',
      usedEndpoints: [
        { method: 'GET', path: '/users', usedFields: ['[].id', '[].name', '[].nickname'] },
        { method: 'POST', path: '/users', usedFields: ['id'] },
        { method: 'GET', path: '/users/me', usedFields: ['id'] },
        {
          method: 'GET',
          path: '/users/{id}',
          usedFields: ['address', 'address.city', 'address.geo', 'address.geo.lat', 'email', 'id', 'name', 'roles', 'roles[].name', 'tags'],
        },
      ],
    });
    assert.deepEqual(unmatched.map((i) => i.request.path), ['/nowhere']);
  });

  test('bodies without JSON fields add the endpoint with no fields; the same traffic gives the same result', () => {
    const traffic = [get('/users/1'), get('/users/2', 'not json'), get('/users/3', 42)];
    const first = buildConsumerRegistration(traffic, endpoints, { ...config, environment: 'staging' });
    const again = buildConsumerRegistration([...traffic].reverse(), endpoints, { ...config, environment: 'staging' });
    assert.deepEqual(first.registration.usedEndpoints, [{ method: 'GET', path: '/users/{id}', usedFields: [] }]);
    assert.equal(first.registration.environment, 'staging');
    assert.deepEqual(again, first);
  });

  test('configuration mistakes name the field', () => {
    assert.throws(() => buildConsumerRegistration([], endpoints, { ...config, consumerId: '' }), /config\.consumerId/);
    assert.throws(() => buildConsumerRegistration([], endpoints, { ...config, consumerVersion: undefined as never }), /config\.consumerVersion/);
  });
});

describe('through the client (ListEndpoints)', () => {
  let api: UsersApiServer;
  before(async () => {
    api = await startUsersApiServer();
  });
  after(() => api.close());

  test('buildConsumerFromInteractions uses the bound schema and version and its templates', async () => {
    const registration = await api.validator.buildConsumerFromInteractions([
      get('/users/42', { id: 42, name: 'Ada' }),
      get('/users/me', { id: 1, name: 'Me' }),
      get('/users/42/posts?page=2', { items: [{ id: 1, title: 't', tags: ['a'] }] }),
    ], { consumerId: 'mobile', consumerVersion: '1.2.3', environment: 'prod' });
    assert.deepEqual(registration, {
      consumerId: 'mobile',
      consumerVersion: '1.2.3',
      schemaId: USERS_SCHEMA_ID,
      schemaVersion: '1.0.0',
      environment: 'prod',
      usedEndpoints: [
        { method: 'GET', path: '/users/me', usedFields: ['id', 'name'] },
        { method: 'GET', path: '/users/{id}', usedFields: ['id', 'name'] },
        { method: 'GET', path: '/users/{id}/posts', usedFields: ['items', 'items[].id', 'items[].tags', 'items[].title'] },
      ],
    });
  });

  test('an unknown schema fails with NOT_FOUND', async () => {
    await assert.rejects(
      api.validator.buildConsumerFromInteractions([], { consumerId: 'c', consumerVersion: '1', schemaId: 'never-registered' }),
      (error: ContractValidatorError) => error.code === 'NOT_FOUND',
    );
  });
});
