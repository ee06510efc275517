/**
 * Regression: the registry's cache of version documents had an entry cap (64) and no byte budget:
 * ten different 27 MB versions, one ListEndpoints each, grew the process from 124 MB to 1.4 GB.
 * What it holds (weighDocument) never goes over documentCacheMaxBytes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_CALLER } from '../../src/main/auth/principal';
import { SchemaRegistry, weighDocument } from '../../src/main/registry/schema-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { LIMITS } from '../../src/shared/limits';
import { intakeSchema } from '../../src/shared/openapi/schema-intake';

const IN_PROCESS = { caller: INTERNAL_CALLER };

/** Counts the reads of whole versions: a version the cache still holds is not read. */
class CountingStorage extends MemoryStorage {
  versionReads = 0;
  override async getSchemaVersion(schemaId: string, version: string) {
    this.versionReads++;
    return super.getSchemaVersion(schemaId, version);
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
  it('holds at most documentCacheMaxBytes, parsed or not, and still answers every version', async () => {
    const budget = 200_000;
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
      const resolved = await registry.resolve(id);
      assert.equal(resolved.version, '1.0.0');
      assert.ok(registry.cachedDocumentBytes <= budget, `after resolving ${id}: ${registry.cachedDocumentBytes} bytes`);
    }
    // Twelve parsed ~10 kB documents weigh about 12 × 50 kB: without the budget the cache held them all.
    const oneParsed = weighDocument({ documentJson: (await registry.resolve('doc0')).documentJson, document: {} as never });
    assert.ok(oneParsed * 12 > budget, 'the documents together exceed the budget');
    // Most recent first: the versions still held answer without a read, the evicted ones are read again.
    const readsBefore = storage.versionReads;
    for (const id of [...ids].reverse()) assert.equal((await registry.resolve(id)).schemaId, id);
    const held = Math.floor(budget / oneParsed);
    assert.ok(storage.versionReads - readsBefore >= ids.length - held, `${storage.versionReads - readsBefore} reads: at most ${held} parsed versions fit the budget`);
    assert.ok(registry.cachedDocumentBytes <= budget);
    assert.ok(registry.cachedDocumentBytes > 0);
  });

  it(`counts a parsed document at ${LIMITS.registryParsedDocumentBytesPerChar} bytes a character, and one not parsed at 2`, () => {
    const documentJson = '{"openapi":"3.0.3"}';
    assert.equal(weighDocument({ documentJson }), documentJson.length * 2);
    assert.equal(weighDocument({ documentJson, document: {} as never }), documentJson.length * LIMITS.registryParsedDocumentBytesPerChar);
  });

  it('keeps one parsed document of maxSchemaBytes within the default budget', () => {
    assert.ok(LIMITS.maxSchemaBytes * LIMITS.registryParsedDocumentBytesPerChar <= LIMITS.registryDocumentCacheMaxBytes);
  });
});
