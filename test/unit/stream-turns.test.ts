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
