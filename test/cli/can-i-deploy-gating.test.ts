/** can-i-deploy as a pipeline gate: waiting for a version, dry runs, table output, a reason per consumer. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

let server: TestServer;
let at: string[];

before(async () => {
  server = await startTestServer();
  at = ['--server', server.address];
  await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8') });
  await server.client.call('RegisterConsumer', {
    consumer_id: 'web-app', consumer_version: '3.4.1', schema_id: 'users', schema_version: '1.0.0', environment: 'prod',
    used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['id'] }],
  });
});

after(async () => {
  await server.close();
});

test('--retry-while-unknown waits for a version registered meanwhile, then answers', async () => {
  const question = runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '--retry-while-unknown', '20', '--retry-interval', '0.1', ...at]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: fs.readFileSync(cliFixture('users-v2.json'), 'utf8') });
  const { code, stdout, stderr } = await question;
  assert.equal(code, 1, stderr);
  assert.match(stderr, /NOT_FOUND: .*asking again in 0\.1 s \(1\/20\)/);
  assert.match(stdout, /^Verdict: UNSAFE to deploy users 2\.0\.0 to prod/m);
});

test('the text output gives a reason next to every affected consumer', async () => {
  const { code, stdout } = await runSvc(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', ...at]);
  assert.equal(code, 1);
  const out = lines(stdout);
  const impact = out.indexOf('    Impact: BREAKING');
  assert.ok(impact > 0, stdout);
  assert.match(out[impact + 2]!, /^ {4}Reason: \[TYPE_CHANGED\] GET \/users\/\{id\}: response 200 \(application\/json\) field "id" changed type from integer to string/);
});

test('--output table: one row per consumer with impact and reason; --dry-run exits 0 whatever the verdict', async () => {
  const table = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '--output', 'table', ...at]);
  assert.equal(table.code, 1);
  assert.match(table.stdout, /\nCONSUMER\s+VERSION\s+TESTED AGAINST\s+IMPACT\s+REASON\nweb-app\s+3\.4\.1\s+1\.0\.0\s+BREAKING\s+TYPE_CHANGED GET \/users\/\{id\}\n/);

  const dryRun = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '--dry-run', '--json', ...at]);
  assert.equal(dryRun.code, 0);
  const answer = JSON.parse(dryRun.stdout);
  assert.equal(answer.safe_to_deploy, false);
  assert.equal(answer.dry_run, true);

  const unknown = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '7.0.0', '--env', 'prod', '--dry-run', ...at]);
  assert.equal(unknown.code, 0);
  assert.match(unknown.stderr, /^svc can-i-deploy: \[dry run\] NOT_FOUND: /);
});

test('an unknown version without retries: could not answer, --unknown-exit-code', async () => {
  const { code, stdout } = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '7.0.0', '--env', 'prod', '--unknown-exit-code', '3', '--json', ...at]);
  assert.equal(code, 3);
  assert.equal(JSON.parse(stdout).error.code, 'NOT_FOUND');
});
