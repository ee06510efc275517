/**
 * A RecordInteractions call whose work fails while its stream is still open: the failure ended the
 * whole server (the promise chain of the stream's messages had no handler until the stream ended,
 * and Node.js ends a process on an unhandled rejection). Listing a new version's operations can
 * fail that way: the caller's document-task queue full (OVERLOADED), a store that cannot be read.
 * Now a full queue drops the interaction and counts it (server_busy), any other failure fails the
 * call with its own code, and the server serves on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import type { RecordAnswer } from '../helpers/recording';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

let server: TestServer;

before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
});
after(() => server.close());

/** One interaction of `version`, the stream left open a while after it: the failure comes while the client still sends. */
function recordHoldingOpen(version: string): Promise<RecordAnswer> {
  return new Promise((resolve, reject) => {
    const raw = server.client.raw as unknown as { RecordInteractions(cb: (e: grpc.ServiceError | null, r: RecordAnswer) => void): grpc.ClientWritableStream<object> };
    const stream = raw.RecordInteractions((error, answer) => (error ? reject(error) : resolve(answer)));
    stream.write({
      schema_id: 'users', schema_version: version, environment: 'prod', consumer_id: 'web', valid: true, read_fields: [], read_fields_tracked: false,
      request: { method: 'GET', path: '/users/42', headers: {}, body: '' },
      response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_USER) },
    });
    setTimeout(() => stream.end(), 300);
  });
}

/** The version's operation listing fails with `error` (what a full queue or a lost store does to it). */
async function withListingFailing<T>(error: SvcError, run: () => Promise<T>): Promise<T> {
  const schemas = server.server.context.schemas;
  const listing = schemas.operations;
  schemas.operations = async () => {
    throw error;
  };
  try {
    return await run();
  } finally {
    schemas.operations = listing;
  }
}

async function assertServing(): Promise<void> {
  const result = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER, { schema_version: '1.0.0' }));
  assert.equal(result.valid, true, JSON.stringify(result.errors));
}

test('a full document-task queue for the operation listing drops the interaction as server_busy', async () => {
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '2.0.0');
  const queueFull = new SvcError(ErrorCode.OVERLOADED, `16 document tasks are waiting (documentTaskMaxQueuedPerCaller)`);
  const answer = await withListingFailing(queueFull, () => recordHoldingOpen('2.0.0'));
  assert.deepEqual(answer, {
    accepted: 0, dropped: 1,
    message: `not kept: 1 while the caller's document-task queue was full (documentTaskMaxQueuedPerCaller) for its large bodies or its version's operation listing`,
  });
  await assertServing();
});

test('any other failure fails the call with its code, and the server serves on', async () => {
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '3.0.0');
  const storeGone = new SvcError(ErrorCode.UNAVAILABLE, 'the registry store cannot be read');
  await assert.rejects(withListingFailing(storeGone, () => recordHoldingOpen('3.0.0')), (error: grpc.ServiceError) => {
    assert.match(error.details, /the registry store cannot be read/);
    return true;
  });
  await assertServing();
  // The version is listed once the store answers again.
  assert.equal((await recordHoldingOpen('3.0.0')).accepted, 1);
});
