/**
 * What a worker's cached contract is counted as in the cache's byte budget
 * (contractCacheMaxBytesPerWorker) must cover what it costs in the worker's heap. It was weighed by
 * its document text alone (8 bytes a character) while a compact document with its operations
 * compiled costs 40–50× its text: a server whose one worker's cache counted 512 MiB held 2.1 GB,
 * the worker's whole 2 GiB heap. Compiled schema objects now count too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { OUTCOME_FIELDS, OutcomeField, OutcomeStatus, ValidationOperation, encodeBatch } from '../../src/shared/pool-protocol/batches';
import { runValidationBatch } from '../../src/workers/validation-worker';
import { ContractCache } from '../../src/workers/contract-cache';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const OPERATIONS = 5;
const PROPERTIES = 1_000;

/** OPERATIONS request bodies of PROPERTIES `{minimum}` properties each: about 20 characters a schema object. */
async function compactDocumentJson(seed: number): Promise<string> {
  const paths: Record<string, unknown> = {};
  for (let o = 0; o < OPERATIONS; o++) {
    const properties = Object.fromEntries(Array.from({ length: PROPERTIES }, (_, k) => [`f${k}`, { minimum: seed * 1e6 + o * 1e3 + k }]));
    paths[`/p${o}`] = { post: {
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties } } } },
      responses: { 204: { description: 'stored' } },
    } };
  }
  const text = JSON.stringify({ openapi: '3.0.3', info: { title: 'compact', version: '1.0.0' }, paths });
  return JSON.stringify((await loadSchema(text)).document);
}

/** One compile batch per operation of `hash` (as the pool sends first calls); returns the cache's bytes after the last. */
function compileEveryOperation(hash: string, documentJson: string): number {
  let bytes = 0;
  for (let o = 0; o < OPERATIONS; o++) {
    const message = contractValidatorDefinition().ValidateInteraction.requestSerialize({
      schema_id: 'compact',
      request: { method: 'POST', path: `/p${o}`, headers: { 'content-type': 'application/json' }, body: '{}' },
      response: { status_code: 204, headers: {}, body: '' },
    } as never);
    const { batch } = encodeBatch([{ message, operation: ValidationOperation.INTERACTION, contract: { hash, version: '1.0.0' } }], { [hash]: documentJson }, true);
    const result = runValidationBatch(batch);
    assert.ok(result.ok);
    assert.equal(new Int32Array(result.outcomes)[OutcomeField.STATUS + 0 * OUTCOME_FIELDS], OutcomeStatus.DONE);
    bytes = result.cache.bytes;
  }
  return bytes;
}

test('a cached contract is weighed by what its compiled schemas cost in the heap, not by its text alone', async () => {
  compileEveryOperation('warm-up', await compactDocumentJson(0)); // the engine's own first-use allocations
  const documentJson = await compactDocumentJson(1);
  gc(); gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const bytesBefore = compileEveryOperation('warm-up', await compactDocumentJson(0));
  const weighed = compileEveryOperation('compact', documentJson) - bytesBefore;
  gc(); gc();
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  // Generous: the estimate only has to be of the right size (it was 1/15 of the heap growth).
  assert.ok(weighed >= heapGrowth / 2, `the contract was weighed ${(weighed / 1e6).toFixed(1)} MB; it took ${(heapGrowth / 1e6).toFixed(1)} MB of heap (document ${(documentJson.length / 1e3).toFixed(0)} K characters)`);
});

test('reweighing an entry that grew evicts the least recently used others to fit, and keeps it', () => {
  const evicted: string[] = [];
  const cache = new ContractCache<string>({ maxBytes: 100, onEvict: (value) => evicted.push(value) });
  cache.set('a', 'A', 30);
  cache.set('b', 'B', 30);
  cache.set('c', 'C', 30);
  cache.reweigh('b', 60);
  assert.deepEqual(evicted, ['A']);
  assert.equal(cache.bytes, 90);
  cache.reweigh('c', 500);
  assert.deepEqual(evicted, ['A', 'B']);
  assert.equal(cache.get('c'), 'C');
  assert.equal(cache.bytes, 500);
  cache.reweigh('absent', 10);
  assert.equal(cache.size, 1);
});

test('a contract is weighed again when a shared batch compiles more of it (a prepared operation\'s first answer of another status)', async () => {
  const body = (seed: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: PROPERTIES }, (_, k) => [`f${k}`, { minimum: seed * 1e4 + k }])) });
  const text = JSON.stringify({
    openapi: '3.0.3', info: { title: 'two answers', version: '1.0.0' },
    paths: { '/things': { get: { responses: {
      200: { description: 'one', content: { 'application/json': { schema: body(1) } } },
      201: { description: 'other', content: { 'application/json': { schema: body(2) } } },
    } } } },
  });
  const hash = 'two-answers';
  const documentJson = JSON.stringify((await loadSchema(text)).document);
  const run = (status: number, compile: boolean) => {
    const message = contractValidatorDefinition().ValidateInteraction.requestSerialize({
      schema_id: 'two', request: { method: 'GET', path: '/things', headers: {}, body: '' },
      response: { status_code: status, headers: { 'content-type': 'application/json' }, body: '{}' },
    } as never);
    const { batch } = encodeBatch([{ message, operation: ValidationOperation.INTERACTION, contract: { hash, version: '1.0.0' } }], compile ? { [hash]: documentJson } : {}, compile);
    const result = runValidationBatch(batch);
    assert.ok(result.ok);
    assert.equal(new Int32Array(result.outcomes)[OutcomeField.STATUS], OutcomeStatus.DONE);
    return result.cache.bytes;
  };
  const afterFirst = run(200, true);
  const afterShared = run(201, false);
  assert.ok(afterShared - afterFirst >= PROPERTIES * 1024, `compiling the second answer's ${PROPERTIES} properties added ${afterShared - afterFirst} bytes`);
});
