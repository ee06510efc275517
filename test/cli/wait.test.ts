import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { lines, runSvc, runSvcInProcess, unusedPort } from './run-svc';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});

after(async () => {
  await server.close();
});

test('wait (child process): a serving server is ready at once (exit 0)', async () => {
  const { code, stdout, stderr } = await runSvc(['wait', '--server', server.address]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  const out = lines(stdout);
  assert.equal(out.length, 2);
  assert.match(out[1]!, new RegExp(`^The svc server at ${server.address} is ready \\(after \\d+\\.\\d s, 1 check\\)$`));
});

test('wait: --quiet prints nothing, --json prints the outcome', async () => {
  assert.deepEqual(await runSvcInProcess(['wait', '-S', server.address, '-q']), { code: 0, stdout: '', stderr: '' });
  const json = await runSvcInProcess(['wait', '-S', server.address, '-j']);
  assert.equal(json.code, 0);
  const outcome = JSON.parse(json.stdout);
  assert.equal(outcome.ready, true);
  assert.equal(outcome.server, server.address);
  assert.equal(outcome.attempts, 1);
});

test('wait (child process): time-out after --timeout, polling every --interval, one line on stderr (exit 1)', async () => {
  const port = await unusedPort();
  const started = Date.now();
  const { code, stdout, stderr } = await runSvc(['wait', '-S', `127.0.0.1:${port}`, '--timeout', '1', '--interval', '0.25', '--quiet']);
  const elapsed = Date.now() - started;
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(lines(stderr).length, 1);
  assert.match(stderr, new RegExp(`^svc wait: the svc server at 127\\.0\\.0\\.1:${port} was not ready within 1 s \\((\\d+) checks; last: UNAVAILABLE: `));
  const checks = Number(/\((\d+) checks/.exec(stderr)![1]);
  assert.ok(checks >= 3 && checks <= 5, `${checks} checks in 1 s at 0.25 s intervals`);
  assert.ok(elapsed < 5_000, `returned after ${elapsed} ms`);

  const json = await runSvcInProcess(['wait', '-S', `127.0.0.1:${port}`, '-t', '0.3', '-i', '0.1', '--json']);
  assert.equal(json.code, 1);
  const outcome = JSON.parse(json.stdout);
  assert.equal(outcome.ready, false);
  assert.match(outcome.error, /^UNAVAILABLE: /);
});

test('wait: a server that comes up while waiting is found (no reconnect back-off in the way)', async () => {
  const port = await unusedPort();
  const waiting = runSvcInProcess(['wait', '-S', `127.0.0.1:${port}`, '-t', '15', '-i', '0.2', '-q']);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const late = await startTestServer({ port });
  try {
    const started = Date.now();
    const result = await waiting;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(Date.now() - started < 3_000, 'noticed within a few intervals of coming up');
  } finally {
    await late.close();
  }
});

test('wait: bad values are usage errors (exit 2)', async () => {
  for (const args of [['wait', '--interval', 'soon'], ['wait', '-t', '-1'], ['wait', '--bogus']]) {
    const result = await runSvcInProcess(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(lines(result.stderr).length, 1);
    assert.match(result.stderr, /^svc wait: .*\(see "svc wait --help"\)\n$/);
  }
});
