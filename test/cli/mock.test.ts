/**
 * `svc mock`: real HTTP requests on 127.0.0.1. A valid request gets a response that validates against
 * the document; an invalid one 400 with the violations; `Prefer: code=` picks the status.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import { MOCK_ERROR_HEADER, MockServer } from '../../src/cli/mock/mock-server';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { CompiledContract } from '../../src/shared/validation';
import { SVC_BIN, cliFixture } from './run-svc';

let mock: MockServer;
let contract: CompiledContract;

before(async () => {
  const { document } = await loadSchema(fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8'));
  mock = await MockServer.start(document, { port: 0 });
  contract = new CompiledContract(document);
});

after(async () => {
  await mock.close();
  await mock.close(); // idempotent
  contract.close();
});

async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers };
  const response = await fetch(`${mock.url}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}

test('a valid request gets a generated response that validates against the document', async () => {
  for (const [method, path, body] of [['GET', '/users/42', undefined], ['POST', '/users', { name: 'Ada', email: 'ada@example.com' }], ['GET', '/status', undefined]] as const) {
    const response = await call(method, path, { body });
    assert.ok(response.status >= 200 && response.status < 300, `${method} ${path}: ${response.status} ${response.body}`);
    assert.equal(response.headers[MOCK_ERROR_HEADER], undefined);
    const outcome = contract.validateInteraction({
      request: { method, path, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? '' : JSON.stringify(body) },
      response: { statusCode: response.status, headers: response.headers, body: response.body },
    });
    assert.deepEqual(outcome.errors, [], `${method} ${path}`);
  }
});

test('an invalid request gets 400 with the violations; an unknown route 404', async () => {
  const invalid = await call('POST', '/users', { body: { email: 42 } });
  assert.equal(invalid.status, 400);
  assert.equal(invalid.headers[MOCK_ERROR_HEADER], 'true');
  const answer = JSON.parse(invalid.body);
  assert.equal(answer.error, 'the request does not match the document');
  assert.ok(answer.violations.includes('request body: property "name" is required'), answer.violations.join('; '));

  const badParameter = await call('GET', '/users/abc');
  assert.equal(badParameter.status, 400);
  assert.deepEqual(JSON.parse(badParameter.body).violations, ['parameter "id" in path: value "abc" is not a valid integer']);

  const unknown = await call('GET', '/nothing/here');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers[MOCK_ERROR_HEADER], 'true');
});

test('Prefer: code= picks a documented status; an undocumented one is refused with 400', async () => {
  const notFound = await call('GET', '/users/42', { headers: { prefer: 'code=404' } });
  assert.equal(notFound.status, 404);
  assert.equal(notFound.headers[MOCK_ERROR_HEADER], undefined);
  const outcome = contract.validateInteraction({
    request: { method: 'GET', path: '/users/42', headers: {}, body: '' },
    response: { statusCode: 404, headers: notFound.headers, body: notFound.body },
  });
  assert.deepEqual(outcome.errors, []);

  const teapot = await call('GET', '/users/42', { headers: { prefer: 'code=418' } });
  assert.equal(teapot.status, 400);
  assert.equal(teapot.headers[MOCK_ERROR_HEADER], 'true');
});

test('svc mock (child process): prints where it listens, answers, and exits 0 on SIGTERM', async () => {
  const child = spawn(process.execPath, [SVC_BIN, 'mock', '--schema', cliFixture('users-v1.yaml'), '--port', '0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  try {
    const [chunk] = await once(child.stdout!, 'data');
    const listening = JSON.parse(String(chunk)) as { url: string; operations: number };
    assert.equal(listening.operations, 4);
    const response = await fetch(`${listening.url}/users/7`);
    assert.equal(response.status, 200);
    assert.equal(typeof ((await response.json()) as { id: unknown }).id, 'number');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
});
