/**
 * `svc coverage` in its three formats, and can-i-deploy's replay evidence and field-level decisions,
 * over interactions recorded through the client's background recording against a real server.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator } from '@svc/client';
import { startTestServer, type TestServer } from '../helpers/server';
import { lines, runSvc, runSvcInProcess } from './run-svc';

const SCHEMA = 'people';

function document(version: string, options: { emailPattern?: string; withNick?: boolean } = {}): string {
  const user = {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string', ...(options.emailPattern ? { pattern: options.emailPattern } : {}) },
      ...(options.withNick === false ? {} : { nick: { type: 'string' } }),
    },
  };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'people', version },
    paths: {
      '/users/{id}': {
        get: {
          operationId: 'getUser',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: user } } },
            '404': { description: 'missing' },
          },
        },
      },
    },
  });
}

let server: TestServer;

before(async () => {
  server = await startTestServer();
  await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.0.0'), schema_version: '1.0.0' });
  await server.client.call('RecordDeployment', { schema_id: SCHEMA, environment: 'prod', version: '1.0.0' });
  const client = new ContractValidator({ address: server.address, schemaId: SCHEMA });
  try {
    const recording = client.openRecording({ environment: 'prod' });
    const exchange = (consumerId: string, id: string, body: object | undefined, readFields?: string[]) => recording.record({
      schemaId: SCHEMA, schemaVersion: '1.0.0', consumerId, valid: true,
      request: { method: 'GET', path: `/users/${id}` },
      response: body ? { statusCode: 200, headers: { 'content-type': 'application/json' }, body } : { statusCode: 404 },
      ...(readFields ? { readFields: new Set(readFields) } : {}),
    });
    exchange('web', '1', { id: '1', name: 'Ann', email: 'ann@example', nick: 'a' }, ['id', 'name']);
    exchange('web', '1', { id: '1', name: 'Ann', email: 'ann@example', nick: 'a' }, ['id', 'name']);
    exchange('app', '2', { id: '2', name: 'Bob', email: 'BOB@EXAMPLE', nick: 'b' }, ['email', 'nick']);
    await recording.flush();
    assert.deepEqual(recording.stats(), { recorded: 3, sent: 3, dropped: 0, failed: 0, accepted: 3, notKept: 0, queued: 0 });
  } finally {
    client.close();
  }
  await server.server.context.usage.flush();
  await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.1.0', { emailPattern: '^[a-z]+@[a-z]+$' }), schema_version: '1.1.0' });
  await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('2.0.0', { withNick: false }), schema_version: '2.0.0' });
});

after(async () => {
  await server.close();
});

test('coverage (child process): one row per operation and status, the share exercised, exit 0', async () => {
  const { code, stdout, stderr } = await runSvc(['coverage', '--schema', SCHEMA, '--version', '1.0.0', '--env', 'prod', '--server', server.address]);
  assert.equal(code, 0, stderr);
  const out = lines(stdout);
  assert.equal(out[0], 'Contract coverage of people 1.0.0, environment prod');
  const exercised = out.find((line) => line.startsWith('GET') && line.includes(' 200 '))!;
  assert.match(exercised, /^GET\s+\/users\/\{id\}\s+200\s+3\s+\d{4}-\d\d-\d\dT\S+\s+web \(2, prod\), app \(1, prod\)$/);
  assert.match(out.find((line) => line.includes(' 404 '))!, /^GET\s+\/users\/\{id\}\s+404\s+0\s+-\s+-$/);
  assert.ok(out.includes('Coverage: 1/2 documented statuses exercised (50%)'), stdout);
  assert.ok(out.includes('Consumers: app, web'), stdout);
});

test('coverage --format json and markdown', async () => {
  const json = await runSvcInProcess(['coverage', '--schema', SCHEMA, '--version', '1.0.0', '--format', 'json', '--server', server.address]);
  assert.equal(json.code, 0, json.stderr);
  const coverage = JSON.parse(json.stdout);
  assert.deepEqual(
    coverage.operations.map((operation: any) => [operation.operation_id, operation.statuses.map((status: any) => `${status.status}:${status.call_count}`)]),
    [['getUser', ['200:3', '404:0']]],
  );
  assert.deepEqual([coverage.exercised_statuses, coverage.documented_statuses, coverage.coverage_percent, coverage.environment], [1, 2, 50, '']);

  const markdown = await runSvcInProcess(['coverage', '--schema', SCHEMA, '--version', '1.0.0', '--format', 'markdown', '--server', server.address]);
  assert.equal(markdown.code, 0, markdown.stderr);
  const out = lines(markdown.stdout);
  assert.equal(out[0], '### Contract coverage: people 1.0.0, every environment');
  assert.ok(out.includes('| METHOD | PATH | STATUS | CALLS | LAST SEEN | CONSUMERS |'), markdown.stdout);
  assert.ok(out.some((line) => /^\| GET \| \/users\/\{id\} \| 404 \| 0 \| - \| - \|$/.test(line)), markdown.stdout);
  assert.ok(out.includes('**Coverage: 1/2 documented statuses exercised (50%)**'));
});

test('coverage: an unknown format is a usage error (2), an unknown schema a failure (1)', async () => {
  const usage = await runSvcInProcess(['coverage', '--schema', SCHEMA, '--format', 'yaml', '--server', server.address]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr + usage.stdout, /--format must be one of text, json, markdown/);
  const unknown = await runSvcInProcess(['coverage', '--schema', 'nobody', '--server', server.address]);
  assert.equal(unknown.code, 1);
});

test('can-i-deploy --include-observed shows replay evidence per consumer', async () => {
  const { code, stdout, stderr } = await runSvcInProcess(['can-i-deploy', '--schema', SCHEMA, '--version', '1.1.0', '--env', 'prod', '--include-observed', '--output', 'text', '--server', server.address]);
  assert.equal(code, 1, stderr);
  const out = lines(stdout);
  assert.ok(out.includes('  app (observed in recorded traffic, not registered)'), stdout);
  const app = out.indexOf('  app (observed in recorded traffic, not registered)');
  assert.deepEqual(out.slice(app + 2, app + 4), ['    Impact: BREAKING', '    Endpoints affected: GET /users/2']);
  assert.ok(out.slice(app).includes('    Replay: 1 recorded interaction replayed, 1 no longer valid'), stdout);
  assert.ok(out.slice(app).some((line) => /^ {4}Replay failure: GET \/users\/2 → 200: .*email/.test(line)), stdout);
  // web's two identical interactions are one recorded shape.
  const web = out.indexOf('  web (observed in recorded traffic, not registered)');
  assert.deepEqual(out.slice(web + 2, web + 4), ['    Impact: None', '    Replay: 1 recorded interaction replayed, all still valid']);

  const json = await runSvcInProcess(['can-i-deploy', '--schema', SCHEMA, '--version', '1.1.0', '--env', 'prod', '--include-observed', '--json', '--server', server.address]);
  const answer = JSON.parse(json.stdout);
  const appImpact = answer.affected_consumers.find((impact: any) => impact.consumer_id === 'app');
  assert.deepEqual([appImpact.observed, appImpact.will_break, appImpact.replayed_interactions, appImpact.replay_failures[0].path], [true, true, 1, '/users/2']);
  assert.equal(answer.replayed_interactions, 2);
});

test('can-i-deploy --field-level spares the consumer that never read the removed field', async () => {
  const { stdout, stderr } = await runSvcInProcess(['can-i-deploy', '--schema', SCHEMA, '--version', '2.0.0', '--env', 'prod', '--include-observed', '--field-level', '--output', 'text', '--server', server.address]);
  const out = lines(stdout);
  const web = out.indexOf('  web (observed in recorded traffic, not registered)');
  assert.ok(web >= 0, stdout + stderr);
  assert.equal(out[web + 2], '    Impact: None');
  assert.ok(out.slice(web).some((line) => /^ {4}Not relevant \(no used field reaches it\): \[.+\] .*nick/.test(line)), stdout);
  const app = out.indexOf('  app (observed in recorded traffic, not registered)');
  assert.equal(out[app + 2], '    Impact: BREAKING', 'app read nick');
});
