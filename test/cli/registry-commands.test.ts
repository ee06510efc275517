/**
 * The registry from the shell: schemas list/get, endpoints, consumers list/deregister, compare --schema,
 * validate --schema-id, register-schema ownership inheritance, against a real server on 127.0.0.1.
 * One child process per command (what pipelines run); the option matrix in process.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

let server: TestServer;
let at: string[];

before(async () => {
  server = await startTestServer();
  at = ['--server', server.address];
  const v1 = await runSvcInProcess(['register-schema', 'users', cliFixture('users-v1.yaml'), '--owner', 'alice', '--team', 'identity', ...at]);
  assert.equal(v1.code, 0, v1.stderr);
  const consumer = await runSvcInProcess(['register-consumer', '--consumer', 'web-app', '--version', '3.4.1', '--schema', 'users', '--schema-version', '1.0.0', '--env', 'prod', '--endpoints', 'GET /users/{id}:id', ...at]);
  assert.equal(consumer.code, 0, consumer.stderr);
});

after(async () => {
  await server.close();
});

test('register-schema: a new version without ownership flags inherits it; --team alone keeps the owner (bug 1)', async () => {
  const v2 = await runSvcInProcess(['register-schema', 'users', cliFixture('users-v2.json'), '--check-compatibility', ...at]);
  assert.equal(v2.code, 0, v2.stderr);
  const again = await runSvcInProcess(['register-schema', 'users', cliFixture('users-v2.json'), '--team', 'platform', ...at]);
  assert.equal(again.code, 0, again.stderr);
  const response = await server.client.call('GetSchema', { schema_id: 'users', schema_version: '2.0.0' });
  assert.deepEqual({ owner: response.metadata.ownership.owner, team: response.metadata.ownership.team }, { owner: 'alice', team: 'platform' });
});

test('register-schema --check-compatibility on the first version says there is no previous version (bug 4)', async () => {
  const { code, stdout } = await runSvcInProcess(['register-schema', 'solo', cliFixture('users-v1.yaml'), '--check-compatibility', ...at]);
  assert.equal(code, 0);
  assert.match(stdout, /\nNo previous version to check compatibility against: 1\.0\.0 is the first \(or lowest\) version of solo\n$/);
  assert.doesNotMatch(stdout, /No breaking changes/);
});

test('schemas list and schemas get (child processes): a table, JSON, and the registered text byte for byte', async () => {
  const list = await runSvc(['schemas', 'list', ...at]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(lines(list.stdout)[0]!, /^SCHEMA\s+LATEST VERSION\s+OPENAPI\s+ENDPOINTS\s+OWNER\s+TEAM\s+UPDATED$/);
  assert.ok(lines(list.stdout).some((line) => /^users\s+2\.0\.0\s+3\.0\.3\s+3\s+alice\s+platform\s/.test(line)), list.stdout);

  const json = JSON.parse((await runSvcInProcess(['schemas', 'list', '--team', 'platform', '--json', ...at])).stdout);
  assert.deepEqual(json.schemas.map((schema: { schema_id: string }) => schema.schema_id), ['users']);

  const dir = makeTempDir();
  const file = path.join(dir, 'users-1.0.0.yaml');
  const get = await runSvc(['schemas', 'get', 'users', '--version', '1.0.0', '--output', file, ...at]);
  assert.equal(get.code, 0, get.stderr);
  assert.equal(fs.readFileSync(file, 'utf8'), fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8'));
  const printed = await runSvcInProcess(['schemas', 'get', 'users', '--version', '1.0.0', ...at]);
  assert.equal(printed.stdout, fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8').replace(/\n?$/, '\n'));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('schemas get of an unknown version: could not answer (NOT_FOUND), --unknown-exit-code and JSON error on stdout', async () => {
  const plain = await runSvcInProcess(['schemas', 'get', 'users', '--version', '9.9.9', ...at]);
  assert.equal(plain.code, 1);
  assert.equal(plain.stderr, 'svc schemas get: version 9.9.9 of schema users is not registered\n');
  const coded = await runSvcInProcess(['schemas', 'get', 'users', '--version', '9.9.9', '--json', '--unknown-exit-code', '3', ...at]);
  assert.equal(coded.code, 3);
  assert.deepEqual(JSON.parse(coded.stdout), { error: { code: 'NOT_FOUND', message: 'version 9.9.9 of schema users is not registered' } });
  const fromEnv = await runSvcInProcess(['schemas', 'get', 'nope', ...at], { SVC_UNKNOWN_EXIT_CODE: '4' });
  assert.equal(fromEnv.code, 4);
  const badValue = await runSvcInProcess(['schemas', 'get', 'users', '--unknown-exit-code', 'many', ...at]);
  assert.equal(badValue.code, 2);
});

test('endpoints (child process): method, path, operationId and summary of the latest version', async () => {
  const { code, stdout, stderr } = await runSvc(['endpoints', 'users', ...at]);
  assert.equal(code, 0, stderr);
  assert.deepEqual(lines(stdout).map((line) => line.split(/\s+/).slice(0, 3).join(' ')), ['METHOD PATH OPERATION', 'GET /status getStatus', 'POST /users createUser', 'GET /users/{id} getUser']);
  const old = JSON.parse((await runSvcInProcess(['endpoints', 'users', '--version', '1.0.0', '--json', ...at])).stdout);
  assert.ok(old.some((endpoint: { method: string; path: string }) => endpoint.method === 'DELETE' && endpoint.path === '/users/{id}'));
});

test('consumers list and deregister (child processes)', async () => {
  const list = await runSvc(['consumers', 'list', '--schema', 'users', ...at]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /\nweb-app\s+3\.4\.1\s+prod\s+1\.0\.0\s+GET \/users\/\{id\}\s+\S+\n/);
  const json = JSON.parse((await runSvcInProcess(['consumers', 'list', '--schema', 'users', '--env', 'prod', '--json', ...at])).stdout);
  assert.deepEqual(json.consumers[0].used_endpoints, [{ method: 'GET', path: '/users/{id}', used_fields: ['id'] }]);

  await runSvcInProcess(['register-consumer', '--consumer', 'batch', '--version', '1', '--schema', 'users', '--env', 'dev', '--endpoints', 'GET /status', ...at]);
  const removed = await runSvc(['consumers', 'deregister', '--consumer', 'batch', '--schema', 'users', ...at]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(removed.stdout, 'Deregistered batch/users/dev\n');
  const again = await runSvcInProcess(['consumers', 'deregister', '--consumer', 'batch', '--schema', 'users', '--json', ...at]);
  assert.equal(again.code, 1);
  assert.equal(JSON.parse(again.stdout).error.code, 'NOT_FOUND');
  assert.match((await runSvcInProcess(['consumers', 'list', '--schema', 'users', '--env', 'dev', ...at])).stdout, /^No consumers registered for users in dev\n$/);
});

test('compare --schema (child process): two registered versions compared by the server, with rule ids', async () => {
  const { code, stdout, stderr } = await runSvc(['compare', '--schema', 'users', '--old-version', '1.0.0', '--new-version', '2.0.0', '--json', ...at]);
  assert.equal(code, 1, stderr);
  const report = JSON.parse(stdout);
  assert.equal(report.old, 'users 1.0.0');
  assert.equal(report.new, 'users 2.0.0');
  assert.equal(report.breaking_changes.length, 4);
  assert.ok(report.changes.some((change: { id: string }) => change.id === 'endpoint-removed'));
  const latest = await runSvcInProcess(['compare', '--schema', 'users', ...at]);
  assert.match(latest.stdout, /^Found 4 breaking changes/);
  const unknown = await runSvcInProcess(['compare', '--schema', 'nope', '--unknown-exit-code', '9', ...at]);
  assert.equal(unknown.code, 9, unknown.stderr);
});

test('validate --schema-id (child process): validated by the server against a registered version', async () => {
  const valid = await runSvc(['validate', '--schema-id', 'users', '--schema-version', '1.0.0', '--interaction', cliFixture('interaction-valid.json'), ...at]);
  assert.equal(valid.code, 0, valid.stderr);
  assert.match(valid.stdout, /^Validation passed \(.* against users 1\.0\.0\)\n$/);
  const invalid = await runSvcInProcess(['validate', '--schema-id', 'users', '--schema-version', '1.0.0', '--interaction', cliFixture('interaction-invalid.json'), '--json', ...at]);
  assert.equal(invalid.code, 1);
  const result = JSON.parse(invalid.stdout);
  assert.equal(result.valid, false);
  assert.equal(result.validated_against_version, '1.0.0');
  const unknown = await runSvcInProcess(['validate', '--schema-id', 'nope', '-m', 'GET', '-p', '/users/1', '--json', '--unknown-exit-code', '5', ...at]);
  assert.equal(unknown.code, 5);
  assert.equal(JSON.parse(unknown.stdout).error.code, 'NOT_FOUND');
});

test('a server that answers UNAVAILABLE itself is quoted as reached, not worded as unreachable', async () => {
  const dir = makeTempDir('svc-cli-unavailable-');
  const store = await startTestServer({ storage: 'sqlite', dataDir: dir });
  try {
    fs.rmSync(path.join(dir, 'svc.sqlite-wal')); // the next write is refused with UNAVAILABLE
    const { code, stderr } = await runSvcInProcess(['register-schema', 'users', cliFixture('users-v1.yaml'), '--server', store.address, '--unknown-exit-code', '75']);
    assert.equal(code, 75);
    assert.match(stderr, new RegExp(`^svc register-schema: UNAVAILABLE: the svc server at ${store.address.replace(/\./g, '\\.')} answered: the registry store cannot take writes`));
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreachable server: could not answer, with --unknown-exit-code, and a JSON error under --json', async () => {
  const { code, stdout, stderr } = await runSvcInProcess(['schemas', 'list', '--server', '127.0.0.1:1', '--timeout', '2', '--json', '--unknown-exit-code', '75']);
  assert.equal(code, 75);
  assert.equal(JSON.parse(stdout).error.code, 'UNAVAILABLE');
  assert.match(stderr, /^svc schemas list: UNAVAILABLE: cannot reach the svc server at 127\.0\.0\.1:1/);
  const unreadable = await runSvcInProcess(['compare', '--old', cliFixture('missing.yaml'), '--new', cliFixture('users-v1.yaml'), '--unknown-exit-code', '75']);
  assert.equal(unreadable.code, 75);
});
