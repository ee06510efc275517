import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

let server: TestServer;

before(async () => {
  server = await startTestServer();
  await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8') });
});

after(async () => {
  await server.close();
});

test('register-consumer (child process): registers the endpoints and fields of the compact syntax', async () => {
  const { code, stdout, stderr } = await runSvc([
    'register-consumer', '--server', server.address,
    '--consumer', 'web-app', '--version', '3.4.1', '--schema', 'users', '--schema-version', '1.0.0', '--env', 'prod',
    '--endpoints', 'GET /users/{id}:id,email; post /users',
  ]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  assert.equal(stdout, 'Registered consumer web-app 3.4.1 of users 1.0.0 in prod (2 endpoints)\n');

  const { consumers } = await server.client.call('ListConsumers', { schema_id: 'users', environment: 'prod' });
  assert.equal(consumers.length, 1);
  assert.equal(consumers[0].consumer_version, '3.4.1');
  const endpoints = consumers[0].used_endpoints.map((usage: { method: string; path: string; used_fields: string[] }) =>
    ({ method: usage.method, path: usage.path, used_fields: usage.used_fields }));
  assert.deepEqual(
    endpoints.sort((a: { method: string }, b: { method: string }) => a.method.localeCompare(b.method)),
    [{ method: 'GET', path: '/users/{id}', used_fields: ['id', 'email'] }, { method: 'POST', path: '/users', used_fields: [] }],
  );
});

test('register-consumer: --env defaults to dev; repeated --endpoints add up; --json prints the registration', async () => {
  const { code, stdout, stderr } = await runSvcInProcess([
    'register-consumer', '-S', server.address, '--consumer', 'batch', '--version', '1.0.0', '--schema', 'users',
    '--endpoints', 'GET /status', '--endpoints', 'DELETE /users/{id}', '--json',
  ]);
  assert.equal(code, 0, stderr);
  const response = JSON.parse(stdout);
  assert.equal(response.success, true);
  assert.equal(response.consumer.environment, 'dev');
  assert.equal(response.consumer.used_endpoints.length, 2);
});

test('register-consumer: the server refuses an endpoint the schema does not have (exit 1, one line)', async () => {
  const { code, stdout, stderr } = await runSvcInProcess([
    'register-consumer', '-S', server.address, '--consumer', 'web-app', '--version', '1', '--schema', 'users', '--endpoints', 'GET /nowhere',
  ]);
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(lines(stderr).length, 1);
  assert.match(stderr, /^svc register-consumer: .*\/nowhere/);
});

test('register-consumer: malformed --endpoints and missing options are usage errors (exit 2, one line)', async () => {
  const base = ['register-consumer', '-S', server.address, '--consumer', 'c', '--version', '1', '--schema', 'users'];
  const cases: Array<[string, RegExp]> = [
    ['FETCH /users', /entry 1 \("FETCH \/users"\): unknown HTTP method "FETCH"/],
    ['GET /users;GET', /entry 2 \("GET"\): expected "<METHOD> <path>/],
    ['GET users', /the path must be a template starting with "\/"/],
    ['GET /users:id,,email', /empty field name/],
    [' ; ', /--endpoints lists no endpoint/],
  ];
  for (const [endpoints, message] of cases) {
    const result = await runSvcInProcess([...base, '--endpoints', endpoints]);
    assert.equal(result.code, 2, endpoints);
    assert.equal(lines(result.stderr).length, 1);
    assert.match(result.stderr, message);
  }
  const missing = await runSvc(['register-consumer', '--consumer', 'c', '--version', '1', '--schema', 'users']);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, 'svc register-consumer: missing required option --endpoints (see "svc register-consumer --help")\n');
});
