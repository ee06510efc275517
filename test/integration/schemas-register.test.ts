/** RegisterSchema over gRPC: intake of each OpenAPI line, versions, idempotence, updates, read-only. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('RegisterSchema', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('registers an OpenAPI 3.0 document with full metadata', async () => {
    const content = readSchemaFixture('users-3.0.json');
    const before = Math.floor(Date.now() / 1000);
    const response = await t.client.call('RegisterSchema', {
      schema_id: 'users',
      schema_content: content,
      schema_version: '1.0.0',
      ownership: { owner: 'alice', team: 'identity', contact_email: 'alice@example.com' },
    });
    assert.equal(response.success, true, response.message);
    assert.equal(response.message, 'Schema users version 1.0.0 registered');
    const m = response.metadata;
    assert.equal(m.schema_id, 'users');
    assert.equal(m.schema_version, '1.0.0');
    assert.equal(m.schema_hash, sha256(content));
    assert.equal(m.openapi_version, '3.0.3');
    assert.equal(m.endpoint_count, 4);
    assert.ok(m.registered_at >= before && m.registered_at <= before + 5);
    assert.equal(m.updated_at, m.registered_at);
    assert.deepEqual(m.ownership, { owner: 'alice', team: 'identity', contact_email: 'alice@example.com', read_only: false });
  });

  it('converts Swagger 2.0 with basePath and host into servers, reporting 3.0.0', async () => {
    const content = readSchemaFixture('pets-2.0-basepath.json');
    const response = await t.client.call('RegisterSchema', { schema_id: 'pets', schema_content: content });
    assert.equal(response.success, true, response.message);
    assert.equal(response.metadata.schema_version, '2.1.0', 'version taken from info.version');
    assert.equal(response.metadata.openapi_version, '3.0.0');
    assert.equal(response.metadata.endpoint_count, 2);
    const got = await t.client.call('GetSchema', { schema_id: 'pets' });
    assert.equal(got.schema_content, content, 'content is returned exactly as registered');
    const endpoints = await t.client.call('ListEndpoints', { schema_id: 'pets' });
    assert.deepEqual(endpoints.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`), ['POST /pets', 'GET /pets/{petId}']);
  });

  it('accepts an OpenAPI 3.1 YAML document', async () => {
    const response = await t.client.call('RegisterSchema', { schema_id: 'orders', schema_content: readSchemaFixture('orders-3.1.yaml') });
    assert.equal(response.success, true, response.message);
    assert.equal(response.metadata.schema_version, '3.2.1');
    assert.equal(response.metadata.openapi_version, '3.1.0');
    assert.equal(response.metadata.endpoint_count, 1);
  });

  it('is idempotent for identical content and updates for new content', async () => {
    const first = await t.client.call('RegisterSchema', { schema_id: 'idem', schema_content: minimalDocument('1.0.0') });
    assert.equal(first.success, true);
    const again = await t.client.call('RegisterSchema', { schema_id: 'idem', schema_content: minimalDocument('1.0.0') });
    assert.equal(again.success, true);
    assert.equal(again.message, 'Schema idem version 1.0.0 already registered with identical content');
    assert.deepEqual(again.metadata, first.metadata);

    const newContent = minimalDocument('1.0.0', { '/extra': { get: { responses: { 200: { description: 'ok' } } } } });
    const updated = await t.client.call('RegisterSchema', { schema_id: 'idem', schema_content: newContent });
    assert.equal(updated.success, true);
    assert.equal(updated.message, 'Schema idem version 1.0.0 updated');
    assert.equal(updated.metadata.schema_hash, sha256(newContent));
    assert.equal(updated.metadata.endpoint_count, 2);
    assert.equal(updated.metadata.registered_at, first.metadata.registered_at);
    assert.ok(updated.metadata.updated_at >= first.metadata.updated_at);
  });

  it('refuses to update a read-only version, counts it, and still accepts new versions', async () => {
    const ro = { owner: 'bob', team: 'billing', contact_email: '', read_only: true };
    const created = await t.client.call('RegisterSchema', { schema_id: 'locked', schema_content: minimalDocument('1.0.0'), ownership: ro });
    assert.equal(created.success, true);
    const changed = minimalDocument('1.0.0', {}, 'Changed');
    const refused = await t.client.call('RegisterSchema', { schema_id: 'locked', schema_content: changed });
    assert.equal(refused.success, false);
    assert.equal(refused.message, 'schema locked version 1.0.0 is read-only and cannot be updated; register a new version instead');
    const unchanged = await t.client.call('GetSchema', { schema_id: 'locked', schema_version: '1.0.0' });
    assert.equal(unchanged.schema_content, minimalDocument('1.0.0'));

    const metrics = await (await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).text();
    assert.match(metrics, /^svc_read_only_violations_total 1$/m);

    const next = await t.client.call('RegisterSchema', { schema_id: 'locked', schema_content: minimalDocument('1.1.0') });
    assert.equal(next.success, true, next.message);
    assert.equal(next.metadata.ownership.read_only, true, 'ownership is inherited from the latest version');
  });

  it('uses an explicit version as given even when info.version differs', async () => {
    const response = await t.client.call('RegisterSchema', { schema_id: 'explicit', schema_content: minimalDocument('not-semver'), schema_version: '4.0.0-rc.1' });
    assert.equal(response.success, true, response.message);
    assert.equal(response.metadata.schema_version, '4.0.0-rc.1');
  });

  const refusals: Array<[string, object, string | RegExp]> = [
    ['non-semantic explicit version', { schema_id: 'x', schema_content: minimalDocument(), schema_version: '1.0' },
      'schema_version "1.0" is not a semantic version (expected MAJOR.MINOR.PATCH, for example 1.2.3)'],
    ['empty schema id', { schema_id: '', schema_content: minimalDocument() }, 'schema_id is required'],
    ['malformed schema id', { schema_id: 'a b/c', schema_content: minimalDocument() },
      'schema_id "a b/c" is not valid: use letters, digits, \'.\', \'_\' and \'-\', starting with a letter or digit'],
    ['empty content', { schema_id: 'x', schema_content: '' }, 'Invalid schema: content is empty'],
    ['unparsable text', { schema_id: 'x', schema_content: '{"openapi": "3.0.0", ' }, /^Invalid schema: content is neither valid JSON nor YAML: /],
    ['not OpenAPI', { schema_id: 'x', schema_content: 'hello: world' },
      'Invalid schema: not an OpenAPI document: no "openapi: 3.x" or "swagger: 2.0" field at the top level'],
    ['unsupported version', { schema_id: 'x', schema_content: '{"openapi": "4.0.0", "info": {}, "paths": {}}' },
      'Invalid schema: unsupported openapi version "4.0.0" (supported: 2.0, 3.0.x, 3.1.x)'],
    ['structurally invalid document', { schema_id: 'x', schema_content: '{"openapi": "3.0.0", "info": {"title": "t"}, "paths": {}}' },
      /^Invalid schema: not a valid OpenAPI document: .*version/],
  ];
  for (const [name, request, expected] of refusals) {
    it(`refuses ${name} with a clear message`, async () => {
      const response = await t.client.call('RegisterSchema', request);
      assert.equal(response.success, false);
      if (typeof expected === 'string') assert.equal(response.message, expected);
      else assert.match(response.message, expected);
      assert.equal(response.metadata, null);
    });
  }

  it('counts successes and failures by status and error type', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${t.server.metricsPort}/metrics`)).text();
    assert.match(metrics, /^svc_schemas_registered_total\{status="success"\} \d+$/m);
    assert.match(metrics, /^svc_schemas_registered_total\{status="failure"\} \d+$/m);
    assert.match(metrics, /^svc_schema_registration_errors_total\{error_type="invalid_schema"\} [1-9]\d*$/m);
    assert.match(metrics, /^svc_schema_registration_errors_total\{error_type="invalid_argument"\} [1-9]\d*$/m);
    assert.match(metrics, /^svc_schema_versions_total\{schema_id="locked"\} 2$/m);
  });
});
