/**
 * The example programs docs/node-client.md shows whole (docs/examples/, listed in example-files.ts)
 * run as a user runs them: the consumer test with `node --test` in a child process, validating
 * against the schema the provider registered; the producer app in strict mode answering real HTTP
 * calls. They `require('@svc/client')` like users do (the workspace package of this repository).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { ContractValidator } from '@svc/client';
import { REPO_ROOT } from '../helpers/paths';
import { closeHttpServer, listen } from '../helpers/client-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { EXAMPLE_PROGRAMS } from './example-files';

const PRODUCER_DOCUMENT = path.join(REPO_ROOT, 'docs', 'examples', 'users-api.yaml');
const CONSUMER_TEST = 'docs/examples/consumer-contract.test.js';
const PRODUCER_APP = 'docs/examples/producer-app.js';

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  // The provider's side: its document is registered before any consumer test runs.
  const provider = new ContractValidator(server.address);
  try {
    await provider.registerSchema('users-api', PRODUCER_DOCUMENT);
  } finally {
    provider.close();
  }
});

after(async () => {
  await server.close();
});

test('this test runs every example program listed for it', () => {
  const mine = Object.entries(EXAMPLE_PROGRAMS).filter(([, runner]) => runner === 'test/docs/client-examples.test.ts').map(([file]) => file);
  assert.deepEqual(mine.sort(), [CONSUMER_TEST, PRODUCER_APP].sort());
  for (const file of mine) assert.ok(fs.existsSync(path.join(REPO_ROOT, file)), `${file} is missing`);
});

test('the consumer example passes as a node:test file, against the registered schema', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=spec', CONSUMER_TEST], {
    cwd: REPO_ROOT,
    // Without NODE_TEST_CONTEXT the child reports like a top-level `node --test`, not to this runner.
    env: { ...withoutTestContext(process.env), SVC_ADDRESS: server.address },
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    assert.fail(`the consumer example failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  assert.match(stdout, /pass 2/);
  assert.match(stdout, /registered \[\s*\{ method: 'GET', path: '\/users\/\{id\}', usedFields: \[ 'id', 'name' \] \}\s*\]/);
  const consumers = await server.client.call('ListConsumers', { schema_id: 'users-api', environment: 'dev' });
  assert.deepEqual(consumers.consumers.map((consumer: { consumer_id: string; schema_version: string }) => [consumer.consumer_id, consumer.schema_version]), [['web-app', '1.0.0']]);
  const schemas = await server.client.call('ListSchemas', {});
  assert.equal(schemas.total_count, 1, 'the consumer test registers no schema of its own');
});

test('the producer example enforces its contract in strict mode and passes undocumented routes to the app', async () => {
  process.env.SVC_ADDRESS = server.address;
  process.env.CONTRACT_MODE = 'strict';
  const example = require(path.join(REPO_ROOT, PRODUCER_APP));
  const app = http.createServer(example.app);
  const url = await listen(app);
  try {
    const post = (body: unknown) => fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post({ name: 'Grace' })).status, 201);
    const rejected = await post({ nickname: 'Grace' });
    assert.equal(rejected.status, 400);
    assert.ok(((await rejected.json()) as { errors: string[] }).errors.includes('request body: property "name" is required'));
    assert.equal((await fetch(`${url}/users/42`)).status, 200);
    assert.equal((await fetch(`${url}/health`)).status, 200, 'an undocumented route reaches the app');
    assert.equal((await fetch(`${url}/internal/status`)).status, 404, 'an excluded path reaches the app unchecked');
    await example.contract.flush();
    assert.deepEqual(example.violationsByPhase, { request: 1, response: 0, interaction: 0 });
    const stats = example.contract.stats();
    assert.equal(stats.undocumented, 1, 'GET /health is not in the document');
    assert.equal(stats.skipped, 1, '/internal/** is excluded');
  } finally {
    await closeHttpServer(app);
    example.validator.close();
    delete process.env.SVC_ADDRESS;
    delete process.env.CONTRACT_MODE;
  }
});

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _ignored, ...rest } = env;
  return rest;
}
