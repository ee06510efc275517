/**
 * A RecordInteractions stream whose first message waits (its version's first operation listing, on
 * a busy document-task thread) while the sender keeps sending. The others queued behind it as fast
 * as they came, all read: one stream held 706 MiB of them while a listing waited 5 s. The stream now
 * stops reading at recordingStreamMaxQueued messages, or recordingStreamMaxQueuedBytes of them, read
 * and not yet handled.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema, usersSchemaVersion } from '../helpers/validation';

/** Messages grpc-js and HTTP/2 may still hand over once the stream pauses: its readable buffer and a window. */
const SLACK = 24;

let server: TestServer;
let sender: grpc.Client;
/** Opens the gate of the version's operation listing, once the listing has reached it. */
let openGate: (() => void) | undefined;
/** Messages the server has read. */
let read = 0;

before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await registerSchema(server.client, 'users', usersSchemaVersion('2.0.0'), '2.0.0');
  sender = new grpc.Client(server.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes });
  const { documentTasks: tasks, streamTurns } = server.server.context;
  // A version's operations are listed once the gate opens, as when the caller's thread is busy.
  const run = tasks.run.bind(tasks);
  tasks.run = (async (task, caller) => {
    if (task.kind === 'operations') await new Promise<void>((resolve) => { openGate = resolve; });
    return run(task, caller);
  }) as typeof tasks.run;
  // Every message read is counted against the turns' allowance once.
  const take = streamTurns.take.bind(streamTurns);
  streamTurns.take = (bytes) => {
    read++;
    return take(bytes);
  };
});
after(async () => {
  sender.close();
  await server.close();
});

const { requestSerialize, responseDeserialize } = contractValidatorDefinition().RecordInteractions;

/** Sends `first` and then `rest` `count` times; resolves with how many the server read while the listing waited, and the answer. */
async function readWhileListingWaits(first: Buffer, rest: Buffer, count: number) {
  read = 0;
  const answer = new Promise<{ accepted: number; dropped: number; message: string }>((resolve, reject) => {
    const stream = sender.makeClientStreamRequest('/svc.ContractValidator/RecordInteractions', (bytes: Buffer) => bytes, responseDeserialize,
      (error, response) => (error ? reject(error) : resolve(response as never)));
    stream.write(first);
    let sent = 0;
    const pump = () => {
      while (sent < count) {
        sent++;
        if (!stream.write(rest)) return void stream.once('drain', pump);
      }
      stream.end();
    };
    pump();
  });
  // The first message waits at the gate; then the others are read until the stream stops (or all of them were, before the fix).
  for (const until = Date.now() + 10_000; openGate === undefined && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(openGate, 'the version\'s operations were listed');
  for (let last = -1, until = Date.now() + 5_000; read !== last && read < count + 1 && Date.now() < until;) {
    last = read;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const readWhileWaiting = read;
  openGate();
  openGate = undefined;
  return { readWhileWaiting, answer: await answer };
}

const interaction = (version: string) => ({ ...getUserInteraction('users', '1', VALID_USER), schema_version: version, consumer_id: 'queued', valid: true });

test('a recording stream stops reading while its messages wait behind a slow operation listing', async () => {
  const message = requestSerialize(interaction('1.0.0'));
  const { readWhileWaiting, answer } = await readWhileListingWaits(message, message, 2_000);
  assert.deepEqual([answer.accepted, answer.dropped], [2_001, 0], answer.message);
  assert.ok(readWhileWaiting <= LIMITS.recordingStreamMaxQueued + SLACK,
    `${readWhileWaiting} messages were read while the first one waited (recordingStreamMaxQueued ${LIMITS.recordingStreamMaxQueued})`);
});

test('large messages waiting behind it are bounded by their bytes', async () => {
  // 1 MiB each, in a schema id read whole (and then found unknown).
  const large = requestSerialize({ ...interaction('2.0.0'), schema_id: 'x'.repeat(1024 * 1024) });
  const { readWhileWaiting, answer } = await readWhileListingWaits(requestSerialize(interaction('2.0.0')), large, 200);
  assert.deepEqual([answer.accepted, answer.dropped], [1, 200], answer.message);
  const bound = Math.ceil(LIMITS.recordingStreamMaxQueuedBytes / large.length);
  assert.ok(readWhileWaiting <= bound + SLACK,
    `${readWhileWaiting} messages of ${large.length} bytes were read while the first one waited (recordingStreamMaxQueuedBytes ${LIMITS.recordingStreamMaxQueuedBytes})`);
});
