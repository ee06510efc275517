import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

const V1 = cliFixture('users-v1.yaml');
const V1_1 = cliFixture('users-v1.1.yaml');
const V2 = cliFixture('users-v2.json');
let server: TestServer;

before(async () => {
  server = await startTestServer();
});

after(async () => {
  await server.close();
});

test('register-schema (child process): registers a file and prints the metadata', async () => {
  const { code, stdout, stderr } = await runSvc(['register-schema', 'users', V1, '--server', server.address]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  const [registered, hash] = lines(stdout);
  assert.equal(registered, 'Registered users 1.0.0 (OpenAPI 3.0.3, 4 endpoints)');
  assert.match(hash!, /^Hash: [0-9a-f]{64}$/);

  const stored = await server.client.call('GetSchema', { schema_id: 'users', schema_version: '1.0.0' });
  assert.equal(stored.schema_content, fs.readFileSync(V1, 'utf8'), 'the text is sent as it is');
});

test('register-schema --fail-on-breaking (child process): checks first, lists the changes, registers nothing, exits 1', async () => {
  await runSvcInProcess(['register-schema', 'orders', V1, '-S', server.address, '-q']);
  const { code, stdout, stderr } = await runSvc(['register-schema', 'orders', V2, '-S', server.address, '--fail-on-breaking']);
  assert.equal(code, 1);
  assert.ok(lines(stdout).some((line) => line.startsWith('  [ENDPOINT_REMOVED] ')), stdout);
  assert.equal(lines(stderr).length, 1);
  assert.match(stderr, /^svc register-schema: registration refused: Schema orders version 2\.0\.0 not registered: 4 breaking change\(s\) found since 1\.0\.0 \(refuse_breaking_changes\); nothing was stored\n$/);
  assert.equal((await server.client.call('GetSchema', { schema_id: 'orders', schema_version: '2.0.0' })).found, false, 'a rejected version is never registered');
});

test('register-schema --check-compatibility without --fail-on-breaking reports and exits 0', async () => {
  await runSvcInProcess(['register-schema', 'catalog', V1, '-S', server.address, '-q']);
  const compatible = await runSvcInProcess(['register-schema', 'catalog', V1_1, '-S', server.address, '--check-compatibility']);
  assert.equal(compatible.code, 0, compatible.stderr);
  assert.match(compatible.stdout, /\nNo breaking changes against the previous version 1\.0\.0\n$/);

  const breaking = await runSvcInProcess(['register-schema', 'catalog', V2, '-S', server.address, '--check-compatibility', '--json']);
  assert.equal(breaking.code, 0, breaking.stderr);
  const response = JSON.parse(breaking.stdout);
  assert.equal(response.success, true);
  assert.equal(response.metadata.schema_version, '2.0.0');
  // The server compares with the previous version (1.1.0) by the same engine `svc compare` uses.
  const local = JSON.parse((await runSvcInProcess(['compare', '--old', V1_1, '--new', V2, '--json'])).stdout);
  assert.ok(local.breaking_changes.length > 0);
  assert.deepEqual(response.breaking_changes, local.breaking_changes);
});

test('register-schema: --version, ownership flags, --quiet and --json', async () => {
  const quiet = await runSvcInProcess(['register-schema', 'billing', V1, '-S', server.address, '-v', '3.1.4', '--owner', 'alice', '--team', 'payments', '--contact-email', 'payments@example.com', '-q']);
  assert.deepEqual(quiet, { code: 0, stdout: '', stderr: '' });
  const stored = await server.client.call('GetSchema', { schema_id: 'billing', schema_version: '3.1.4' });
  assert.equal(stored.found, true);
  assert.deepEqual(
    { owner: stored.metadata.ownership.owner, team: stored.metadata.ownership.team, contact: stored.metadata.ownership.contact_email },
    { owner: 'alice', team: 'payments', contact: 'payments@example.com' },
  );

  const json = await runSvcInProcess(['register-schema', 'billing', V1_1, '-S', server.address, '-j']);
  assert.equal(json.code, 0);
  const response = JSON.parse(json.stdout);
  assert.equal(response.success, true);
  assert.equal(response.metadata.schema_id, 'billing');
  assert.equal(response.metadata.schema_version, '1.1.0');
});

test('register-schema: a schema from an http URL', async () => {
  const text = fs.readFileSync(V1, 'utf8');
  const origin = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/yaml' }).end(text));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/openapi.yaml`;
    const result = await runSvcInProcess(['register-schema', 'remote', url, '-S', server.address]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Registered remote 1\.0\.0 /);
  } finally {
    origin.close();
  }
});

test('register-schema: refusals and unreadable files are one line on stderr, exit 1', async () => {
  const invalid = await runSvc(['register-schema', 'broken', cliFixture('interaction-valid.json'), '-S', server.address]);
  assert.equal(invalid.code, 1);
  assert.equal(invalid.stdout, '');
  assert.equal(lines(invalid.stderr).length, 1);
  assert.match(invalid.stderr, /^svc register-schema: .*Invalid schema: /);

  const missing = await runSvcInProcess(['register-schema', 'broken', cliFixture('nope.yaml'), '-S', server.address]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^svc register-schema: cannot read schema file ".*nope\.yaml": no such file\n$/);
});

test('register-schema: missing arguments and bad values are usage errors (exit 2)', async () => {
  const noFile = await runSvc(['register-schema', 'users']);
  assert.equal(noFile.code, 2);
  assert.equal(noFile.stdout, '');
  assert.equal(noFile.stderr, 'svc register-schema: Not enough positional arguments (see "svc register-schema --help")\n');

  const timeout = await runSvcInProcess(['register-schema', 'users', V1, '--timeout', '0']);
  assert.equal(timeout.code, 2);
  assert.match(timeout.stderr, /--timeout must be a positive number of seconds \(got "0"\)/);
});
