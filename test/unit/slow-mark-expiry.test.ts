/**
 * A contract marked slow work by a batch that overran maxRunMs stays marked for slowMarkTimes ×
 * maxRunMs, not for good. The overrun counted as Infinity, so one bad call of a schema sent every
 * later call of it alone, one at a time, until the server restarted: 2,989 cheap calls/s and p99
 * 7.9 ms before the overrun, 787 and 50.9 ms after (svc serve, 8 clients).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { Metrics } from '../../src/main/metrics';
import { ValidationPool } from '../../src/main/validation-pool';
import type { VersionRef } from '../../src/shared/schema-records';
import { nestedAnyOfSchema, postNested, postThings, slowSchema } from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
const MAX_RUN_MS = 1_000;
const SLOW_MARK_TIMES = 2;
/** Levels of a body that runs over SLOW_CALL_MS, and well under the compile of slowSchema() (1-2 s): about 90 ms on a 2-core machine. */
const SLOW_LEVELS = 14;
const SLOW_CALL_MS = 20;
/**
 * A body this deep needs seconds (the work doubles with each level), far over MAX_RUN_MS; one level is
 * quick, though a quick call on a thread started afresh also compiles its contract: at 300 ms that
 * compile overran under a loaded machine.
 */
const LEVELS = 21;

async function markedContracts(metrics: Metrics): Promise<number> {
  const value = /^svc_validation_slow_contracts (\d+)$/m.exec(await metrics.render());
  assert.ok(value, 'the gauge is rendered');
  return Number(value[1]);
}

test('a contract marked by an overrun is unmarked by a quick call once slowMarkTimes × maxRunMs has passed', async () => {
  const nested: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const documentJson = JSON.stringify((await loadSchema(nestedAnyOfSchema(LEVELS))).document);
  const metrics = new Metrics();
  const pool = new ValidationPool({ threads: 2, maxRunMs: MAX_RUN_MS, slowMarkTimes: SLOW_MARK_TIMES, metrics, loadContract: async (ref) => ({ ref, documentJson }) });
  await pool.start();
  const call = (depth: number) => pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(postNested(nested.schemaId, depth)), contract: nested });
  try {
    assert.equal((await call(1)).valid, false, 'compiled by a quick call');
    assert.equal(await markedContracts(metrics), 0);
    await assert.rejects(call(LEVELS), /validationMaxMs/);
    assert.equal(await markedContracts(metrics), 1, 'marked by the overrun');
    await call(1);
    assert.equal(await markedContracts(metrics), 1, 'a quick call within the mark leaves it');
    await sleep(SLOW_MARK_TIMES * MAX_RUN_MS + 100);
    await call(1);
    assert.equal(await markedContracts(metrics), 0, 'a quick call after the mark ends it');
  } finally {
    await pool.close();
  }
});

test("a contract that ran slow waits a bounded time for another schema's compile: its calls may then take the last lane", async () => {
  // Calls of a contract that ran slow count as slow work (marked; then, at the size of its slow
  // call, until one that large runs quickly), and slow work does not take the last lane free of it.
  // While another schema compiled on the other lane, they waited for all of that compile, however
  // quick the contract's slow batch had been: now at most twice that batch's time.
  const nested: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const wide: VersionRef = { schemaId: 'wide', version: '1.0.0', hash: 'wide' };
  const documents = new Map([
    ['nested', JSON.stringify((await loadSchema(nestedAnyOfSchema(SLOW_LEVELS))).document)],
    ['wide', JSON.stringify((await loadSchema(slowSchema())).document)],
  ]);
  const metrics = new Metrics();
  const pool = new ValidationPool({ threads: 2, slowCallMs: SLOW_CALL_MS, slowMarkTimes: 1, metrics, loadContract: async (ref) => ({ ref, documentJson: documents.get(ref.hash)! }) });
  await pool.start();
  const timed = async (contract: VersionRef, request: object) => {
    const started = performance.now();
    await pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(request), contract });
    return performance.now() - started;
  };
  try {
    await timed(nested, postNested(nested.schemaId, 1));
    const slowMs = await timed(nested, postNested(nested.schemaId, SLOW_LEVELS));
    assert.equal(await markedContracts(metrics), 1, `marked by a call of ${Math.round(slowMs)} ms`);
    // The mark lasts slowMarkTimes (1) × the batch's time in its worker, at most the call's whole time.
    await sleep(slowMs + 100);
    const compile = timed(wide, postThings(wide.schemaId));
    await sleep(50);
    const quickMs = await timed(nested, postNested(nested.schemaId, 1));
    const compileMs = await compile;
    assert.ok(quickMs < compileMs / 2, `a quick call of the contract that ran slow in ${Math.round(slowMs)} ms took ${Math.round(quickMs)} ms beside a ${Math.round(compileMs)} ms compile`);
  } finally {
    await pool.close();
  }
});
