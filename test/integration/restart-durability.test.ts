/** Schemas registered through `svc serve` on SQLite are all there, byte for byte, after a restart. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { createTestClient, makeTempDir, spawnServerProcess } from '../helpers/server';

describe('restart durability (SQLite)', () => {
  const dataDir = makeTempDir('svc-restart-');
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps every version, its content, hash, metadata and latest/previous order', async () => {
    const registrations = [
      { schema_id: 'users', schema_content: readSchemaFixture('users-3.0.json'), schema_version: '1.0.0', ownership: { owner: 'alice', team: 'identity', contact_email: 'a@example.com', read_only: true } },
      { schema_id: 'users', schema_content: minimalDocument('1.1.0'), schema_version: '1.1.0' },
      { schema_id: 'users', schema_content: minimalDocument('1.0.1'), schema_version: '1.0.1' },
      { schema_id: 'pets', schema_content: readSchemaFixture('pets-2.0-basepath.json') },
      { schema_id: 'orders', schema_content: readSchemaFixture('orders-3.1.yaml') },
    ];

    const first = await spawnServerProcess({ dataDir });
    const client = createTestClient(first.address);
    const registered: Array<{ schema_version: string }> = [];
    for (const request of registrations) {
      const response = await client.call('RegisterSchema', request);
      assert.equal(response.success, true, response.message);
      registered.push(response.metadata);
    }
    client.close();
    assert.equal(await first.stop('SIGTERM'), 0, 'graceful stop exits 0');

    const second = await spawnServerProcess({ dataDir });
    const again = createTestClient(second.address);
    try {
      for (const [i, request] of registrations.entries()) {
        const got: { found: boolean; schema_content: string; metadata: unknown } = await again.call('GetSchema', { schema_id: request.schema_id, schema_version: registered[i].schema_version });
        assert.equal(got.found, true);
        assert.equal(got.schema_content, request.schema_content);
        assert.deepEqual(got.metadata, registered[i]);
      }
      const latest = await again.call('GetSchema', { schema_id: 'users' });
      assert.equal(latest.metadata.schema_version, '1.1.0');
      const listed = await again.call('ListSchemas', {});
      assert.deepEqual(listed.schemas.map((s: { schema_id: string }) => s.schema_id), ['orders', 'pets', 'users']);
      const endpoints = await again.call('ListEndpoints', { schema_id: 'pets' });
      assert.equal(endpoints.endpoints.length, 2, 'the converted document is usable after the restart');
      const readOnly = await again.call('RegisterSchema', { ...registrations[0], schema_content: minimalDocument('1.0.0') });
      assert.equal(readOnly.success, false, 'read-only survives the restart');
    } finally {
      again.close();
      await second.stop();
    }
  });
});
