/**
 * A stream outlives key reloads and expiry (a recording stream runs for the life of an app): each
 * message is let through only while the call's key is still valid, so a key revoked by SIGHUP, or
 * expired, stops recording evidence at once instead of writing into any schema for as long as the
 * stream stays open.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ordersApi } from '../helpers/orders-api';
import { captureLogs } from '../helpers/log-capture';
import { apiKeyMetadata, startServerWithKeysFile, type KeyedTestServer } from '../helpers/api-keys';

const OPS = { name: 'ops', key: 'ops-key-00000000001', scopes: ['admin'] };
const WEB = { name: 'web-app-ci', key: 'web-app-key-0000001', scopes: ['read', 'validate'] };

describe('a key revoked or expired while its stream is open', () => {
  let server: KeyedTestServer;
  const logs = captureLogs('info');
  const interaction = (consumer: string) => ({
    schema_id: 'orders', environment: 'prod', consumer_id: consumer, valid: true,
    request: { method: 'GET', path: '/orders', headers: {}, body: '' }, response: { status_code: 200, headers: {}, body: '[]' },
  });
  /** Sends one interaction, runs `between`, sends three more and ends the stream. */
  const record = (key: string, between: () => Promise<void>) => new Promise<unknown>((resolve, reject) => {
    const raw = server.client.raw as unknown as { RecordInteractions(metadata: grpc.Metadata, cb: (e: grpc.ServiceError | null, r: unknown) => void): grpc.ClientWritableStream<object> };
    const stream = raw.RecordInteractions(apiKeyMetadata(key), (error, answer) => (error ? reject(error) : resolve(answer)));
    stream.write(interaction('before'));
    void between().then(() => {
      for (let i = 0; i < 3; i++) stream.write(interaction('after'));
      stream.end();
    });
  });
  const consumersSeen = async () => {
    const coverage = await server.client.call('GetCoverage', { schema_id: 'orders' }, { metadata: apiKeyMetadata(OPS.key) });
    return coverage.consumers as string[];
  };

  before(async () => {
    server = await startServerWithKeysFile([OPS, WEB], { logger: logs.logger });
    const registered = await server.client.call('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi() }, { metadata: apiKeyMetadata(OPS.key) });
    assert.equal(registered.success, true);
  });
  after(() => server.close());

  test('a key removed by a reload ends its open stream UNAUTHENTICATED; what came before stays', async () => {
    await assert.rejects(record(WEB.key, async () => {
      await sleep(200);
      fs.writeFileSync(server.keysFile, JSON.stringify([OPS]));
      assert.deepEqual(server.server.reloadApiKeys(), { reloaded: true });
    }), { code: grpc.status.UNAUTHENTICATED });
    await server.server.context.usage.flush();
    assert.deepEqual(await consumersSeen(), ['before'], 'kept while the key was valid; none after');
    const failure = logs.lines().find((line) => line.event_type === 'auth_failure' && line.operation === 'RecordInteractions');
    assert.equal(failure?.detail, 'unknown key');
  });

  test('a key that expires while its stream is open is refused from then on', async () => {
    fs.writeFileSync(server.keysFile, JSON.stringify([OPS, { ...WEB, name: 'short-lived', key: 'short-lived-key-0001', expiresAt: new Date(Date.now() + 1_000).toISOString() }]));
    assert.deepEqual(server.server.reloadApiKeys(), { reloaded: true });
    await assert.rejects(record('short-lived-key-0001', () => sleep(1_300)), { code: grpc.status.UNAUTHENTICATED });
    const failure = logs.lines().find((line) => line.event_type === 'auth_failure' && line.keyName === 'short-lived');
    assert.equal(failure?.detail, 'expired key');
  });
});
