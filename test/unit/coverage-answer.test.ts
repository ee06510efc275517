/**
 * GetCoverage builds its answer in turns of the event loop: an answer near coverageMaxEntries, with
 * usage on its entries, held the main thread in one piece. The building lets the loop go round
 * between usage rows and between operations whenever a turn has run its time, and stops once the
 * caller has gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventLoopTurns } from '../../src/main/event-loop-turns';
import type { VersionOperations } from '../../src/main/registry/schema-registry';
import { coverageAnswer } from '../../src/main/services/coverage';
import type { UsageCountRecord } from '../../src/main/storage/storage';

const OPERATIONS = 30;
const CONSUMERS = 4;

const listed: VersionOperations = {
  schemaId: 'shop', version: '1.0.0', hash: 'h',
  operations: Array.from({ length: OPERATIONS }, (_, i) => ({ method: 'GET', path: `/r${i}`, operationId: `r${i}`, summary: '', statuses: ['200', '404'] })),
};
const usage: UsageCountRecord[] = Array.from({ length: OPERATIONS * CONSUMERS }, (_, i) => ({
  consumerId: `c${i % CONSUMERS}`, schemaId: 'shop', environment: 'production', method: 'GET', path: `/r${Math.floor(i / CONSUMERS)}`,
  status: i % 3 === 0 ? 500 : 200, schemaVersion: '1.0.0', callCount: 1 + (i % 5), validCount: 1, firstSeenAt: 100, lastSeenAt: 100 + i,
}));

/** Turns that are always due, counting how often the building let the loop go round. */
function everyPiece(): EventLoopTurns & { taken: number } {
  const turns = {
    taken: 0,
    due: () => true,
    next: async () => {
      turns.taken++;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return turns;
}

const never: EventLoopTurns = { due: () => false, next: async () => assert.fail('no turn is due') };

test('the answer is built a piece per turn when turns are due, and is the same as built in one piece', async () => {
  const inOnePiece = await coverageAnswer(listed, usage, '', never, () => false);
  const turns = everyPiece();
  const inTurns = await coverageAnswer(listed, usage, '', turns, () => false);
  assert.equal(turns.taken, usage.length + OPERATIONS, 'one turn before each usage row and each operation');
  assert.deepEqual(inTurns, inOnePiece);
  assert.equal(inOnePiece.operations!.length, OPERATIONS);
  assert.equal(inOnePiece.documented_statuses, OPERATIONS * 2);
  assert.equal(inOnePiece.exercised_statuses, OPERATIONS);
  assert.deepEqual(inOnePiece.consumers, ['c0', 'c1', 'c2', 'c3']);
  const first = inOnePiece.operations![0]!;
  assert.deepEqual(first.statuses!.map((status) => [status.status, status.documented, status.call_count]), [['200', true, 5], ['404', true, 0], ['500', false, 5]]);
});

test('a caller gone at a turn gets CANCELLED, and nothing more is built for it', async () => {
  const turns = everyPiece();
  let asked = 0;
  await assert.rejects(coverageAnswer(listed, usage, '', turns, () => ++asked > 3), { code: 'CANCELLED', message: /GetCoverage/ });
  assert.equal(turns.taken, 4, 'the building stopped at the first turn after the caller had gone');
});
