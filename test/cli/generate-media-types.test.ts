/** Regression for issue 14, bug 2: generate chooses each body's media type; request and response have their own flags. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliFixture, runSvcInProcess } from './run-svc';

const FORM_ONLY = cliFixture('form-only.yaml');

test('a form-only request body is generated as a form by default, the response as JSON', async () => {
  const { code, stdout, stderr } = await runSvcInProcess(['generate', '-s', FORM_ONLY, '-m', 'POST', '-p', '/charges']);
  assert.equal(code, 0, stderr);
  const fixture = JSON.parse(stdout);
  assert.equal(fixture.request.headers['Content-Type'], 'application/x-www-form-urlencoded');
  assert.match(fixture.request.body, /^amount=\d+&currency=(usd|eur)$/);
  assert.equal(fixture.response.headers['Content-Type'], 'application/json');
  assert.deepEqual(fixture.response.body, { id: 'ch_1' });
});

test('--request-content-type and --response-content-type are separate; --content-type sets both', async () => {
  const separate = await runSvcInProcess(['generate', '-s', FORM_ONLY, '-m', 'POST', '-p', '/charges',
    '--request-content-type', 'application/x-www-form-urlencoded', '--response-content-type', 'application/json']);
  assert.equal(separate.code, 0, separate.stderr);

  const both = await runSvcInProcess(['generate', '-s', FORM_ONLY, '-m', 'POST', '-p', '/charges', '--content-type', 'application/json']);
  assert.equal(both.code, 1);
  assert.match(both.stderr, /content type "application\/json" not offered by the request body of POST \/charges/);

  const contradiction = await runSvcInProcess(['generate', '-s', FORM_ONLY, '-m', 'POST', '-p', '/charges', '--content-type', 'a/b', '--request-content-type', 'c/d']);
  assert.equal(contradiction.code, 2);
});

test('generate --list --json: an array of endpoints', async () => {
  const { code, stdout } = await runSvcInProcess(['generate', '-s', FORM_ONLY, '--list', '--json']);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), [{ method: 'POST', path: '/charges', operation_id: 'createCharge', summary: '' }]);
});
