/**
 * The recording limits an operator sets on `svc serve` (--recording-max-usage-keys,
 * --recording-retention-days and their SVC_* variables) reach the usage registry, and bad values are
 * refused at start naming the option; `--metrics-port=-1` turns the metrics server off as documented.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, resolveServerConfig } from '../../src/main/config';
import { runSvc } from '../cli/run-svc';
import { recordInteractions } from '../helpers/recording';
import { spawnServerProcess, startTestServer } from '../helpers/server';

const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'people', version: '1.0.0' },
  paths: {
    '/a': { get: { responses: { '200': { description: 'ok' } } } },
    '/b': { get: { responses: { '200': { description: 'ok' } } } },
  },
});

test('a server started with a usage-key limit keeps that many keys and drops the rest, naming maxUsageKeys', async () => {
  const server = await startTestServer({ recordingMaxUsageKeys: 1, recordingRetentionDays: 7 });
  try {
    assert.equal(server.server.context.usage.limits.maxUsageKeys, 1);
    assert.equal(server.server.context.usage.limits.retentionMs, 7 * 24 * 3600 * 1000);
    await server.client.call('RegisterSchema', { schema_id: 'people', schema_content: DOCUMENT, schema_version: '1.0.0' });
    const interaction = (path: string) => ({
      schema_id: 'people', schema_version: '1.0.0', environment: 'prod', consumer_id: 'web',
      request: { method: 'GET', path, headers: {}, body: '' }, response: { status_code: 200, headers: {}, body: '' }, valid: true,
    });
    const answer = await recordInteractions(server.client, [interaction('/a'), interaction('/b')]);
    assert.deepEqual(answer, { accepted: 1, dropped: 1, message: 'not kept: 1 over the limit of 1 usage rows (maxUsageKeys)' });
  } finally {
    await server.close();
  }
});

test('recording options come from SVC_* variables and are checked at start', async () => {
  const config = resolveServerConfig({}, { SVC_RECORDING_RETENTION_DAYS: '90', SVC_RECORDING_MAX_USAGE_KEYS: '50000' });
  assert.equal(config.recordingRetentionDays, 90);
  assert.equal(config.recordingMaxUsageKeys, 50_000);
  assert.throws(() => resolveServerConfig({}, { SVC_RECORDING_RETENTION_DAYS: '0' }), (error: Error) => error instanceof ConfigError
    && error.message === 'recordingRetentionDays must be a positive integer (got "0")');
  const refused = await runSvc(['serve', '--recording-max-usage-keys', 'many', '--port', '0', '--metrics-port=-1', '--storage', 'memory']);
  assert.equal(refused.code, 2, 'a usage error');
  assert.match(refused.stderr + refused.stdout, /--recording-max-usage-keys must be a non-negative integer \(got "many"\)/);
});

test('svc serve takes the recording flags, and --metrics-port=-1 runs without a metrics server', async () => {
  const server = await spawnServerProcess({ storage: 'memory', args: ['--metrics-port=-1', '--recording-retention-days', '3', '--recording-max-usage-keys', '5'] });
  try {
    assert.equal(server.metricsPort, undefined, 'no metrics port in the listening line');
  } finally {
    assert.equal(await server.stop(), 0);
  }
});
