/**
 * API-key authentication (`serve --api-key-auth`): every refusal is UNAUTHENTICATED with its reason
 * counted, valid keys pass in both metadata forms, health stays open, the key's name (never the
 * key) is the audit actor, no key ever reaches a log line, and SIGHUP reloads the key file.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ApiKeyConfigError } from '../../src/main/auth/api-key-sources';
import { minimalDocument } from '../helpers/documents';
import { checkHealth } from '../helpers/health';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { REPO_ROOT } from '../helpers/paths';
import { createTestClient, makeTempDir, spawnServerProcess, startTestServer, type TestServer } from '../helpers/server';

const CI_KEY = 'ci-key-7Qm2xV9pLr4sT8wZ';
const LIST_KEY = 'list-key-Hf3kP0aN6yB1cD5e';
const EXPIRED_KEY = 'old-key-Zt5uW2qE8rY4iO6p';
const LONG_KEY = 'k'.repeat(10_000);

function metadata(entries: Record<string, string | string[]>): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [name, values] of Object.entries(entries)) for (const value of [values].flat()) md.add(name, value);
  return md;
}

function writeKeyFile(dir: string, entries: object[]): string {
  const file = path.join(dir, 'keys.json');
  fs.writeFileSync(file, JSON.stringify(entries));
  return file;
}

describe('API-key authentication', () => {
  let dir: string;
  let t: TestServer;
  let logs: CapturedLogs;
  before(async () => {
    dir = makeTempDir('svc-auth-');
    logs = captureLogs('debug');
    const keyFile = writeKeyFile(dir, [
      { name: 'ci', key: CI_KEY },
      { name: 'retired', key: EXPIRED_KEY, expiresAt: '2001-01-01T00:00:00Z' },
      { name: 'later', key: 'later-key-4Gh7Jk1Lm3Nb', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
    ]);
    t = await startTestServer({ apiKeyAuth: true, logger: logs.logger, env: { SVC_API_KEYS_FILE: keyFile, SVC_API_KEYS: LIST_KEY } });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function refusedWith(md: grpc.Metadata, reason: 'missing_key' | 'invalid_key', details: RegExp): Promise<void> {
    const before = await scrapeMetrics(t.server.metricsPort!);
    await assert.rejects(t.client.call('ListSchemas', {}, { metadata: md }), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.UNAUTHENTICATED);
      assert.match(error.details, details);
      return true;
    });
    const after = await scrapeMetrics(t.server.metricsPort!);
    assert.equal(after.value('svc_auth_failure_total', { reason }) - before.value('svc_auth_failure_total', { reason }), 1, `${reason} counted once`);
    assert.equal(after.value('svc_auth_success_total') - before.value('svc_auth_success_total'), 0);
    assert.equal(after.value('svc_grpc_requests_total', { method: 'ListSchemas', status: 'UNAUTHENTICATED' })
      - before.value('svc_grpc_requests_total', { method: 'ListSchemas', status: 'UNAUTHENTICATED' }), 1);
  }

  it('refuses a call without a key as missing_key', async () => {
    await refusedWith(new grpc.Metadata(), 'missing_key', /^API key required/);
  });

  it('refuses empty keys in either form as missing_key', async () => {
    await refusedWith(metadata({ 'x-api-key': '' }), 'missing_key', /^API key required/);
    await refusedWith(metadata({ authorization: 'Bearer ' }), 'missing_key', /^API key required/);
  });

  it('refuses a key whose last byte is wrong as invalid_key', async () => {
    const wrong = CI_KEY.slice(0, -1) + (CI_KEY.endsWith('Z') ? 'Y' : 'Z');
    await refusedWith(metadata({ 'x-api-key': wrong }), 'invalid_key', /^invalid API key$/);
    await refusedWith(metadata({ authorization: `Bearer ${wrong}` }), 'invalid_key', /^invalid API key$/);
  });

  it('refuses an expired key as invalid_key, and says it expired only in the audit line', async () => {
    logs.clear();
    await refusedWith(metadata({ 'x-api-key': EXPIRED_KEY }), 'invalid_key', /^invalid API key$/);
    const audit = logs.lines().find((line) => line.event_type === 'auth_failure');
    assert.ok(audit, 'auth_failure audit line written');
    assert.equal(audit.audit, true);
    assert.equal(audit.reason, 'invalid_key');
    assert.equal(audit.detail, 'expired key');
    assert.equal(audit.keyName, 'retired');
    assert.equal(audit.operation, 'ListSchemas');
  });

  it('refuses a 10,000-character key as invalid_key', async () => {
    await refusedWith(metadata({ 'x-api-key': LONG_KEY }), 'invalid_key', /^invalid API key$/);
  });

  it('refuses other authorization schemes and two different keys as invalid_key', async () => {
    await refusedWith(metadata({ authorization: `Basic ${Buffer.from(`u:${CI_KEY}`).toString('base64')}` }), 'invalid_key', /Bearer scheme/);
    await refusedWith(metadata({ 'x-api-key': CI_KEY, authorization: `Bearer ${LIST_KEY}` }), 'invalid_key', /more than one API key/);
  });

  it('accepts a valid key in x-api-key and as a Bearer token, from the file and from SVC_API_KEYS', async () => {
    const before = await scrapeMetrics(t.server.metricsPort!);
    for (const md of [
      metadata({ 'x-api-key': CI_KEY }),
      metadata({ authorization: `Bearer ${CI_KEY}` }),
      metadata({ authorization: `bearer ${LIST_KEY}` }),
      metadata({ 'x-api-key': 'later-key-4Gh7Jk1Lm3Nb' }),
      metadata({ 'x-api-key': CI_KEY, authorization: `Bearer ${CI_KEY}` }),
    ]) {
      const response = await t.client.call('ListSchemas', {}, { metadata: md });
      assert.equal(response.total_count, 0);
    }
    const after = await scrapeMetrics(t.server.metricsPort!);
    assert.equal(after.value('svc_auth_success_total') - before.value('svc_auth_success_total'), 5);
    assert.equal(after.value('svc_auth_failure_total') - before.value('svc_auth_failure_total'), 0);
  });

  it('keeps the health service open without a key', async () => {
    assert.equal(await checkHealth(t.address), 'SERVING');
    assert.equal(await checkHealth(t.address, 'svc.ContractValidator'), 'SERVING');
  });

  it('requires a key for server reflection', async () => {
    const listServices = Buffer.from([0x3a, 0x00]); // ServerReflectionRequest{list_services: ""}
    const reflect = (md: grpc.Metadata) => new Promise<Buffer>((resolve, reject) => {
      const raw = new grpc.Client(t.address, grpc.credentials.createInsecure());
      const call = raw.makeBidiStreamRequest('/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', (b: Buffer) => b, (b: Buffer) => b, md);
      call.on('data', (message: Buffer) => { resolve(message); call.end(); });
      call.on('error', reject);
      call.on('end', () => raw.close());
      call.write(listServices);
    });
    await assert.rejects(reflect(new grpc.Metadata()), { code: grpc.status.UNAUTHENTICATED });
    const answer = await reflect(metadata({ 'x-api-key': CI_KEY }));
    assert.ok(answer.includes(Buffer.from('svc.ContractValidator')), 'reflection lists the service');
  });

  it('names the key (never the key itself) as the actor of audit events', async () => {
    logs.clear();
    const response = await t.client.call('RegisterSchema', { schema_id: 'audited', schema_content: minimalDocument() }, { metadata: metadata({ 'x-api-key': CI_KEY }) });
    assert.equal(response.success, true, response.message);
    const audit = logs.lines().find((line) => line.event_type === 'schema_registered');
    assert.ok(audit);
    assert.equal(audit.actor, 'ci');
    assert.equal(audit.schemaId, 'audited');
    assert.equal(audit.schemaVersion, '1.0.0');
    assert.match(String(audit.peer), /^127\.0\.0\.1:\d+$/);
  });

  it('never writes a key or an authorization value to the log', () => {
    const text = logs.text();
    assert.ok(text.length > 0);
    for (const secret of [CI_KEY, LIST_KEY, EXPIRED_KEY, LONG_KEY.slice(0, 64), CI_KEY.slice(0, -1), 'Bearer ', 'later-key-4Gh7Jk1Lm3Nb']) {
      assert.equal(text.includes(secret), false, `log output contains ${secret.slice(0, 12)}…`);
    }
  });
});

describe('API-key configuration at start-up', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('svc-auth-config-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses to start with --api-key-auth and no keys', async () => {
    await assert.rejects(startTestServer({ apiKeyAuth: true, env: {} }), (error: Error) =>
      error instanceof ApiKeyConfigError && /no keys are configured: set SVC_API_KEYS .* or SVC_API_KEYS_FILE/.test(error.message));
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/svc.js'), 'serve', '--api-key-auth', '--storage', 'memory',
      '--host', '127.0.0.1', '--port', '0', '--metrics-port', '0'], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, SVC_API_KEYS: '', SVC_API_KEYS_FILE: '' } });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^svc serve: API key authentication is on but no keys are configured/);
  });

  it('names the file and the entry of an unusable key file', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"name": "a", "key": "k"}', /expected a JSON array/],
      ['[{"name": "a", "key": "k"', /not valid JSON/],
      ['[{"name": "a"}]', /entry 1 \("a"\): "key" must be a string/],
      ['[{"name": "a", "key": "has space"}]', /entry 1 \("a"\): a key must be non-empty visible ASCII/],
      ['[{"name": "a", "key": "k1"}, {"name": "a", "key": "k2"}]', /name "a" is used twice/],
      ['[{"name": "a", "key": "k1"}, {"name": "b", "key": "k1"}]', /"b" repeats a key/],
      ['[{"name": "a", "key": "k1", "expiresAt": "someday"}]', /"expiresAt" must be an ISO 8601 date-time or Unix seconds/],
      ['[{"name": "a", "key": "k1", "role": "admin"}]', /entry 1: a field other than "name", "key"/],
    ];
    for (const [content, expected] of cases) {
      const file = path.join(dir, 'keys.json');
      fs.writeFileSync(file, content);
      await assert.rejects(startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS_FILE: file } }), (error: Error) =>
        error instanceof ApiKeyConfigError && error.message.startsWith(`SVC_API_KEYS_FILE ${file}`) === !/twice|repeats/.test(expected.source)
        && expected.test(error.message));
    }
    await assert.rejects(startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS_FILE: path.join(dir, 'absent.json') } }),
      /SVC_API_KEYS_FILE .*absent\.json: cannot read the file: ENOENT/);
  });
});

describe('API-key reload on SIGHUP', () => {
  it('swaps the key set, and keeps it when the new file is unusable', async () => {
    const dir = makeTempDir('svc-auth-reload-');
    const keyFile = writeKeyFile(dir, [{ name: 'first', key: 'first-key-Aa1Bb2Cc3Dd4' }]);
    const server = await spawnServerProcess({ storage: 'memory', args: ['--api-key-auth'], env: { SVC_API_KEYS_FILE: keyFile, SVC_API_KEYS: '' } });
    const client = createTestClient(server.address);
    const status = (key: string) => client.call('ListSchemas', {}, { metadata: metadata({ 'x-api-key': key }) })
      .then(() => 'OK', (error: grpc.ServiceError) => grpc.status[error.code]);
    const reloads = () => server.output.filter((line) => line.includes('"event_type":"api_keys_reloaded"')).length;
    const waitForReload = async (count: number) => {
      const deadline = Date.now() + 5_000;
      while (reloads() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(reloads(), count, 'reload audited');
    };
    try {
      assert.equal(await status('first-key-Aa1Bb2Cc3Dd4'), 'OK');
      assert.equal(await status('second-key-Ee5Ff6Gg7Hh8'), 'UNAUTHENTICATED');

      writeKeyFile(dir, [{ name: 'second', key: 'second-key-Ee5Ff6Gg7Hh8' }]);
      server.child.kill('SIGHUP');
      await waitForReload(1);
      assert.equal(await status('second-key-Ee5Ff6Gg7Hh8'), 'OK');
      assert.equal(await status('first-key-Aa1Bb2Cc3Dd4'), 'UNAUTHENTICATED');

      fs.writeFileSync(keyFile, '[{"name": "half-writt');
      server.child.kill('SIGHUP');
      await waitForReload(2);
      assert.equal(await status('second-key-Ee5Ff6Gg7Hh8'), 'OK', 'previous keys stay in force');
      const failure = JSON.parse(server.output.filter((line) => line.includes('"event_type":"api_keys_reloaded"'))[1]!);
      assert.equal(failure.outcome, 'failure');
      assert.match(failure.error, /not valid JSON/);
      assert.ok(server.output.every((line) => !line.includes('second-key-Ee5Ff6Gg7Hh8') && !line.includes('first-key-Aa1Bb2Cc3Dd4')));
    } finally {
      client.close();
      assert.equal(await server.stop(), 0);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
