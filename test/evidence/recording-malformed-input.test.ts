/**
 * A RecordInteractions message that is not valid protobuf fails the call with INVALID_ARGUMENT, as on
 * every other operation; it used to be read as an empty interaction and answered "not kept: 1 unknown
 * schema". The messages before it are handled as usual, and the server goes on recording.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { recordEncoded, recordInteractions } from '../helpers/recording';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, registerSchema } from '../helpers/validation';

const definition = contractValidatorDefinition().RecordInteractions;
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

const INTERACTION = Object.freeze({
  schema_id: 'users', schema_version: '1.0.0', environment: 'prod', consumer_id: 'web',
  request: { method: 'GET', path: '/users/42', headers: {}, body: '' },
  response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_USER) },
  valid: true,
});

function rejectsAsInvalid(call: Promise<unknown>, detail: RegExp): Promise<void> {
  return assert.rejects(call, (error: grpc.ServiceError) => {
    assert.equal(error.code, grpc.status.INVALID_ARGUMENT, error.details);
    assert.match(error.details, /^the request is not a valid protobuf message: /);
    assert.match(error.details, detail);
    return true;
  });
}

test('garbage bytes answer INVALID_ARGUMENT, not an unknown schema', async () => {
  await rejectsAsInvalid(recordEncoded(sender, [Buffer.from([0xff, 0xff, 0xff])]), /truncated varint \(message 1 of the stream/);
});

test('a malformed message after a good one names its place in the stream', async () => {
  // Field 5 (request), length-delimited, claiming 100 bytes that never come.
  await rejectsAsInvalid(recordEncoded(sender, [definition.requestSerialize(INTERACTION), Buffer.from([0x2a, 0x64, 0x0a])]), /runs past the end.*message 2 of the stream/);
});

test('a known field with the wrong wire type and a string that is not UTF-8 are malformed too', async () => {
  await rejectsAsInvalid(recordEncoded(sender, [Buffer.from([0x38, 0x01, 0x0a, 0x01, 0x75, 0x0d, 0x00, 0x00, 0x00, 0x00])]), /field 1 has wire type 5, expected 2/);
  await rejectsAsInvalid(recordEncoded(sender, [Buffer.from([0x0a, 0x02, 0xc3, 0x28])]), /not valid UTF-8/);
});

test('recording goes on after a malformed call', async () => {
  assert.deepEqual(await recordInteractions(server.client, [INTERACTION]), { accepted: 1, dropped: 0, message: '' });
});
