/**
 * A first call waits for its compile while other compiles run (they take one lane at a time while
 * another stays free of slow work). A caller whose deadline passed meanwhile was compiled for all the
 * same: on svc serve, six first calls whose 2 s deadlines passed behind a 10 s overrun each ran about
 * 245 ms once it ended, and each had its thread replaced (every caller of a slow batch gone), six
 * restarts of one lane and its cache. Compile groups drop such calls when they are dispatched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { ErrorCode, type SvcError } from '../../src/shared/errors';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import { createLogger } from '../../src/main/logger';
import type { VersionRef } from '../../src/shared/schema-records';
import { nestedAnyOfSchema, postNested, postThings, slowSchema } from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
const MAX_RUN_MS = 600;
const LEVELS = 21; // seconds of work: it overruns MAX_RUN_MS
const GONE_CALLS = 3;

test('first calls whose callers gave up while their compile waited are failed CANCELLED, not compiled for nobody', async () => {
  const nested: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const documents: Record<string, string> = { [nested.hash]: JSON.stringify((await loadSchema(nestedAnyOfSchema(LEVELS))).document) };
  const slowJson = JSON.stringify((await loadSchema(slowSchema())).document);
  const replaced: string[] = [];
  const logger = createLogger('warn', { write: (line: string) => { if (/thread is replaced/.test(line)) replaced.push(JSON.parse(line).msg); } });
  const pool = new ValidationPool({ threads: 2, maxRunMs: MAX_RUN_MS, logger, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash] ?? slowJson }) });
  await pool.start();
  try {
    const overrun = pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(postNested(nested.schemaId, LEVELS)), contract: nested });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Schemas whose compile takes longer than slowCallMs: they wait for the lane the overrun holds.
    let gone = false;
    const waiting = Array.from({ length: GONE_CALLS }, (_, i) => pool.validate({
      operation: ValidationOperation.INTERACTION, message: encode(postThings(`slow${i}`)), contract: { schemaId: `slow${i}`, version: '1.0.0', hash: `slow${i}` }, isCancelled: () => gone,
    }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    gone = true;
    await assert.rejects(overrun, (error: SvcError) => error.code === ErrorCode.LIMIT_EXCEEDED);
    for (const call of waiting) await assert.rejects(call, (error: SvcError) => error.code === ErrorCode.CANCELLED);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(replaced, ['a validation batch ran over validationMaxMs; its thread is replaced'], 'only the overrun replaced a thread');
  } finally {
    await pool.close();
  }
});
