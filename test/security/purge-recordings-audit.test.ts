/** PurgeRecordings removes the evidence CanIDeploy reads: every purge is an audit line naming the key. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Metadata } from '@grpc/grpc-js';
import { captureLogs } from '../helpers/log-capture';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

describe('PurgeRecordings audit', () => {
  let server: TestServer;
  let dir: string;
  const logs = captureLogs('info');

  before(async () => {
    dir = makeTempDir('svc-purge-audit-');
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'ops', key: 'ops-key-00000000001', scopes: ['admin'] }]));
    server = await startTestServer({ workerThreads: 1, apiKeyAuth: true, env: { SVC_API_KEYS_FILE: file }, logger: logs.logger });
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a purge writes recordings_purged with the actor, the filter and the rows removed', async () => {
    const metadata = new Metadata();
    metadata.set('x-api-key', 'ops-key-00000000001');
    const answer = await server.client.call('PurgeRecordings', { schema_id: 'payments-api', consumer_id: 'web' }, { metadata });
    assert.equal(answer.success, true);
    const lines = logs.lines().filter((line) => line.audit === true && line.event_type === 'recordings_purged');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.actor, 'ops');
    assert.equal(lines[0]!.schemaId, 'payments-api');
    assert.equal(lines[0]!.consumerId, 'web');
    assert.equal(lines[0]!.removed, 0);
  });
});
