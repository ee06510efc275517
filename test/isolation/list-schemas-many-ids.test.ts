/**
 * ListSchemas costs its page, not every schema id: without a filter a page is found by binary search
 * in ids the index keeps in order as they arrive. At 40,000 ids of 128 characters each call sorted
 * and searched them all (17-35 ms of the main thread through svc serve), and paging through them
 * 100 at a time (401 calls) took 10.7 s, growing with the square of the ids.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import type { SchemaVersionSummary } from '../../src/main/storage/storage';
import { startTestServer, type TestServer } from '../helpers/server';

const IDS = 40_000;
const CALLS = 20;
/** 20 calls took 540-740 ms in process; a page is a few ms with the gRPC round trip. */
const CALLS_BOUND_MS = 200;

/** Ids of 128 characters that differ only at the end (the costliest to compare), stored in no order. */
function schemaId(i: number): string {
  return `${'x'.repeat(120)}-${String((i * 7_919) % IDS).padStart(7, '0')}`;
}

let server: TestServer;
before(async () => {
  // The store's index as a server finds it at start: 40,000 schemas without registering each.
  const load = Object.getOwnPropertyDescriptor(MemoryStorage.prototype, 'loadSchemaIndex')!;
  MemoryStorage.prototype.loadSchemaIndex = async (): Promise<SchemaVersionSummary[]> => Array.from({ length: IDS }, (_, i) => ({
    schemaId: schemaId(i), version: '1.0.0', contentHash: 'h', openapiVersion: '3.0.3', endpointCount: 0,
    ownership: { owner: i % 2 === 0 ? 'even' : 'odd', team: '', contactEmail: '', readOnly: false }, registeredAt: 0, updatedAt: 0,
  }));
  try {
    server = await startTestServer();
  } finally {
    Object.defineProperty(MemoryStorage.prototype, 'loadSchemaIndex', load);
  }
});
after(() => server.close());

test(`a ListSchemas page of ${IDS} schema ids costs the page, and the pages hold every id once, in order`, async () => {
  const first = await server.client.call('ListSchemas', { page_size: 10 });
  const started = performance.now();
  let token = first.next_page_token;
  for (let i = 0; i < CALLS; i++) token = (await server.client.call('ListSchemas', { page_size: 10, page_token: token })).next_page_token;
  const elapsedMs = performance.now() - started;
  assert.ok(elapsedMs < CALLS_BOUND_MS, `${CALLS} pages of 10 took ${Math.round(elapsedMs)} ms`);

  for (const filter of [{}, { owner: 'even' }]) {
    const seen: string[] = [];
    let pageToken = '';
    let total = 0;
    do {
      const page = await server.client.call('ListSchemas', { ...filter, page_size: 1_000, page_token: pageToken });
      seen.push(...page.schemas.map((schema: { schema_id: string }) => schema.schema_id));
      total = page.total_count;
      pageToken = page.next_page_token;
    } while (pageToken !== '' && seen.length <= IDS);
    const expected = 'owner' in filter ? IDS / 2 : IDS;
    assert.equal(total, expected);
    assert.equal(seen.length, expected);
    assert.deepEqual(seen, [...seen].sort(), 'ascending by id, none twice');
    assert.equal(new Set(seen).size, expected);
  }
});
