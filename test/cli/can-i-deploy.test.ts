import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess, unusedPort } from './run-svc';

let server: TestServer;

/** users 1.0.0 → 2.0.0 removes DELETE /users/{id} and changes GET /users/{id}; GET /status is unchanged. */
before(async () => {
  server = await startTestServer();
  for (const file of ['users-v1.yaml', 'users-v2.json']) {
    const response = await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: fs.readFileSync(cliFixture(file), 'utf8') });
    assert.equal(response.success, true, response.message);
  }
  const consumers = [
    { consumer_id: 'web-app', consumer_version: '3.4.1', environment: 'prod', used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['id'] }, { method: 'DELETE', path: '/users/{id}' }] },
    { consumer_id: 'monitor', consumer_version: '1.0.0', environment: 'prod', used_endpoints: [{ method: 'GET', path: '/status' }] },
    { consumer_id: 'monitor', consumer_version: '1.0.0', environment: 'staging', used_endpoints: [{ method: 'GET', path: '/status' }] },
  ];
  for (const consumer of consumers) {
    const response = await server.client.call('RegisterConsumer', { ...consumer, schema_id: 'users', schema_version: '1.0.0' });
    assert.equal(response.success, true, response.message);
  }
});

after(async () => {
  await server.close();
});

test('can-i-deploy (child process): unsafe prints the spec text block and exits 1', async () => {
  const { code, stdout, stderr } = await runSvc(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '--server', server.address]);
  assert.equal(code, 1, stderr);
  assert.equal(stderr, '');
  const out = lines(stdout);
  assert.deepEqual(out.slice(0, 3), ['Schema:      users', 'Version:     2.0.0', 'Environment: prod']);
  assert.match(out[3]!, /^Verdict: UNSAFE to deploy users 2\.0\.0 to prod: 1 of 2 consumers would break$/);
  assert.ok(out.includes('  ENDPOINT_REMOVED: DELETE /users/{id}'), stdout);
  assert.ok(out.includes('  web-app (version 3.4.1)'));
  assert.ok(out.includes('  monitor (version 1.0.0)'));
  assert.equal(out.filter((line) => line === '    Schema version tested: 1.0.0').length, 2);
  assert.ok(out.includes('    Impact: BREAKING'));
  assert.ok(out.includes('    Impact: None'));
  const endpoints = out.find((line) => line.startsWith('    Endpoints affected: '));
  assert.match(endpoints!, /DELETE \/users\/\{id\}/);
  assert.ok(out.includes('Safe consumers: 1/2'));
  assert.ok(out.includes('Affected consumers: 1/2'));
  assert.match(out.at(-1)!, /^Recommendation: do not deploy 2\.0\.0 to prod; update web-app first/);
});

test('can-i-deploy --json (child process): snake_case response fields, exit 1 when unsafe', async () => {
  const { code, stdout } = await runSvc(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '-S', server.address, '--json']);
  assert.equal(code, 1);
  const answer = JSON.parse(stdout);
  assert.equal(answer.safe_to_deploy, false);
  assert.ok(answer.breaking_changes.length >= 2);
  const byId = Object.fromEntries(answer.affected_consumers.map((impact: { consumer_id: string }) => [impact.consumer_id, impact]));
  assert.equal(byId['web-app'].will_break, true);
  assert.equal(byId['web-app'].current_schema_version, '1.0.0');
  assert.ok(byId['web-app'].relevant_changes.some((change: { type: string }) => change.type === 'ENDPOINT_REMOVED'));
  assert.equal(byId.monitor.will_break, false);
  assert.deepEqual(byId.monitor.relevant_changes, []);
});

test('can-i-deploy: safe when no registered consumer is affected (exit 0)', async () => {
  const { code, stdout, stderr } = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'staging', '-S', server.address]);
  assert.equal(code, 0, stderr);
  const out = lines(stdout);
  assert.match(out[3]!, /^Verdict: SAFE to deploy users 2\.0\.0 to staging$/);
  assert.ok(out.includes('    Impact: None'));
  assert.ok(out.includes('Safe consumers: 1/1'));
  assert.ok(out.includes('Affected consumers: 0/1'));
  assert.ok(!out.some((line) => line.startsWith('  ENDPOINT_REMOVED')), 'breaking changes are listed only when unsafe');
  assert.match(out.at(-1)!, /^Recommendation: deploy 2\.0\.0/);
});

