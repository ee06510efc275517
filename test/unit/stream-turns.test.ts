/** The main thread's turns for message-heavy streams (src/main/stream-turns.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createStreamTurns } from '../../src/main/stream-turns';

test('a turn allows messagesPerTurn messages; past it streams wait for the next turn, where the allowance is whole again', async () => {
  const turns = createStreamTurns(3);
  assert.deepEqual([turns.take(), turns.take(), turns.take(), turns.take()], [true, true, true, false]);
  const resumed: string[] = [];
  turns.nextTurn(() => resumed.push('a'));
  turns.nextTurn(() => resumed.push('b'));
  assert.deepEqual(resumed, [], 'nothing resumes within the turn');
  await nextTurn();
  assert.deepEqual(resumed, ['a', 'b'], 'every waiting stream resumes once, in order');
  assert.equal(turns.take(), true, 'a new turn starts with a whole allowance');
  await nextTurn();
  assert.deepEqual(resumed, ['a', 'b'], 'a resume runs once');
});

test('messagesPerTurn must be a positive integer', () => {
  assert.throws(() => createStreamTurns(0), /messagesPerTurn must be a positive integer/);
  assert.throws(() => createStreamTurns(1.5), /messagesPerTurn must be a positive integer/);
});

test('a turn allows bytesPerTurn bytes; the first message of a turn is allowed whatever its size', () => {
  const turns = createStreamTurns(64, 100);
  assert.deepEqual([turns.take(250), turns.take(1)], [true, false], 'a large first message spends the turn');
});

test('turnFor resolves in the first turn whose allowance takes the message', async () => {
  const turns = createStreamTurns(64, 100);
  assert.equal(turns.take(60), true);
  const order: string[] = [];
  const waiting = turns.turnFor(60).then(() => order.push('held back'));
  await Promise.resolve();
  assert.deepEqual(order, [], 'not in the spent turn');
  await nextTurn();
  await waiting;
  assert.deepEqual(order, ['held back']);
  assert.equal(turns.take(60), false, 'the message it let through counts in its turn');
});
