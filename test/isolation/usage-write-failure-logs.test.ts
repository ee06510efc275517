/**
 * A store that refuses writes does not let clients flood the log: every RecordInteractions call
 * writes what it kept, and each refused write logged an error line with its stack, so 500 calls
 * wrote 500 lines. They are written at most usageWriteFailedLogLinesPerMinute; each call still
 * fails UNAVAILABLE, and its interactions are counted not_stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { recordInteractions } from '../helpers/recording';
import { startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

const CALLS = LIMITS.usageWriteFailedLogLinesPerMinute + 40;
const IN_FLIGHT = 10;

test('refused usage writes log at most usageWriteFailedLogLinesPerMinute lines while every call fails', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  const { storage } = server.server.context;
  const addUsage = storage.addUsage.bind(storage);
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
    storage.addUsage = async () => { throw new Error('disk full'); };
    let started = 0;
    let failed = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (started < CALLS) {
        started++;
        await assert.rejects(recordInteractions(server.client, [{ ...getUserInteraction('users', '1', VALID_USER), consumer_id: `web-${started}` }]),
          (error: grpc.ServiceError) => error.code === grpc.status.UNAVAILABLE);
        failed++;
      }
    }));
    assert.equal(failed, CALLS);
    const lines = logs.lines().filter((line) => line.msg === 'recorded usage could not be written; it is kept for the next flush');
    assert.ok(lines.length >= 1, 'the first refusals are logged');
    assert.ok(lines.length <= LIMITS.usageWriteFailedLogLinesPerMinute,
      `${lines.length} lines for ${CALLS} refused writes (usageWriteFailedLogLinesPerMinute ${LIMITS.usageWriteFailedLogLinesPerMinute})`);
  } finally {
    storage.addUsage = addUsage;
    await server.close();
  }
});
