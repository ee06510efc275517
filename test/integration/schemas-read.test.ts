/** GetSchema, ListSchemas (filters, paging) and ListEndpoints over gRPC. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';

describe('GetSchema', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    // Registered out of order: latest is decided by semantic version, not by registration order.
    for (const version of ['1.10.0', '1.2.0', '1.9.0', '2.0.0-beta.1']) {
      const r = await t.client.call('RegisterSchema', { schema_id: 'svc-a', schema_content: minimalDocument(version), schema_version: version });
      assert.equal(r.success, true, r.message);
    }
  });
  after(async () => t.close());

  it('returns the latest version by semantic-version order when no version is given', async () => {
    const response = await t.client.call('GetSchema', { schema_id: 'svc-a' });
    assert.equal(response.found, true);
    assert.equal(response.metadata.schema_version, '2.0.0-beta.1');
    assert.equal(response.schema_content, minimalDocument('2.0.0-beta.1'));
  });

  it('returns the version asked for', async () => {
    const response = await t.client.call('GetSchema', { schema_id: 'svc-a', schema_version: '1.9.0' });
    assert.equal(response.found, true);
    assert.equal(response.metadata.schema_version, '1.9.0');
    assert.equal(response.schema_content, minimalDocument('1.9.0'));
  });

  it('returns the registered text byte for byte, outside ASCII and at any length', async () => {
    // YAML as registered (not the JSON made of it), with characters of one to four UTF-8 bytes, at
    // lengths whose size takes one, two and three bytes on the wire.
    for (const repeat of [1, 40, 20_000]) {
      const description = 'Café ☕ naïve 🐘 '.repeat(repeat);
      const content = `# ünïcödé\nopenapi: 3.0.3\ninfo:\n  title: Ölçü\n  version: 1.0.0\n  description: "${description}"\npaths: {}\n`;
      const registered = await t.client.call('RegisterSchema', { schema_id: `text-${repeat}`, schema_content: content, schema_version: '1.0.0' });
      assert.equal(registered.success, true, registered.message);
      const response = await t.client.call('GetSchema', { schema_id: `text-${repeat}` });
      assert.equal(response.found, true);
      assert.equal(response.metadata.schema_id, `text-${repeat}`);
      assert.equal(response.metadata.schema_version, '1.0.0');
      assert.equal(response.schema_content, content);
    }
  });

  it('answers found=false for an unknown id or version', async () => {
    assert.equal((await t.client.call('GetSchema', { schema_id: 'nope' })).found, false);
    assert.equal((await t.client.call('GetSchema', { schema_id: 'svc-a', schema_version: '7.7.7' })).found, false);
  });

  it('rejects an empty or malformed id with INVALID_ARGUMENT', async () => {
    await assert.rejects(t.client.call('GetSchema', { schema_id: '' }), { code: status.INVALID_ARGUMENT, details: 'schema_id is required' });
    await assert.rejects(t.client.call('GetSchema', { schema_id: '../etc' }), { code: status.INVALID_ARGUMENT });
  });
});

describe('ListSchemas', () => {
  let t: TestServer;
  const SCHEMAS = 250;
  before(async () => {
    t = await startTestServer();
    for (let i = 0; i < SCHEMAS; i++) {
      const id = `schema-${String(i).padStart(3, '0')}`;
      const ownership = { owner: i % 2 === 0 ? 'even' : 'odd', team: i % 5 === 0 ? 'five' : 'other', contact_email: '', read_only: false };
      const r = await t.client.call('RegisterSchema', { schema_id: id, schema_content: minimalDocument('1.0.0'), ownership });
      assert.equal(r.success, true, r.message);
    }
    // A second version of one schema: listed once, as its latest version.
    await t.client.call('RegisterSchema', { schema_id: 'schema-000', schema_content: minimalDocument('1.1.0') });
  });
  after(async () => t.close());

  async function listAll(request: object): Promise<{ ids: string[]; pages: number; totals: Set<number> }> {
    const ids: string[] = [];
    const totals = new Set<number>();
    let pageToken = '';
    let pages = 0;
    do {
      const response = await t.client.call('ListSchemas', { ...request, page_token: pageToken });
      pages++;
      totals.add(response.total_count);
      ids.push(...response.schemas.map((s: { schema_id: string }) => s.schema_id));
      pageToken = response.next_page_token;
      assert.ok(pages <= 100, 'paging must end');
    } while (pageToken !== '');
    return { ids, pages, totals };
  }

  it('defaults to pages of 100 and pages through everything exactly once', async () => {
    const first = await t.client.call('ListSchemas', {});
    assert.equal(first.schemas.length, 100);
    assert.equal(first.total_count, SCHEMAS);
    assert.notEqual(first.next_page_token, '');
    const { ids, pages, totals } = await listAll({});
    assert.equal(pages, 3);
    assert.deepEqual([...totals], [SCHEMAS]);
    assert.equal(ids.length, SCHEMAS);
    assert.equal(new Set(ids).size, SCHEMAS);
    assert.deepEqual(ids, [...ids].sort());
  });

  it('lists one entry per schema id, its latest version', async () => {
    const response = await t.client.call('ListSchemas', { page_size: 1 });
    assert.equal(response.schemas[0].schema_id, 'schema-000');
    assert.equal(response.schemas[0].schema_version, '1.1.0');
  });

  it('filters by owner and team, with total_count of the matches', async () => {
    const odd = await listAll({ owner: 'odd', page_size: 30 });
    assert.equal(odd.ids.length, 125);
    assert.deepEqual([...odd.totals], [125]);
    assert.equal(odd.pages, 5);
    const both = await listAll({ owner: 'even', team: 'five', page_size: 7 });
    assert.equal(both.ids.length, 25);
    assert.ok(both.ids.every((id) => Number(id.slice(7)) % 10 === 0));
    const none = await t.client.call('ListSchemas', { owner: 'nobody' });
    assert.deepEqual(none.schemas, []);
    assert.equal(none.total_count, 0);
    assert.equal(none.next_page_token, '');
  });

  it('clamps page_size to the maximum and rejects bad paging input', async () => {
    const big = await t.client.call('ListSchemas', { page_size: 100_000 });
    assert.equal(big.schemas.length, SCHEMAS);
    assert.equal(big.next_page_token, '');
    await assert.rejects(t.client.call('ListSchemas', { page_size: -1 }), { code: status.INVALID_ARGUMENT, details: 'page_size must not be negative' });
    await assert.rejects(t.client.call('ListSchemas', { page_token: 'garbage' }), {
      code: status.INVALID_ARGUMENT,
      details: 'page_token is not valid: pass the next_page_token of a previous ListSchemas response',
    });
  });
});

describe('ListEndpoints', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.client.call('RegisterSchema', { schema_id: 'users', schema_content: readSchemaFixture('users-3.0.json') });
    await t.client.call('RegisterSchema', { schema_id: 'users', schema_content: minimalDocument('2.0.0') });
  });
  after(async () => t.close());

  it('lists every operation with operationId and summary in a stable order', async () => {
    const response = await t.client.call('ListEndpoints', { schema_id: 'users', schema_version: '1.0.0' });
    assert.deepEqual(response.endpoints, [
      { method: 'GET', path: '/users', operation_id: 'listUsers', summary: 'List users' },
      { method: 'POST', path: '/users', operation_id: 'createUser', summary: 'Create a user' },
      { method: 'GET', path: '/users/{id}', operation_id: 'getUser', summary: 'Get a user' },
      { method: 'DELETE', path: '/users/{id}', operation_id: 'deleteUser', summary: '' },
    ]);
  });

  it('uses the latest version by default', async () => {
    const response = await t.client.call('ListEndpoints', { schema_id: 'users' });
    assert.deepEqual(response.endpoints, [{ method: 'GET', path: '/ping', operation_id: 'ping', summary: '' }]);
  });

  it('answers NOT_FOUND with the spec messages for an unknown schema or version', async () => {
    await assert.rejects(t.client.call('ListEndpoints', { schema_id: 'ghost' }), { code: status.NOT_FOUND, details: 'Schema not found: ghost' });
    await assert.rejects(t.client.call('ListEndpoints', { schema_id: 'users', schema_version: '9.0.0' }), { code: status.NOT_FOUND, details: 'schema version not found' });
  });
});