test('can-i-deploy: no consumers registered is safe, with a note (exit 0; also --json)', async () => {
  const text = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'dev', '-S', server.address]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /Verdict: SAFE/);
  assert.match(text.stdout, /\nNo consumers are registered for users in dev/);
  assert.match(text.stdout, /\nSafe consumers: 0\/0\nAffected consumers: 0\/0\n/);

  const json = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'dev', '-S', server.address, '-j']);
  assert.equal(json.code, 0);
  const answer = JSON.parse(json.stdout);
  assert.equal(answer.safe_to_deploy, true);
  assert.deepEqual(answer.affected_consumers, []);
});

test('can-i-deploy: missing options are usage errors (exit 2); a down server is one UNAVAILABLE line (exit 1)', async () => {
  const missing = await runSvc(['can-i-deploy', '--schema', 'users', '--version', '2.0.0']);
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr, 'svc can-i-deploy: missing required option --env (see "svc can-i-deploy --help")\n');

  const port = await unusedPort();
  const down = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'prod', '-S', `127.0.0.1:${port}`, '-t', '5']);
  assert.equal(down.code, 1);
  assert.equal(down.stdout, '');
  assert.equal(down.stderr, `svc can-i-deploy: UNAVAILABLE: cannot reach the svc server at 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port})\n`);
});

test('--fail-if-no-consumers: with no consumers the text says the gate required one, and the exit code is 1', async () => {
  const gated = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'dev', '--fail-if-no-consumers', '--output', 'text', '--server', server.address]);
  assert.equal(gated.code, 1, gated.stderr);
  assert.match(gated.stdout, /No consumers are registered for users in dev, and the gate requires at least one \(--fail-if-no-consumers\): not safe\./);
  assert.doesNotMatch(gated.stdout, /nothing can break/);
  const open = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '2.0.0', '--env', 'dev', '--output', 'text', '--server', server.address]);
  assert.equal(open.code, 0, open.stderr);
  assert.match(open.stdout, /No consumers are registered for users in dev: nothing can break\./);
});

test('a consumer with more changes than the answer lists: --json carries omitted_changes, the text and the table count them', async () => {
  const removed = 150;
  const paths = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`/r${i}`, { get: { responses: { 200: { description: 'ok' } } } }]));
  const document = (version: string, count: number) => JSON.stringify({ openapi: '3.0.3', info: { title: 'many', version }, paths: { '/keep': { get: { responses: { 200: { description: 'ok' } } } }, ...paths(count) } });
  for (const [version, count] of [['1.0.0', removed], ['2.0.0', 0]] as const) {
    const response = await server.client.call('RegisterSchema', { schema_id: 'many', schema_version: version, schema_content: document(version, count) });
    assert.equal(response.success, true, response.message);
  }
  const used_endpoints = Array.from({ length: removed }, (_, i) => ({ method: 'GET', path: `/r${i}` }));
  const consumer = await server.client.call('RegisterConsumer', { consumer_id: 'crawler', consumer_version: '1.0.0', environment: 'prod', schema_id: 'many', schema_version: '1.0.0', used_endpoints });
  assert.equal(consumer.success, true, consumer.message);

  const args = ['can-i-deploy', '--schema', 'many', '--version', '2.0.0', '--env', 'prod', '--server', server.address];
  const json = await runSvcInProcess([...args, '--json']);
  assert.equal(json.code, 1, json.stderr);
  const [impact] = JSON.parse(json.stdout).affected_consumers;
  assert.equal(impact.relevant_changes.length + impact.omitted_changes, removed);
  assert.ok(impact.omitted_changes > 0, 'the server lists fewer than all of them');
  const text = await runSvcInProcess([...args, '--output', 'text']);
  assert.match(text.stdout, new RegExp(`… and ${impact.omitted_changes} more changes not listed in the answer \\(canIDeployChangesPerConsumer\\); the verdict counts them`));
  const table = await runSvcInProcess([...args, '--output', 'table']);
  assert.match(table.stdout, new RegExp(`ENDPOINT_REMOVED GET /r\\d+ \\(\\+${removed - 1} more\\)`));
});
