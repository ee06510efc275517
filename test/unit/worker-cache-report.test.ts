/**
 * A validation worker's cache report names the contracts it dropped, so that the main thread's
 * record of what each worker holds (the pool's affinity) forgets them. Before, that record only
 * grew: one entry for every contract a worker had ever compiled, and a call of a contract long
 * evicted was still sent to that worker first, for a `missing` round trip.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { OUTCOME_FIELDS, OutcomeField, OutcomeStatus, ValidationOperation, encodeBatch, type BatchResult } from '../../src/shared/pool-protocol/batches';
import { runValidationBatch } from '../../src/workers/validation-worker';

const MESSAGE = contractValidatorDefinition().ValidateInteraction.requestSerialize({
  schema_id: 'tiny', request: { method: 'GET', path: '/ping', headers: {}, body: '' }, response: { status_code: 204, headers: {}, body: '' },
} as never);

/** One compile batch of a call to each of `hashes` (all the same tiny document), as the pool sends first calls. */
function compile(documentJson: string, ...hashes: string[]): Extract<BatchResult, { ok: true }> {
  const { batch } = encodeBatch(
    hashes.map((hash) => ({ message: MESSAGE, operation: ValidationOperation.INTERACTION, contract: { hash, version: '1.0.0' } })),
    Object.fromEntries(hashes.map((hash) => [hash, documentJson])),
    true,
  );
  const result = runValidationBatch(batch);
  assert.ok(result.ok);
  const outcomes = new Int32Array(result.outcomes);
  for (let i = 0; i < hashes.length; i++) assert.equal(outcomes[i * OUTCOME_FIELDS + OutcomeField.STATUS], OutcomeStatus.DONE);
  return result;
}

test('the cache report names each contract dropped since the last one, and not those held again', async () => {
  const documentJson = JSON.stringify((await loadSchema(JSON.stringify({
    openapi: '3.0.3', info: { title: 'tiny', version: '1.0.0' }, paths: { '/ping': { get: { responses: { 204: { description: 'ok' } } } } },
  }))).document);
  const capacity = LIMITS.contractCacheMaxEntries;
  for (let i = 0; i < capacity; i++) assert.deepEqual(compile(documentJson, `c${i}`).cache.evicted, [], `contract ${i}`);

  // Full: the next contract drops the least recently used one.
  const next = compile(documentJson, 'new-1');
  assert.deepEqual(next.cache.evicted, ['c0']);
  assert.equal(next.cache.items, capacity);
  assert.deepEqual(compile(documentJson, 'c1').cache.evicted, [], 'a hit drops nothing');

  // In one batch: new-2 drops c2, then c2 comes back and drops c3. Only c3 is gone at the report.
  assert.deepEqual(compile(documentJson, 'new-2', 'c2').cache.evicted, ['c3']);
  // A report is of what happened since the previous one.
  assert.deepEqual(compile(documentJson, 'new-2').cache.evicted, []);
});
