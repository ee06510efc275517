import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

const V1 = cliFixture('users-v1.yaml');

test('generate --list (child process): a header line, then one "<METHOD> <path>" line per endpoint', async () => {
  const { code, stdout, stderr } = await runSvc(['generate', '--schema', V1, '--list']);
  assert.equal(code, 0, stderr);
  const [header, ...endpoints] = lines(stdout);
  assert.match(header!, /\(4\):$/);
  assert.deepEqual(endpoints, ['GET /status', 'POST /users', 'GET /users/{id}', 'DELETE /users/{id}']);

  const swagger = await runSvcInProcess(['generate', '-s', cliFixture('petstore-swagger2.json'), '-l']);
  assert.equal(swagger.code, 0);
  assert.deepEqual(lines(swagger.stdout).slice(1), ['GET /pets/{petId}']);
});

test('generate (child process): a fixture is request + response with bodies as JSON values, the same every run', async () => {
  const args = ['generate', '-s', V1, '-m', 'post', '-p', '/users'];
  const first = await runSvc(args);
  assert.equal(first.code, 0, first.stderr);
  const fixture = JSON.parse(first.stdout);
  assert.deepEqual(Object.keys(fixture), ['request', 'response']);
  assert.equal(fixture.request.method, 'POST');
  assert.equal(fixture.request.path, '/users');
  assert.equal(typeof fixture.request.body.name, 'string', 'the body is a JSON value, not JSON text');
  assert.equal(fixture.response.statusCode, 201, 'status 0 picks the first success status');
  assert.equal(typeof fixture.response.body.id, 'number');

  const second = await runSvcInProcess(args);
  assert.equal(second.stdout, first.stdout, 'deterministic');
});

test('generate: --output-type request prints the body only; response honours --status-code and --no-use-examples', async () => {
  const request = await runSvcInProcess(['generate', '-s', V1, '-m', 'POST', '-p', '/users', '-t', 'request']);
  assert.equal(request.code, 0, request.stderr);
  assert.equal(typeof JSON.parse(request.stdout).name, 'string');

  const withExamples = JSON.parse((await runSvcInProcess(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '-t', 'response'])).stdout);
  assert.deepEqual(withExamples.body, { id: 42, name: 'Ada Lovelace', email: 'ada@example.com' }, 'the schema example is used by default');
  const withoutExamples = JSON.parse((await runSvcInProcess(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '-t', 'response', '--no-use-examples'])).stdout);
  assert.notDeepEqual(withoutExamples.body, withExamples.body);

  const notFound = await runSvcInProcess(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '-t', 'response', '--status-code', '404']);
  const response = JSON.parse(notFound.stdout);
  assert.equal(response.statusCode, 404);
  assert.equal(typeof response.body.message, 'string');
  assert.equal(response.headers['Content-Type'], 'application/json');
});

test('generate --output (child process): writes the file and says so', async () => {
  const dir = makeTempDir('svc-cli-generate-');
  try {
    const file = path.join(dir, 'fixture.json');
    const { code, stdout, stderr } = await runSvc(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '--output', file]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, `Wrote the fixture to ${file}\n`);
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).response.statusCode, 200);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('generate: refusals exit 1 with the engine message; bad usage exits 2', async () => {
  const unknownPath = await runSvc(['generate', '-s', V1, '-m', 'GET', '-p', '/nope']);
  assert.equal(unknownPath.code, 1);
  assert.equal(unknownPath.stdout, '');
  assert.equal(unknownPath.stderr, 'svc generate: Path not found: /nope\n');

  const noBody = await runSvcInProcess(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '-t', 'request']);
  assert.equal(noBody.code, 1);
  assert.match(noBody.stderr, /GET \/users\/\{id\} takes no request body/);

  const status = await runSvcInProcess(['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '--status-code', '500']);
  assert.equal(status.code, 1);
  assert.match(status.stderr, /500/);

  for (const args of [
    ['generate', '-s', V1, '-m', 'GET'],
    ['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '-t', 'everything'],
    ['generate', '-s', V1, '-m', 'GET', '-p', '/users/{id}', '--status-code', '2000'],
    ['generate', '-m', 'GET', '-p', '/users/{id}'],
  ]) {
    const result = await runSvcInProcess(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.equal(lines(result.stderr).length, 1, result.stderr);
    assert.match(result.stderr, /^svc generate: .*\(see "svc generate --help"\)\n$/);
  }
});
