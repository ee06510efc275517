/** Versions that are not semantic versions (issue 13, item 6): coerced where clear, else the next patch, always with a warning. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coerceVersion } from '../../src/main/registry/schema-registry';
import { ordersApi } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';
import { caller } from './gate-fixtures';

function withInfoVersion(infoVersion: string, options = {}): string {
  const document = JSON.parse(ordersApi(options));
  document.info.version = infoVersion;
  return JSON.stringify(document);
}

test('coerceVersion reads a version only where the meaning is clear', () => {
  const cases: Array<[string, string | undefined]> = [
    ['1.0', '1.0.0'], ['v2', '2.0.0'], ['V1.2', '1.2.0'], ['v1.2.3-rc.1', '1.2.3-rc.1'], ['3', '3.0.0'], ['01.2', '1.2.0'],
    ['2024-05-01', undefined], ['beta', undefined], ['1.2.3.4', undefined], ['', undefined],
  ];
  for (const [infoVersion, expected] of cases) assert.equal(coerceVersion(infoVersion), expected, infoVersion);
});

describe('version assignment at registration', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
  });
  after(() => server.close());

  test('coerces 1.0 and v2, assigns the next patch otherwise, and says so in a VERSION_ASSIGNED warning', async () => {
    const call = caller(server);
    const register = (infoVersion: string, options = {}) => call('RegisterSchema', { schema_id: 'dated', schema_content: withInfoVersion(infoVersion, options) });

    const coerced = await register('1.0');
    assert.equal(coerced.metadata.schema_version, '1.0.0');
    assert.deepEqual(coerced.warnings.map((w: { code: string; pointer: string }) => [w.code, w.pointer]), [['VERSION_ASSIGNED', '/info/version']]);
    assert.match(coerced.warnings[0].message, /info\.version "1\.0" is not a semantic version; registered as 1\.0\.0/);
    assert.equal((await register('v2', { withAdditions: true })).metadata.schema_version, '2.0.0');

    const dated = await register('2024-05-01', { withoutTotal: true });
    assert.equal(dated.success, true, dated.message);
    assert.equal(dated.metadata.schema_version, '2.0.1');
    assert.match(dated.warnings[0].message, /assigned 2\.0\.1, the next patch version after the latest, 2\.0\.0/);
    const repeated = await register('2024-05-01', { withoutTotal: true });
    assert.equal(repeated.metadata.schema_version, '2.0.1', 'the same document again is the same version');
    assert.equal((await register('2024-06-01', { withoutDelete: true })).metadata.schema_version, '2.0.2');

    const first = await call('RegisterSchema', { schema_id: 'undated', schema_content: withInfoVersion('beta') });
    assert.equal(first.metadata.schema_version, '1.0.0');
    const given = await call('RegisterSchema', { schema_id: 'undated', schema_version: '5.0.0', schema_content: withInfoVersion('beta', { withAdditions: true }) });
    assert.deepEqual([given.metadata.schema_version, given.warnings], ['5.0.0', []]);
  });
});
