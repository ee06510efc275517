/**
 * Structured logs: every line is one JSON object with `level`, `ts` (Unix seconds, fractional),
 * `caller` and `msg`; call lines carry the operation context (`schemaId`, `method`, `path`);
 * LOG_LEVEL debug/info/warn/error each takes effect in a real `svc serve`; audit lines survive
 * every level but the errors-only one.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { ConfigError, LOG_LEVELS, resolveServerConfig, type LogLevel } from '../../src/main/config';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { checkHealth } from '../helpers/health';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture';
import { createTestClient, startTestServer, type TestServer } from '../helpers/server';
import { SVC_BIN, unusedPort } from '../cli/run-svc';

const LEVEL_ORDER: Record<string, number> = { debug: 20, info: 30, warn: 40, error: 50 };

function assertLineShape(line: Record<string, unknown>): void {
  assert.ok(typeof line.level === 'string' && line.level in LEVEL_ORDER, `level ${String(line.level)}`);
  assert.equal(typeof line.ts, 'number');
  assert.ok(Math.abs((line.ts as number) - Date.now() / 1000) < 120, 'ts is Unix seconds');
  assert.ok(typeof line.caller === 'string' && line.caller !== '', 'caller');
  assert.ok(typeof line.msg === 'string' && line.msg !== '', 'msg');
}

describe('log lines of a session', () => {
  let t: TestServer;
  let logs: CapturedLogs;
  before(async () => {
    logs = captureLogs('debug');
    t = await startTestServer({ logger: logs.logger });
    await t.client.call('RegisterSchema', { schema_id: 'users', schema_content: readSchemaFixture('users-3.0.json') });
    await t.client.call('RegisterSchema', { schema_id: 'broken', schema_content: '{"openapi": "3.0.0"}' });
    await t.client.call('GenerateFixture', { schema_id: 'users', method: 'GET', path: '/users/{id}' }).catch(() => undefined);
    await t.client.call('ListEndpoints', { schema_id: 'nobody' }).catch(() => undefined);
    await t.client.call('ValidateInteraction', {
      schema_id: 'users', request: { method: 'GET', path: '/v1/users/1', headers: { authorization: 'Bearer interaction-secret-9Xy' } },
      response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"id": 1}' },
    }).catch(() => undefined);
  });
  after(() => t.close());

  it('writes one JSON object per line with level, ts, caller and msg', () => {
    const text = logs.text();
    const lines = text.split('\n').filter((line) => line !== '');
    assert.ok(lines.length >= 6, `${lines.length} lines`);
    for (const raw of lines) assertLineShape(JSON.parse(raw));
    assert.ok(lines.some((raw) => /"ts":\d+\.\d+/.test(raw)), 'ts carries fractional seconds');
  });

  it('puts the operation context on call lines', () => {
    const calls = logs.lines().filter((line) => line.caller === 'rpc');
    const register = calls.find((line) => line.operation === 'RegisterSchema' && line.schemaId === 'users');
    assert.ok(register, 'RegisterSchema call line');
    assert.equal(register.code, 'OK');
    assert.equal(typeof register.durationMs, 'number');
    const fixture = calls.find((line) => line.operation === 'GenerateFixture');
    assert.ok(fixture);
    assert.deepEqual([fixture.schemaId, fixture.method, fixture.path], ['users', 'GET', '/users/{id}']);
    const failed = calls.find((line) => line.operation === 'ListEndpoints');
    assert.ok(failed);
    assert.deepEqual([failed.level, failed.code, failed.schemaId, failed.details], ['info', 'NOT_FOUND', 'nobody', 'Schema not found: nobody']);
    const validation = calls.find((line) => line.operation === 'ValidateInteraction');
    assert.ok(validation);
    assert.deepEqual([validation.schemaId, validation.method], ['users', 'GET']);
  });

  it('logs a refused registration as a warning naming the schema', () => {
    const refused = logs.lines().find((line) => line.level === 'warn' && line.schemaId === 'broken');
    assert.ok(refused);
    assert.match(String(refused.msg), /^registration refused: Invalid schema/);
  });

  it('writes audit lines with audit: true and the event type', () => {
    const audit = logs.lines().find((line) => line.audit === true && line.event_type === 'schema_registered');
    assert.ok(audit);
    assert.deepEqual([audit.caller, audit.actor, audit.schemaId, audit.schemaVersion], ['audit', 'anonymous', 'users', '1.0.0']);
  });

  it('never logs the headers of a validated interaction', () => {
    assert.equal(logs.text().includes('interaction-secret-9Xy'), false);
  });
});

describe('LOG_LEVEL', () => {
  it('is read from the environment and checked', () => {
    for (const level of LOG_LEVELS) assert.equal(resolveServerConfig({}, { LOG_LEVEL: level.toUpperCase() }).logLevel, level);
    assert.throws(() => resolveServerConfig({}, { LOG_LEVEL: 'verbose' }), ConfigError);
  });

  it('filters lines by level in the logger', () => {
    for (const level of LOG_LEVELS) {
      const logs = captureLogs(level);
      logs.logger.debug('d');
      logs.logger.info('i');
      logs.logger.warn('w');
      logs.logger.error('e');
      assert.deepEqual(logs.lines().map((line) => line.level), LOG_LEVELS.filter((l) => LEVEL_ORDER[l]! >= LEVEL_ORDER[level]!));
    }
  });

  it('takes effect in svc serve at each of debug, info, warn and error', async () => {
    // One server at a time: four starting at once beside another test file's work on two cores once
    // took one past its start deadline.
    const outputs: string[][] = [];
    for (const level of LOG_LEVELS) outputs.push(await serveSession(level));
    LOG_LEVELS.forEach((level, i) => {
      const lines = outputs[i]!.map((raw) => JSON.parse(raw) as Record<string, unknown>);
      for (const line of lines) assertLineShape(line);
      const ordinary = lines.filter((line) => line.audit !== true);
      assert.ok(ordinary.every((line) => LEVEL_ORDER[line.level as string]! >= LEVEL_ORDER[level]!), `${level}: nothing below ${level}`);
      const audited = lines.some((line) => line.audit === true && line.event_type === 'schema_registered');
      assert.equal(audited, level !== 'error', `${level}: audit lines written unless LOG_LEVEL=error`);
      const seen = new Set(ordinary.map((line) => line.level));
      if (level === 'debug') assert.ok(seen.has('debug'), 'debug lines at debug');
      if (level === 'debug' || level === 'info') assert.ok(seen.has('info'), `info lines at ${level}`);
      if (level !== 'error') assert.ok(seen.has('warn'), `warn lines at ${level}`);
    });
  });
});

/** Starts of `svc serve` per session: a free port can be taken by another test before the child binds it. */
const PORT_ATTEMPTS = 3;
/** How long one start may take to answer SERVING (module loading and worker threads, on a loaded machine). */
const START_DEADLINE_MS = 45_000;

