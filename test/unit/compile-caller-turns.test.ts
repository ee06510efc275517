/**
 * Contracts waiting to compile go in turns by caller: one caller's first calls of many new schemas
 * no longer hold another caller's first call of one for all of their compiles. First compiles are
 * slow work, which never takes the last lane free of it, so they go one at a time; in arrival order,
 * another caller's first call waited behind every compile queued before it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import type { VersionRef } from '../../src/shared/schema-records';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, slowSchema } from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
/** One caller's new schemas, each a compile of a few hundred milliseconds. */
const SCHEMAS = 6;

test("one caller's first calls of many new schemas hold another caller's first call for one compile at most, not all of them", async () => {
  const busy: VersionRef[] = Array.from({ length: SCHEMAS }, (_, i) => ({ schemaId: `busy-${i}`, version: '1.0.0', hash: `busy-${i}` }));
  const fresh: VersionRef = { schemaId: 'users', version: '1.0.0', hash: 'fresh' };
  const documents: Record<string, string> = { [fresh.hash]: JSON.stringify((await loadSchema(USERS_SCHEMA_TEXT)).document) };
  for (const ref of busy) documents[ref.hash] = JSON.stringify((await loadSchema(slowSchema(150, ref.schemaId))).document);
  const pool = new ValidationPool({ threads: 2, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash]! }) });
  await pool.start();
  try {
    const started = performance.now();
    const busyAt: number[] = [];
    const body = JSON.stringify({ a0: 'aa', b0: 'bb', c0: 'cc', d0: 'dd' });
    const busyCalls = busy.map((ref) => pool.validate({
      operation: ValidationOperation.INTERACTION, contract: ref, caller: () => 'peer:busy',
      message: encode({ schema_id: ref.schemaId, request: { method: 'POST', path: '/things', headers: { 'content-type': 'application/json' }, body } }),
    }).then((answer) => {
      assert.equal(answer.valid, true);
      busyAt.push(performance.now() - started);
    }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await pool.validate({
      operation: ValidationOperation.INTERACTION, contract: fresh, caller: () => 'peer:other', message: encode(getUserInteraction('users', '1', VALID_USER)),
    });
    const freshAt = performance.now() - started;
    assert.equal(answer.valid, true);
    await Promise.all(busyCalls);
    busyAt.sort((a, b) => a - b);
    // Behind the compile running when it came (and at most the one after), not behind all six.
    assert.ok(freshAt < busyAt[2]!, `the other caller's first call was answered at ${Math.round(freshAt)} ms; the busy caller's at ${busyAt.map(Math.round).join(', ')} ms`);
  } finally {
    await pool.close();
  }
});
