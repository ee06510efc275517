/**
 * The whole compat corpus over gRPC: each case registered as 1.0.0 (old) and 2.0.0 (new), then
 * CompareSchemas with both versions left empty (previous and latest) must give the expected
 * changes, and RegisterSchema with check_compatibility must report the same ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { changeKeys, loadCompatCorpus } from '../helpers/compat-corpus';
import { startTestServer, type TestServer } from '../helpers/server';

const corpus = loadCompatCorpus();

describe('compat corpus over gRPC', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  for (const compatCase of corpus) {
    test(compatCase.name, async () => {
      const schemaId = `compat-${compatCase.name}`;
      const first = await server.client.call('RegisterSchema', { schema_id: schemaId, schema_version: '1.0.0', schema_content: compatCase.oldText });
      assert.equal(first.success, true, first.message);
      const second = await server.client.call('RegisterSchema', {
        schema_id: schemaId, schema_version: '2.0.0', schema_content: compatCase.newText, check_compatibility: true,
      });
      assert.equal(second.success, true, second.message);
      assert.deepEqual(changeKeys(second.breaking_changes), changeKeys(compatCase.changes));
      assert.match(second.message, new RegExp(`; ${compatCase.changes.length} breaking change\\(s\\) found since 1\\.0\\.0$`));

      const compared = await server.client.call('CompareSchemas', { schema_id: schemaId });
      assert.equal(compared.message, '');
      assert.equal(compared.compatible, compatCase.changes.length === 0);
      assert.equal(compared.old_schema.schema_version, '1.0.0');
      assert.equal(compared.new_schema.schema_version, '2.0.0');
      assert.deepEqual(changeKeys(compared.breaking_changes), changeKeys(compatCase.changes));
      compatCase.changes.forEach((expected, index) => {
        if (expected.where) assert.ok(compared.breaking_changes[index].description.includes(expected.where), compared.breaking_changes[index].description);
      });
    });
  }
});
