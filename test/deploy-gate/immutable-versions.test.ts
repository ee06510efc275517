/** Published versions can be made immutable (issue 13, item 4); without the option they stay updatable, as the spec says. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ordersApi } from '../helpers/orders-api';
import { startTestServer, type TestServer } from '../helpers/server';
import { caller } from './gate-fixtures';

for (const immutableVersions of [true, false]) {
  describe(`registering a version again ${immutableVersions ? 'with' : 'without'} --immutable-versions`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ workerThreads: 1, immutableVersions });
    });
    after(() => server.close());

    test(immutableVersions ? 'other content is refused, identical content stays idempotent' : 'other content replaces the version', async () => {
      const call = caller(server);
      const first = await call('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi() });
      assert.equal(first.success, true, first.message);
      const same = await call('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi() });
      assert.deepEqual([same.success, same.message], [true, 'Schema orders version 1.0.0 already registered with identical content']);
      const changed = await call('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi({ withoutDelete: true }) });
      const stored = await call('GetSchema', { schema_id: 'orders', schema_version: '1.0.0' });
      if (immutableVersions) {
        assert.equal(changed.success, false);
        assert.match(changed.message, /^schema orders version 1\.0\.0 is already published with other content \(hash [0-9a-f]{12}\) and this server keeps published versions immutable; register the change as a new version$/);
        assert.equal(stored.schema_content, ordersApi());
      } else {
        assert.equal(changed.success, true, changed.message);
        assert.equal(stored.schema_content, ordersApi({ withoutDelete: true }));
      }
    });
  });
}
