/**
 * Regression: the registry's cache of version documents had an entry cap (64) and no byte budget:
 * ten different 27 MB versions, one ListEndpoints each, grew the process from 124 MB to 1.4 GB.
 * What it holds (weighDocument: the documents' text) never goes over documentCacheMaxBytes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_CALLER } from '../../src/main/auth/principal';
import { SchemaRegistry, weighDocument } from '../../src/main/registry/schema-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { LIMITS } from '../../src/shared/limits';
import { intakeSchema } from '../../src/shared/openapi/schema-intake';

const IN_PROCESS = { caller: INTERNAL_CALLER };

/** Counts the reads of version documents: a version the cache still holds is not read. */
class CountingStorage extends MemoryStorage {
  documentReads = 0;
  override async getSchemaDocument(schemaId: string, version: string) {
    this.documentReads++;
    return super.getSchemaDocument(schemaId, version);
  }
}

/** A document of about `chars` characters of JSON. */
function document(title: string, chars: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; JSON.stringify(paths).length < chars; i++) {
    paths[`/${title}/r${i}`] = { get: { operationId: `get${i}`, responses: { 200: { description: 'ok' } } } };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1.0.0' }, paths });
}

describe('the schema registry document cache budget', () => {
  it('holds at most documentCacheMaxBytes and still answers every version', async () => {
    const budget = 100_000;
    const storage = new CountingStorage();
    const registry = await SchemaRegistry.open(storage, {
      intake: (content) => intakeSchema(content),
      documentCacheMaxBytes: budget,
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = `doc${i}`;
      ids.push(id);
      await registry.register({ schemaId: id, content: document(id, 10_000), version: '1.0.0', ownership: undefined }, IN_PROCESS);
      assert.ok(registry.cachedDocumentBytes <= budget, `after registering ${id}: ${registry.cachedDocumentBytes} bytes`);
    }
    // Twelve ~10 kB documents weigh about 12 × 20 kB: without the budget the cache held them all.
    const one = weighDocument((await registry.documentSource('doc11')).documentJson);
    assert.ok(one * ids.length > budget, 'the documents together exceed the budget');
    // Oldest first: the evicted versions are read from storage again (and cached, pushing others out).
    const readsBefore = storage.documentReads;
    for (const id of ids) {
      assert.equal((await registry.documentSource(id)).ref.schemaId, id);
      assert.ok(registry.cachedDocumentBytes <= budget, `after reading ${id}: ${registry.cachedDocumentBytes} bytes`);
    }
    const held = Math.floor(budget / one);
    assert.ok(storage.documentReads - readsBefore >= ids.length - held, `${storage.documentReads - readsBefore} reads: at most ${held} versions fit the budget`);
    // Most recent again: held, no read.
    const readsAfter = storage.documentReads;
    await registry.documentSource('doc11');
    assert.equal(storage.documentReads, readsAfter, 'the version read last is held');
  });

  it('counts a document at 2 bytes a character of its text', () => {
    const documentJson = '{"openapi":"3.0.3"}';
    assert.equal(weighDocument(documentJson), documentJson.length * 2);
  });

  it('keeps one document of maxSchemaBytes within the default budget', () => {
    assert.ok(LIMITS.maxSchemaBytes * 2 <= LIMITS.registryDocumentCacheMaxBytes);
  });
});
