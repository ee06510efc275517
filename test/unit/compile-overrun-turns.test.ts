/**
 * Calls of one contract that overran validationMaxMs together go again one compile at a time; the
 * rest of them used to keep their place at the head of the compiles waiting, so another caller's
 * first call of a new schema (a compile too, which never takes the last lane free of slow work)
 * waited for every one of them to overrun again: 58.5 s behind six 10 s overruns on svc serve. They
 * now go after the other contracts' compiles: another caller waits for the one going at most.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import type { VersionRef } from '../../src/shared/schema-records';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, nestedAnyOfSchema, postNested } from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
const MAX_RUN_MS = 400;
/** Each such call needs seconds (the work doubles with each level), far over MAX_RUN_MS. */
const LEVELS = 21;
const OVERRUNNING_CALLS = 5;

test("calls that overran together go again behind other contracts' first compiles, not ahead of all of them", async () => {
  const nested: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const fresh: VersionRef = { schemaId: 'users', version: '1.0.0', hash: 'fresh' };
  const documents: Record<string, string> = {
    [nested.hash]: JSON.stringify((await loadSchema(nestedAnyOfSchema(LEVELS))).document),
    [fresh.hash]: JSON.stringify((await loadSchema(USERS_SCHEMA_TEXT)).document),
  };
  const pool = new ValidationPool({ threads: 2, maxRunMs: MAX_RUN_MS, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash]! }) });
  await pool.start();
  try {
    const started = performance.now();
    const settledAt: number[] = [];
    const overrunning = Array.from({ length: OVERRUNNING_CALLS }, () =>
      pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(postNested(nested.schemaId, LEVELS)), contract: nested }).then(
        () => assert.fail('a call that needs seconds was answered'),
        () => { settledAt.push(performance.now() - started); },
      ));
    // After their compile batch overran (one budget, and the check that finds it), while the first of them goes again alone.
    await new Promise((resolve) => setTimeout(resolve, 2 * MAX_RUN_MS));
    const answer = await pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(getUserInteraction('users', '1', VALID_USER)), contract: fresh });
    const freshAt = performance.now() - started;
    assert.equal(answer.valid, true);
    await Promise.all(overrunning);
    settledAt.sort((a, b) => a - b);
    // Behind the one going when it came (answered at 1.0 s, the next of them failed at 1.5 s), not behind all five (2.6 s).
    assert.ok(freshAt < settledAt[2]!, `the first call of another schema was answered at ${Math.round(freshAt)} ms; the overrunning calls failed at ${settledAt.map(Math.round).join(', ')} ms`);
  } finally {
    await pool.close();
  }
});
