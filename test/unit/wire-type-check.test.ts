/**
 * The wire-type check in front of the protobuf library (src/main/wire-type-check.ts): what the
 * library itself encodes passes, unknown fields pass, a declared field of the wrong wire type or
 * running past its embedded message fails, naming the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { requestWireCheck } from '../../src/main/wire-type-check';
import { WireFormatError } from '../../src/shared/pool-protocol/protobuf-wire';

const definition = contractValidatorDefinition();

function encode(operation: string, request: object): Buffer {
  return (definition[operation as keyof typeof definition].requestSerialize as (value: object) => Buffer)(request);
}

test('every operation has a check, and requests the protobuf library encodes pass it', () => {
  for (const operation of Object.keys(definition)) requestWireCheck(operation)(Buffer.alloc(0));
  const samples: Array<[string, object]> = [
    ['RegisterSchema', { schema_id: 'users', schema_content: '{}', ownership: { owner: 'a', team: 't', read_only: true }, check_compatibility: true, dry_run: true }],
    ['RegisterConsumer', { consumer_id: 'web', schema_id: 'users', used_endpoints: [{ method: 'GET', path: '/users', used_fields: ['id', 'name'] }] }],
    ['GenerateFixture', { schema_id: 'users', method: 'GET', path: '/users', status_code: -1, output_type: 'OUTPUT_RESPONSE' }],
    ['ValidateProducerResponse', { schema_id: 'users', request: { method: 'GET', path: '/', headers: { a: 'b' } }, response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{}' } }],
  ];
  for (const [operation, request] of samples) {
    const bytes = encode(operation, request);
    assert.ok(bytes.length > 10, operation);
    requestWireCheck(operation)(bytes);
  }
});

test('fields the message does not declare are skipped, whatever their wire type', () => {
  // Field 15 as a varint, a 64-bit value, a length-delimited value and a 32-bit value.
  const unknown = Buffer.from([0x78, 0x01, 0x79, 0, 0, 0, 0, 0, 0, 0, 0, 0x7a, 0x01, 0x61, 0x7d, 0, 0, 0, 0]);
  requestWireCheck('PurgeRecordings')(unknown);
});

test('a declared field of another wire type fails, at the top and inside embedded messages', () => {
  const check = requestWireCheck('GenerateFixture');
  assert.throws(() => check(Buffer.from([0x08, 0x01])), { name: 'WireFormatError', message: 'svc.GenerateFixtureRequest.schema_id (field 1) arrived as a varint, not length-delimited' });
  // status_code (field 4, int32) as a length-delimited value.
  assert.throws(() => check(Buffer.from([0x22, 0x00])), /GenerateFixtureRequest\.status_code \(field 4\) arrived as length-delimited, not a varint/);
  // Two levels down: ValidateProducerRequest.request (field 6), its headers map (field 3), an entry
  // whose key is a 32-bit value. (The server reads this operation with its own reader; the check
  // itself serves any message of svc.proto.)
  const entry = Buffer.from([0x0d, 0, 0, 0, 0]);
  const requestData = Buffer.concat([Buffer.from([0x1a, entry.length]), entry]);
  const producer = Buffer.concat([Buffer.from([0x32, requestData.length]), requestData]);
  assert.throws(() => requestWireCheck('ValidateProducerResponse')(producer), /\.key \(field 1\) arrived as a 32-bit value, not length-delimited/);
});

test("a string running past its embedded message's end fails, though the message's bytes go on", () => {
  // EndpointUsage { method: 5 bytes claimed, 3 inside the entry }, then schema_id "users" after the entry.
  const endpoint = Buffer.from([0x0a, 0x05, 0x47, 0x45, 0x54]);
  const request = Buffer.concat([Buffer.from([0x32, endpoint.length]), endpoint, Buffer.from([0x1a, 0x05]), Buffer.from('users')]);
  assert.throws(() => requestWireCheck('RegisterConsumer')(request), (error: unknown) => error instanceof WireFormatError && /runs past the end/.test(error.message));
});
