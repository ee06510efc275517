/**
 * A validation request whose routing head is well formed but whose embedded RequestData or
 * ResponseData is not valid protobuf was answered status OK with `valid: false` and the decoding
 * error as a contract violation: a verdict on a contract nobody checked, which CI reads as a broken
 * contract. It now fails with INVALID_ARGUMENT, as a malformed head does, on the unary operations and
 * on ValidateInteractionStream (which ends after the results of the messages before it).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, rawClient, rawUnary, registerSchema } from '../helpers/validation';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});
after(() => server.close());

/** `schema_id: "users"` (field 1 of both requests). */
const SCHEMA_ID = Buffer.concat([Buffer.from([0x0a, 0x05]), Buffer.from('users')]);
/** A ResponseData whose status_code (field 1, a varint) arrives length-delimited. */
const BAD_RESPONSE_DATA = Buffer.from([0x0a, 0x00]);

function embedded(field: number, content: Buffer): Buffer {
  return Buffer.from([(field << 3) | 2, content.length, ...content]);
}

test('a malformed embedded message answers INVALID_ARGUMENT on the unary validation operations, not valid=false', async () => {
  const client = rawClient(server.address);
  try {
    const cases: Array<[string, Buffer]> = [
      ['ValidateInteraction', Buffer.concat([SCHEMA_ID, embedded(3, BAD_RESPONSE_DATA)])], // InteractionRequest.response
      ['ValidateProducerResponse', Buffer.concat([SCHEMA_ID, embedded(5, BAD_RESPONSE_DATA)])], // ValidateProducerRequest.response
    ];
    for (const [operation, bytes] of cases) {
      await assert.rejects(rawUnary(client, operation, bytes), (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.INVALID_ARGUMENT, `${operation}: ${error.details}`);
        assert.match(error.details, /^the request is not a valid protobuf message: field 1 has wire type 2, expected 0$/);
        return true;
      }, operation);
    }
  } finally {
    client.close();
  }
});

test('ValidateInteractionStream: a malformed embedded message after a valid one ends the stream with INVALID_ARGUMENT', async () => {
  const client = rawClient(server.address);
  try {
    const { requestSerialize, responseDeserialize } = contractValidatorDefinition().ValidateInteractionStream;
    const stream = client.makeBidiStreamRequest('/svc.ContractValidator/ValidateInteractionStream', (b: Buffer) => b, (b: Buffer) => b);
    const results: Array<{ valid: boolean }> = [];
    stream.on('data', (bytes: Buffer) => results.push(responseDeserialize(bytes) as { valid: boolean }));
    // 'status' comes however the stream ends (before the fix: OK, after a valid=false result for the malformed message).
    const ended = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
    stream.on('error', () => undefined);
    stream.write(requestSerialize(getUserInteraction('users', '42', VALID_USER)));
    stream.write(Buffer.concat([SCHEMA_ID, embedded(3, BAD_RESPONSE_DATA)]));
    stream.end();
    const error = await ended;
    assert.equal(error.code, grpc.status.INVALID_ARGUMENT, `${error.details}; results ${JSON.stringify(results)}`);
    assert.deepEqual(results.map((result) => result.valid), [true]);
  } finally {
    client.close();
  }
});
