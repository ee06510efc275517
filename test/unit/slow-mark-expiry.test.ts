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
import { nestedAnyOfSchema, postNested } from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
const MAX_RUN_MS = 1_000;
const SLOW_MARK_TIMES = 2;
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
