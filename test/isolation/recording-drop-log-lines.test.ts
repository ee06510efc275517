/**
 * A client cannot flood the log through RecordInteractions: a call that drops interactions over a
 * size limit wrote one info line, so 3,000 calls of one such interaction each wrote 3,000 lines in
 * 1.8 s. The lines are written at most droppedInteractionLogLinesPerMinute; the answers and the metric
 * still tell every drop.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { recordInteractions } from '../helpers/recording';
import { startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

const CALLS = LIMITS.droppedInteractionLogLinesPerMinute + 40;
const IN_FLIGHT = 10;

test('calls dropping interactions over a limit write at most droppedInteractionLogLinesPerMinute lines', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
    const overLimit = { ...getUserInteraction('users', '1', VALID_USER), consumer_id: 'flood', read_fields_tracked: true, read_fields: ['x'.repeat(LIMITS.recordingMaxReadFieldBytes + 1)] };
    let started = 0;
    let answered = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (started < CALLS) {
        started++;
        const answer = await recordInteractions(server.client, [overLimit]);
        assert.deepEqual([answer.accepted, answer.dropped], [0, 1]);
        assert.match(answer.message, /recordingMaxReadFieldBytes/);
        answered++;
      }
    }));
    assert.equal(answered, CALLS);
    const lines = logs.lines().filter((line) => String(line.msg).startsWith('recorded interactions dropped over a limit'));
    assert.ok(lines.length >= 1, 'the first calls are logged');
    assert.ok(lines.length <= LIMITS.droppedInteractionLogLinesPerMinute,
      `${lines.length} lines for ${CALLS} calls (droppedInteractionLogLinesPerMinute ${LIMITS.droppedInteractionLogLinesPerMinute})`);
  } finally {
    await server.close();
  }
});
