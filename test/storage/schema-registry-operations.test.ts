/**
 * The registry lists a version's operations through `listOperations` (a document-task thread in the
 * server), once per version however many calls ask at once, and never parses the document itself.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_CALLER } from '../../src/main/auth/principal';
import { SchemaRegistry } from '../../src/main/registry/schema-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import type { TaskDocument } from '../../src/shared/document-task-protocol';
import { summarizeOperations } from '../../src/shared/openapi/operations';
import { intakeSchema } from '../../src/shared/openapi/schema-intake';

const TEXT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'ops', version: '1.0.0' },
  paths: {
    '/b': { get: { operationId: 'getB', summary: 'B', responses: { 200: { description: 'ok' }, default: { description: 'error' } } } },
    '/a': { post: { operationId: 'postA', responses: { 201: { $ref: '#/components/responses/Created' } } } },
  },
  components: { responses: { Created: { description: 'created' } } },
});

describe('SchemaRegistry.operations', () => {
  it('lists once per version through listOperations, leaving the document cache unparsed', async () => {
    const listed: TaskDocument[] = [];
    const registry = await SchemaRegistry.open(new MemoryStorage(), {
      intake: (content) => intakeSchema(content),
      listOperations: async (document) => {
        listed.push(document);
        return summarizeOperations(JSON.parse(document.documentJson));
      },
    });
    await registry.register({ schemaId: 'ops', content: TEXT, version: '1.0.0', ownership: undefined }, { caller: INTERNAL_CALLER });
    const textOnly = registry.cachedDocumentBytes;
    const [first, second] = await Promise.all([registry.operations('ops', '', 'a'), registry.operations('ops', '1.0.0', 'b')]);
    assert.equal(first, second);
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.hash, registry.versionRef('ops').hash);
    assert.deepEqual(first.operations, [
      { method: 'POST', path: '/a', operationId: 'postA', summary: '', statuses: ['201'] },
      { method: 'GET', path: '/b', operationId: 'getB', summary: 'B', statuses: ['200', 'default'] },
    ]);
    await registry.operations('ops', '', 'c');
    assert.equal(listed.length, 1, 'kept per version');
    assert.equal(registry.cachedDocumentBytes, textOnly, 'no parsed document was cached on this thread');
  });

  it('tells listOperations when every asker of a listing has gone, and starts a new one for the next asker', async () => {
    const listings: Array<{ allGone: () => boolean; finish: () => void }> = [];
    const registry = await SchemaRegistry.open(new MemoryStorage(), {
      intake: (content) => intakeSchema(content),
      listOperations: (document, _caller, allGone) => new Promise((resolve) => {
        listings.push({ allGone: allGone!, finish: () => resolve(summarizeOperations(JSON.parse(document.documentJson))) });
      }),
    });
    await registry.register({ schemaId: 'ops', content: TEXT, version: '1.0.0', ownership: undefined }, { caller: INTERNAL_CALLER });
    const started = async (count: number) => {
      for (let turn = 0; listings.length < count && turn < 100; turn++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(listings.length, count);
    };
    let firstGone = false;
    let secondGone = false;
    void registry.operations('ops', '', 'a', () => firstGone).catch(() => undefined);
    await started(1);
    const second = registry.operations('ops', '', 'b', () => secondGone);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(listings.length, 1, 'one listing for both askers');
    firstGone = true;
    assert.equal(listings[0]!.allGone(), false, 'the second asker still waits');
    secondGone = true;
    assert.equal(listings[0]!.allGone(), true, 'every asker has gone');

    // A listing all of whose askers have gone is being stopped: a new asker starts its own.
    const third = registry.operations('ops', '', 'c');
    await started(2);
    assert.equal(listings[1]!.allGone(), false, 'an asker without a `gone` never goes');
    listings[1]!.finish();
    assert.equal((await third).operations.length, 2);
    listings[0]!.finish();
    await second;
  });
});
