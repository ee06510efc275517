/**
 * A RecordInteractions stream whose first message waits (its version's first operation listing, on
 * a busy document-task thread) while the sender keeps sending small interactions. They queued behind
 * it as fast as they came, all read: one stream held 706 MiB of them while a listing waited 5 s. The
 * stream now stops reading at recordingStreamMaxQueued messages read and not yet handled.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

const MESSAGES = 2_000;
/** Messages grpc-js and HTTP/2 may still hand over once the stream pauses: its readable buffer and a window. */
const SLACK = 64;

let server: TestServer;
let sender: grpc.Client;

before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  sender = new grpc.Client(server.address, grpc.credentials.createInsecure());
});
after(async () => {
  sender.close();
  await server.close();
});

test('a recording stream stops reading while its messages wait behind a slow operation listing', async () => {
  const { context } = server.server;
  // The version's operations are listed once the gate opens, as when the caller's thread is busy.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const tasks = context.documentTasks;
  const run = tasks.run.bind(tasks);
  tasks.run = (async (task, caller) => {
    if (task.kind === 'operations') await gate;
    return run(task, caller);
  }) as typeof tasks.run;
  // Every message read is counted against the turns' allowance once.
  let read = 0;
  const take = context.streamTurns.take.bind(context.streamTurns);
  context.streamTurns.take = (bytes) => {
    read++;
    return take(bytes);
  };

  const { requestSerialize, responseDeserialize } = contractValidatorDefinition().RecordInteractions;
  const message = requestSerialize({ ...getUserInteraction('users', '1', VALID_USER), schema_version: '1.0.0', consumer_id: 'queued', valid: true });
  const answer = new Promise<{ accepted: number; dropped: number; message: string }>((resolve, reject) => {
    const stream = sender.makeClientStreamRequest('/svc.ContractValidator/RecordInteractions', (bytes: Buffer) => bytes, responseDeserialize,
      (error, response) => (error ? reject(error) : resolve(response as never)));
    let sent = 0;
    const pump = () => {
      while (sent < MESSAGES) {
        sent++;
        if (!stream.write(message)) return void stream.once('drain', pump);
      }
      stream.end();
    };
    pump();
  });

  // Read until it stops (or all of them were read, before the fix).
  for (let last = -1, until = Date.now() + 5_000; read !== last && read < MESSAGES && Date.now() < until;) {
    last = read;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const readWhileWaiting = read;
  open();
  const { accepted, dropped, message: notKept } = await answer;
  assert.deepEqual([accepted, dropped], [MESSAGES, 0], notKept);
  assert.ok(readWhileWaiting <= LIMITS.recordingStreamMaxQueued + SLACK,
    `${readWhileWaiting} messages were read while the first one waited (recordingStreamMaxQueued ${LIMITS.recordingStreamMaxQueued})`);
});
