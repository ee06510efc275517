/**
 * How the server decodes RegisterSchema (src/main/message-codecs.ts): the library decodes every field
 * but schema_content, whose bytes reach the handler undecoded and are copied into shared memory, the
 * last occurrence winning as in protobuf; bytes that are not UTF-8 are flagged, never replaced.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { registeredSchemaText, schemaContentIsNotUtf8, withMessageCodecs } from '../../src/main/message-codecs';

const definition = contractValidatorDefinition();
const registerSchema = withMessageCodecs(definition).RegisterSchema!;

function encode(request: object): Buffer {
  return definition.RegisterSchema.requestSerialize(request as never);
}

function decode(message: Buffer): { schema_id: string; schema_content: string; schema_version: string; ownership: { team: string } | null; dry_run: boolean } {
  return registerSchema.requestDeserialize(message) as never;
}

test('RegisterSchema content arrives as its bytes in shared memory, the other fields decoded by the library', async () => {
  const content = `openapi: 3.0.3\ninfo: {title: "Café ☕ 𝄞", version: "1.0.0"}\npaths: {}\n${'x'.repeat(9 * 1024 * 1024)}`;
  const request = decode(encode({ schema_id: 'users', schema_content: content, schema_version: '1.2.3', ownership: { team: 'web' }, dry_run: true }));
  assert.equal(request.schema_id, 'users');
  assert.equal(request.schema_version, '1.2.3');
  assert.equal(request.ownership?.team, 'web');
  assert.equal(request.dry_run, true);
  assert.equal(request.schema_content, '', 'the string field is left empty: the text is never decoded on the main thread');
  assert.equal(schemaContentIsNotUtf8(request), false);
  const text = await registeredSchemaText(request);
  assert.ok(text instanceof Uint8Array);
  assert.ok(text.buffer instanceof SharedArrayBuffer, 'copied into memory the intake and store threads read without a copy');
  assert.ok(Buffer.from(text).equals(Buffer.from(content, 'utf8')), 'every byte, across the slices it is copied in');
});

test('the last schema_content wins, and a request without one has empty content', async () => {
  const first = encode({ schema_id: 'users', schema_content: 'first' });
  const second = encode({ schema_content: 'second' });
  assert.equal(Buffer.from(await registeredSchemaText(decode(Buffer.concat([first, second])))).toString(), 'second');
  const none = decode(encode({ schema_id: 'users' }));
  assert.equal((await registeredSchemaText(none)).length, 0);
  assert.equal(schemaContentIsNotUtf8(none), false);
});

test('content bytes that are not UTF-8 are flagged on the bytes, U+FFFD written out is not', async () => {
  // Field 2, length 2: 0xc3 0x28 is not UTF-8.
  const broken = decode(Buffer.concat([encode({ schema_id: 'users' }), Buffer.from([0x12, 0x02, 0xc3, 0x28])]));
  assert.equal(schemaContentIsNotUtf8(broken), true);
  const replacement = decode(encode({ schema_id: 'users', schema_content: 'a \uFFFD b' }));
  assert.equal(schemaContentIsNotUtf8(replacement), false);
  assert.equal(Buffer.from(await registeredSchemaText(replacement)).toString(), 'a \uFFFD b');
});
