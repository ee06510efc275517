/**
 * `svc schemas list` lists every schema or fails saying why, never a list cut short as if whole: it
 * asked for pages of the default 100, stopped after its 1,000 pages, and printed the first 100,000
 * schemas with `total_count` 100000 and exit 0.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import type { SchemaVersionSummary } from '../../src/main/storage/storage';
import { startTestServer, type TestServer } from '../helpers/server';
import { runSvcInProcess } from './run-svc';

const IDS = 100_001;

let server: TestServer;
before(async () => {
  // The store's index as a server finds it at start, without registering each schema.
  const load = Object.getOwnPropertyDescriptor(MemoryStorage.prototype, 'loadSchemaIndex')!;
  MemoryStorage.prototype.loadSchemaIndex = async (): Promise<SchemaVersionSummary[]> => Array.from({ length: IDS }, (_, i) => ({
    schemaId: `s${String(i).padStart(6, '0')}`, version: '1.0.0', contentHash: 'h', openapiVersion: '3.0.3', endpointCount: 0,
    ownership: { owner: '', team: '', contactEmail: '', readOnly: false }, registeredAt: 0, updatedAt: 0,
  }));
  try {
    server = await startTestServer();
  } finally {
    Object.defineProperty(MemoryStorage.prototype, 'loadSchemaIndex', load);
  }
});
after(() => server.close());

test(`schemas list --json lists all of ${IDS} schemas`, async () => {
  const { code, stdout, stderr } = await runSvcInProcess(['schemas', 'list', '--json', '--server', server.address]);
  assert.equal(code, 0, stderr);
  const listed = JSON.parse(stdout) as { total_count: number; schemas: Array<{ schema_id: string }> };
  assert.equal(listed.total_count, IDS);
  assert.equal(listed.schemas.length, IDS);
  assert.equal(listed.schemas.at(-1)!.schema_id, `s${String(IDS - 1).padStart(6, '0')}`);
});
