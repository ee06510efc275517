/** PurgeRecordings removes the evidence CanIDeploy reads: every purge is an audit line naming the key. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiKeyMetadata, startServerWithKeysFile, type KeyedTestServer } from '../helpers/api-keys';
import { captureLogs } from '../helpers/log-capture';

describe('PurgeRecordings audit', () => {
  let server: KeyedTestServer;
  const logs = captureLogs('info');

  before(async () => {
    server = await startServerWithKeysFile([{ name: 'ops', key: 'ops-key-00000000001', scopes: ['admin'] }], { logger: logs.logger });
  });
  after(() => server.close());

  test('a purge writes recordings_purged with the actor, the filter and the rows removed', async () => {
    const answer = await server.client.call('PurgeRecordings', { schema_id: 'payments-api', consumer_id: 'web' }, { metadata: apiKeyMetadata('ops-key-00000000001') });
    assert.equal(answer.success, true);
    const lines = logs.lines().filter((line) => line.audit === true && line.event_type === 'recordings_purged');
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.actor, 'ops');
    assert.equal(lines[0]!.schemaId, 'payments-api');
    assert.equal(lines[0]!.consumerId, 'web');
    assert.equal(lines[0]!.removed, 0);
  });
});
