import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

const V1 = cliFixture('users-v1.yaml');

test('validate --interaction (child process): valid exits 0 with one line', async () => {
  const { code, stdout, stderr } = await runSvc(['validate', '--schema', V1, '--interaction', cliFixture('interaction-valid.json')]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  assert.equal(stdout, 'Validation passed (GET /users/42, status 200)\n');
});

test('validate --interaction (child process): invalid exits 1, every error on its own line', async () => {
  const { code, stdout, stderr } = await runSvc(['validate', '-s', V1, '-i', cliFixture('interaction-invalid.json')]);
  assert.equal(code, 1);
  assert.equal(stderr, '');
  assert.deepEqual(lines(stdout), [
    'Validation failed (GET /users/abc, status 200): 2 errors',
    '  parameter "id" in path: value "abc" is not a valid integer',
    '  response body: property "name" is required',
  ]);
});

test('validate --json: {valid, errors}, exit code 0 or 1 as in text mode', async () => {
  const invalid = await runSvc(['validate', '-s', V1, '-i', cliFixture('interaction-invalid.json'), '--json']);
  assert.equal(invalid.code, 1);
  assert.deepEqual(JSON.parse(invalid.stdout), {
    valid: false,
    errors: ['parameter "id" in path: value "abc" is not a valid integer', 'response body: property "name" is required'],
  });
  const valid = await runSvcInProcess(['validate', '-s', V1, '-i', cliFixture('interaction-valid.json'), '-j']);
  assert.equal(valid.code, 0);
  assert.deepEqual(JSON.parse(valid.stdout), { valid: true, errors: [] });
});

test('validate --request/--response: the response file holds its body as JSON text', async () => {
  const { code, stdout, stderr } = await runSvcInProcess([
    'validate', '-s', V1, '--request', cliFixture('request-create-user.json'), '--response', cliFixture('response-created.json'),
  ]);
  assert.equal(code, 0, stderr + stdout);
  assert.equal(stdout, 'Validation passed (POST /users, status 201)\n');
});

test('validate from flags: method, path, bodies and status code (default 200)', async () => {
  const valid = await runSvcInProcess(['validate', '-s', V1, '-m', 'get', '-p', '/users/7', '--response-body', '{"id":7,"name":"Ada"}']);
  assert.equal(valid.code, 0, valid.stdout + valid.stderr);
  assert.equal(valid.stdout, 'Validation passed (GET /users/7, status 200)\n');

  const created = await runSvcInProcess([
    'validate', '-s', V1, '-m', 'POST', '-p', '/users', '--request-body', '{"name":""}', '--status-code', '201', '--response-body', '{"id":"x","name":"Ada"}',
  ]);
  assert.equal(created.code, 1);
  const errors = lines(created.stdout).slice(1);
  assert.equal(errors.length, 2, created.stdout);
  assert.ok(errors.some((line) => line.startsWith('  request body')), created.stdout);
  assert.ok(errors.some((line) => line.startsWith('  response body')), created.stdout);

  const undeclared = await runSvcInProcess(['validate', '-s', V1, '-m', 'GET', '-p', '/users/7', '--status-code', '500']);
  assert.equal(undeclared.code, 1);
  assert.match(undeclared.stdout, /500/);

  const unknownPath = await runSvcInProcess(['validate', '-s', V1, '-m', 'GET', '-p', '/nowhere']);
  assert.equal(unknownPath.code, 1);
  assert.match(unknownPath.stdout, /\n {2}Path not found: \/nowhere\n/);
});

test('validate: a Swagger 2.0 schema is converted; its basePath prefix is accepted', async () => {
  const result = await runSvcInProcess([
    'validate', '-s', cliFixture('petstore-swagger2.json'), '-m', 'GET', '-p', '/v1/pets/3', '--response-body', '{"id":3,"name":"Rex"}',
  ]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});

test('validate: bad usage is one line on stderr with exit 2', async () => {
  const noInput = await runSvc(['validate', '-s', V1]);
  assert.equal(noInput.code, 2);
  assert.equal(noInput.stdout, '');
  assert.equal(
    noInput.stderr,
    'svc validate: no interaction given: use --interaction <file>, or --request <file> with --response <file>, or --method with --path (see "svc validate --help")\n',
  );

  const cases: Array<[string[], RegExp]> = [
    [['-i', cliFixture('interaction-valid.json'), '-m', 'GET', '-p', '/users/1'], /more than one input form given/],
    [['--request', cliFixture('request-create-user.json')], /--request and --response go together/],
    [['-m', 'GET'], /--method and --path go together/],
    [['-m', 'GET', '-p', '/users/1', '--response-body', '{nope'], /--response-body is not valid JSON/],
    [['-m', 'GET', '-p', '/users/1', '--status-code', 'ok'], /--status-code must be an HTTP status code/],
    [['-i', cliFixture('interaction-valid.json'), '--status-code', '404'], /more than one input form given/],
  ];
  for (const [args, message] of cases) {
    const result = await runSvcInProcess(['validate', '-s', V1, ...args]);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.equal(lines(result.stderr).length, 1);
    assert.match(result.stderr, message);
  }
  const missingSchema = await runSvcInProcess(['validate', '-i', cliFixture('interaction-valid.json')]);
  assert.equal(missingSchema.stderr, 'svc validate: missing required option --schema (or --schema-id for a registered schema) (see "svc validate --help")\n');
});

test('validate: unreadable or malformed input files exit 1 with a message naming the file', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['-i', cliFixture('nope.json')], /^svc validate: cannot read interaction file ".*nope\.json": no such file\n$/],
    [['-i', V1], /^svc validate: interaction file ".*users-v1\.yaml" is not valid JSON: /],
    [['-i', cliFixture('request-create-user.json')], /^svc validate: interaction file ".*request-create-user\.json": "request" must be a JSON object\n$/],
    [['--request', cliFixture('response-created.json'), '--response', cliFixture('response-created.json')], /--request file ".*" "method" must be a non-empty string/],
    [['--request', cliFixture('request-create-user.json'), '--response', cliFixture('request-create-user.json')], /"statusCode" must be an HTTP status code/],
  ];
  for (const [args, message] of cases) {
    const result = await runSvcInProcess(['validate', '-s', V1, ...args]);
    assert.equal(result.code, 1, args.join(' '));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, message);
  }
});
