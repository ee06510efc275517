/**
 * The two examples in the README's client section are the files under
 * test/fixtures/client-examples/, shown verbatim, and they run: the consumer test with `node --test`
 * in a child process, the producer app in strict mode with real HTTP calls. They `require('@svc/client')`
 * like users do: the client package is linked into a node_modules folder beside the copies.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, fixturePath } from '../helpers/paths';
import { USERS_V1_YAML, closeHttpServer, listen, startUsersApiServer, type UsersApiServer } from '../helpers/client-fixtures';

const EXAMPLES = ['consumer-contract.test.js', 'producer-app.js'];
/** Inside dist/ so that `require('express')` from the copies finds the project's node_modules. */
const RUN_DIR = path.join(REPO_ROOT, 'dist', 'client-examples');

let api: UsersApiServer;

before(async () => {
  api = await startUsersApiServer();
  fs.rmSync(RUN_DIR, { recursive: true, force: true });
  fs.mkdirSync(path.join(RUN_DIR, 'node_modules', '@svc'), { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'clients', 'node'), path.join(RUN_DIR, 'node_modules', '@svc', 'client'), 'dir');
  for (const name of EXAMPLES) fs.copyFileSync(fixturePath('client-examples', name), path.join(RUN_DIR, name));
  fs.copyFileSync(USERS_V1_YAML, path.join(RUN_DIR, 'users-api.yaml'));
});

after(async () => {
  fs.rmSync(RUN_DIR, { recursive: true, force: true });
  await api.close();
});

test('the README shows each example file verbatim', () => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  for (const name of EXAMPLES) {
    const source = fs.readFileSync(fixturePath('client-examples', name), 'utf8');
    assert.ok(readme.includes(`<!-- example: ${name} -->\n\`\`\`js\n${source}\`\`\``), `${name} is not shown verbatim`);
  }
});

test('the consumer example passes as a node:test file', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=spec', 'consumer-contract.test.js'], {
    cwd: RUN_DIR,
    // Without NODE_TEST_CONTEXT the child reports like a top-level `node --test`, not to this runner.
    env: { ...withoutTestContext(process.env), SVC_ADDRESS: api.address },
    timeout: 60_000,
  }).catch((error: { stdout?: string; stderr?: string }) => {
    assert.fail(`the consumer example failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  assert.match(stdout, /pass 2/);
  assert.match(stdout, /registered \[\s*\{ method: 'GET', path: '\/users\/\{id\}', usedFields: \[ 'id', 'name' \] \}\s*\]/);
});

test('the producer example enforces its contract in strict mode', async () => {
  process.env.SVC_ADDRESS = api.address;
  process.env.CONTRACT_MODE = 'strict';
  const example = require(path.join(RUN_DIR, 'producer-app.js'));
  const server = http.createServer(example.app);
  const url = await listen(server);
  try {
    const post = (body: unknown) => fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal((await post({ name: 'Grace' })).status, 201);
    const rejected = await post({ nickname: 'Grace' });
    assert.equal(rejected.status, 400);
    assert.ok(((await rejected.json()) as { errors: string[] }).errors.includes('request body: property "name" is required'));
    assert.equal((await fetch(`${url}/health`)).status, 200);
    assert.equal((await fetch(`${url}/users/42`)).status, 200);
    await example.contract.flush();
    assert.deepEqual(example.violationsByPhase, { request: 1, response: 0, interaction: 0 });
    assert.equal(example.contract.stats().skipped, 1, '/health is excluded');
  } finally {
    await closeHttpServer(server);
    example.validator.close();
    delete process.env.SVC_ADDRESS;
    delete process.env.CONTRACT_MODE;
  }
});

function withoutTestContext(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _ignored, ...rest } = env;
  return rest;
}