/** `svc serve` at one LOG_LEVEL: a registration, a refused registration, a failing call; then its stdout lines. */
async function serveSession(level: LogLevel): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const lines = await trySession(level);
    if (lines !== undefined) return lines;
    if (attempt === PORT_ATTEMPTS) throw new Error(`svc serve at LOG_LEVEL=${level} exited before serving, ${PORT_ATTEMPTS} times`);
  }
}

/** One session on a port found free; undefined when the child exits before it serves (its port was taken meanwhile). */
async function trySession(level: LogLevel): Promise<string[] | undefined> {
  const port = await unusedPort();
  const child = spawn(process.execPath, [SVC_BIN, 'serve', '--storage', 'memory', '--host', '127.0.0.1',
    '--port', String(port), '--metrics-port', '0'], { env: { ...process.env, LOG_LEVEL: level, SVC_METRICS_HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => { stdout += chunk; });
  child.stderr!.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const address = `127.0.0.1:${port}`;
  const client = createTestClient(address);
  try {
    const deadline = Date.now() + START_DEADLINE_MS;
    for (;;) {
      // Its own exit first: another server may answer on the port this child could not take.
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const serving = await checkHealth(address).catch(() => 'DOWN');
      if (serving === 'SERVING' && child.exitCode === null) break;
      if (Date.now() > deadline) throw new Error(`svc serve at LOG_LEVEL=${level} on port ${port} did not answer SERVING within ${START_DEADLINE_MS / 1000} s; its stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.call('RegisterSchema', { schema_id: 'logged', schema_content: minimalDocument() });
    await client.call('RegisterSchema', { schema_id: 'logged', schema_content: 'openapi: [' });
    await client.call('ListEndpoints', { schema_id: 'missing' }).catch(() => undefined);
  } finally {
    client.close();
    child.kill('SIGTERM');
    await exited;
  }
  return stdout.split('\n').filter((line) => line !== '');
}
