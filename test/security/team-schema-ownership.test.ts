/**
 * A key limited to a team never writes into another team's schema: neither a new version naming its
 * own team (which took the schema over: its latest version, its listing by team, and its owners'
 * later registrations refused), nor a version registered again, checked when the write happens.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { apiKeyMetadata, startServerWithKeysFile, type KeyedTestServer } from '../helpers/api-keys';
import { ordersApi } from '../helpers/orders-api';
import { captureLogs } from '../helpers/log-capture';

const KEYS = [
  { name: 'identity-ci', key: 'identity-key-000001', scopes: ['read', 'schemas'], team: 'identity' },
  { name: 'payments-ci', key: 'payments-key-000001', scopes: ['read', 'schemas'], team: 'payments' },
  { name: 'ops', key: 'ops-key-00000000001', scopes: ['admin'] },
];

describe('team-limited keys and other teams\' schemas', () => {
  let server: KeyedTestServer;
  const logs = captureLogs('info');
  const as = (name: string) => {
    const metadata = apiKeyMetadata(KEYS.find((key) => key.name === name)!.key);
    return <R = any>(method: string, request: object) => server.client.call<R>(method, request, { metadata });
  };
  const register = (name: string, version: string, team?: string, content = ordersApi()) => as(name)('RegisterSchema', {
    schema_id: 'payments-api', schema_version: version, schema_content: content, ...(team === undefined ? {} : { ownership: { owner: 'x', team } }),
  });
  const deniedOtherTeam = { code: status.PERMISSION_DENIED, details: /^API key "identity-ci" may register only schemas of team identity; payments-api belongs to team payments/ };

  before(async () => {
    server = await startServerWithKeysFile(KEYS, { logger: logs.logger });
  });
  after(() => server.close());

  test('a new version naming its own team, or the same version again, is refused and nothing changes', async () => {
    assert.equal((await register('payments-ci', '1.0.0', 'payments')).success, true);
    await assert.rejects(register('identity-ci', '1.1.0', 'identity'), deniedOtherTeam);
    await assert.rejects(register('identity-ci', '1.0.0', 'identity', ordersApi({ withoutDelete: true })), deniedOtherTeam);
    const latest = await as('ops')('GetSchema', { schema_id: 'payments-api' });
    assert.equal(latest.metadata.schema_version, '1.0.0');
    assert.equal(latest.metadata.ownership.team, 'payments');
    assert.equal(latest.metadata.updated_at, latest.metadata.registered_at, 'the version was not registered again');
    assert.equal((await register('payments-ci', '1.2.0')).success, true, 'its owners still register it');
  });

  test('a version of another team is refused under the write lock even when the latest is the key\'s team', async () => {
    assert.equal((await register('ops', '2.0.0', 'identity')).success, true, 'an admin hands the schema over');
    // 1.0.0 still belongs to payments; inherited ownership would have kept it theirs with the new content.
    await assert.rejects(register('identity-ci', '1.0.0', undefined, ordersApi({ withoutDelete: true })), deniedOtherTeam);
    assert.equal((await as('ops')('GetSchema', { schema_id: 'payments-api', schema_version: '1.0.0' })).metadata.ownership.team, 'payments');
    assert.equal((await register('identity-ci', '2.1.0')).success, true, 'new versions of the schema it now owns');
    const refusals = logs.lines().filter((line) => line.event_type === 'permission_denied');
    assert.deepEqual(refusals.map((line) => `${line.actor}:${line.schemaId}`), ['identity-ci:payments-api', 'identity-ci:payments-api', 'identity-ci:payments-api']);
  });
});
