/**
 * The hand-rolled validation codec against protobufjs (the codec grpc-js clients use): every
 * field of the validation messages decodes the same, results encode to what clients decode.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { WireFormatError } from '../../src/shared/pool-protocol/protobuf-wire';
import {
  decodeInteractionRequest, decodeProducerRequest, encodeValidationResult, readInteractionHead, readProducerHead,
} from '../../src/shared/pool-protocol/validation-codec';

const definition = contractValidatorDefinition();
const encodeInteraction = (message: object) => definition.ValidateInteraction.requestSerialize(message as never);
const encodeProducer = (message: object) => definition.ValidateProducerResponse.requestSerialize(message as never);
const decodeResult = (bytes: Buffer) => definition.ValidateInteraction.responseDeserialize(bytes);

test('an InteractionRequest decodes field for field', () => {
  const bytes = encodeInteraction({
    schema_id: 'users',
    schema_version: '1.2.3',
    correlation_id: 'c-42',
    request: { method: 'POST', path: '/users?x=ü', headers: { 'content-type': 'application/json', ['__proto__']: 'kept' }, body: '{"a":"é"}' },
    response: { status_code: 201, headers: { etag: 'W/"1"' }, body: '{}' },
  });
  const message = decodeInteractionRequest(bytes);
  assert.equal(message.schemaId, 'users');
  assert.equal(message.schemaVersion, '1.2.3');
  assert.equal(message.correlationId, 'c-42');
  assert.deepEqual({ ...message.request, headers: { ...message.request!.headers } }, {
    method: 'POST', path: '/users?x=ü', headers: { 'content-type': 'application/json', ['__proto__']: 'kept' }, body: '{"a":"é"}',
  });
  assert.equal(Object.getPrototypeOf(message.request!.headers), Object.prototype, 'a "__proto__" header stays a plain entry');
  assert.deepEqual(message.response, { statusCode: 201, headers: { etag: 'W/"1"' }, body: '{}' });
  assert.deepEqual(readInteractionHead(bytes), { schemaId: 'users', schemaVersion: '1.2.3', method: 'POST', correlationId: 'c-42' });
});

test('absent embedded messages stay undefined and scalars default to empty', () => {
  const message = decodeInteractionRequest(encodeInteraction({ schema_id: 's' }));
  assert.equal(message.request, undefined);
  assert.equal(message.response, undefined);
  assert.equal(message.schemaVersion, '');
  assert.deepEqual(readInteractionHead(encodeInteraction({})), { schemaId: '', schemaVersion: '', method: '', correlationId: '' });
});

test('a negative status code (ten-byte varint) keeps its sign', () => {
  const message = decodeInteractionRequest(encodeInteraction({ schema_id: 's', request: { method: 'GET' }, response: { status_code: -7 } }));
  assert.equal(message.response!.statusCode, -7);
});

test('a ValidateProducerRequest decodes field for field', () => {
  const bytes = encodeProducer({
    schema_id: 'orders', schema_version: '2.0.0', method: 'get', path: '/orders/7',
    response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
    request: { method: 'GET', path: '/orders/7', headers: {}, body: '' },
  });
  assert.deepEqual(decodeProducerRequest(bytes), {
    schemaId: 'orders', schemaVersion: '2.0.0', method: 'get', path: '/orders/7',
    response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
    request: { method: 'GET', path: '/orders/7', headers: {}, body: '' },
  });
  assert.deepEqual(readProducerHead(bytes), { schemaId: 'orders', schemaVersion: '2.0.0', method: 'get', correlationId: '' });
});

test('unknown fields are skipped and a repeated embedded message merges', () => {
  const unknown = Buffer.from([(15 << 3) | 0, 0x96, 0x01, (14 << 3) | 2, 2, 0x61, 0x62, (13 << 3) | 5, 1, 2, 3, 4, (12 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8]);
  const first = encodeInteraction({ schema_id: 'a', request: { method: 'GET', path: '/x' } });
  const second = encodeInteraction({ request: { body: 'b' } });
  const message = decodeInteractionRequest(Buffer.concat([first, unknown, second]));
  assert.equal(message.schemaId, 'a');
  assert.deepEqual(message.request, { method: 'GET', path: '/x', headers: {}, body: 'b' });
});

test('malformed bytes are a WireFormatError, never an out-of-bounds read', () => {
  const valid = encodeInteraction({ schema_id: 'users', request: { method: 'GET', path: '/users' } });
  const fieldBoundaries = new Set([7]); // after schema_id: a shorter but well-formed message
  for (let cut = 1; cut < valid.length; cut++) {
    const truncated = valid.subarray(0, cut);
    if (fieldBoundaries.has(cut)) assert.equal(decodeInteractionRequest(truncated).schemaId, 'users');
    else assert.throws(() => decodeInteractionRequest(truncated), WireFormatError, `cut at ${cut}`);
  }
  assert.throws(() => readInteractionHead(Buffer.from([(1 << 3) | 0, 1])), /wire type 0, expected 2/);
  assert.throws(() => readInteractionHead(Buffer.from([0x00])), /field number 0/);
  assert.throws(() => readInteractionHead(Buffer.from([(7 << 3) | 3])), /unsupported wire type 3/);
  assert.throws(() => readInteractionHead(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])), /runs past the end/);
});

test('ValidationResult encodes to what protobufjs decodes', () => {
  const cases = [
    { valid: true, errors: [], version: '1.0.0', hash: 'ab'.repeat(32), correlationId: '' },
    { valid: false, errors: ['Schema not found: x', 'response body: property "é" is required', 'e'.repeat(300)], version: '', hash: '', correlationId: 'id-1' },
    { valid: false, errors: [], version: '', hash: '', correlationId: '' },
  ];
  for (const fields of cases) {
    assert.deepEqual(decodeResult(encodeValidationResult(fields)), {
      valid: fields.valid,
      errors: fields.errors,
      validated_against_version: fields.version,
      validated_against_hash: fields.hash,
      correlation_id: fields.correlationId,
    });
  }
});
