/**
 * How messages are decoded and encoded, operation by operation.
 *
 * Requests. The validation operations keep their messages as raw protobuf bytes on the main thread
 * (workers decode them). RecordInteractions is read with the same wire reader on the main thread,
 * which counts an interaction's header entries before building it
 * (evidence/recorded-interaction-codec.ts). Every other operation is decoded by the protobuf library.
 * Both are behind a guard: grpc-js answers a request that fails to decode with INTERNAL, while a
 * malformed message is the caller's mistake, so the guard hands the handler a marker instead and the
 * handler answers INVALID_ARGUMENT. RegisterSchema's content is not decoded at all: the library decodes
 * the other fields, the content's bytes are checked for UTF-8, and the handler copies them, a slice
 * per turn of the event loop, into memory shared with the threads that read them (intake, the
 * store). Decoding a 32 MB text into a string and cloning it to each of those threads held the main
 * thread 45–65 ms at a time.
 *
 * Answers. The validation operations' answers come from the workers as bytes. GetSchema's content
 * is written from the UTF-8 bytes storage read (`GetSchemaAnswer`), not decoded into a string and
 * encoded again: for a 30 MiB document that was about 50 ms of the main thread. Every other answer
 * is encoded by the protobuf library; one with many entries in its lists (encodedInTurns), a slice
 * per turn of the event loop: a CanIDeploy answer of 1,500 consumers (4.3 MB) held the main thread
 * 160-235 ms in one piece.
 */
import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition, type ContractValidatorDefinition, type GetSchemaResponse } from '@svc/client/protocol';
import { invalidArgument, errorMessage, type SvcError } from '../shared/errors';
import type { SchemaText } from '../shared/schema-records';
import { RAW_VALIDATION_OPERATIONS } from '../shared/pool-protocol/validation-codec';
import { WireReader, WireType, varintSize, writeVarint } from '../shared/pool-protocol/protobuf-wire';
import { decodeRecordedInteraction } from './evidence/recorded-interaction-codec';
import { eventLoopTurns } from './event-loop-turns';
import { requestWireCheck } from './wire-type-check';

const MALFORMED = Symbol('malformed request');
/** Set on a RegisterSchemaRequest whose schema_content bytes are not UTF-8. */
const CONTENT_NOT_UTF8 = Symbol('schema_content is not valid UTF-8');
/** A RegisterSchemaRequest's schema_content, as its bytes in shared memory (its string field stays empty). */
const CONTENT_BYTES = Symbol('schema_content bytes');
/** RegisterSchemaRequest.schema_content. */
const SCHEMA_CONTENT_FIELD = 2;
/** GetSchemaResponse.schema_content. */
const ANSWERED_SCHEMA_CONTENT_FIELD = 3;

/** An answer encodedInTurns has already encoded: its bytes go out as they are. */
const ENCODED = Symbol('encoded answer');
/** Entries of an answer's lists together from which it is encoded in turns; fewer take well under a millisecond. */
const ENCODE_IN_TURNS_MIN_ENTRIES = 64;
/** Longest the main thread encodes one answer before it lets other calls in. */
const ENCODING_TURN_MS = 5;

/** GetSchema's answer, its content given as the UTF-8 bytes of the registered text. */
export interface GetSchemaAnswer extends Omit<GetSchemaResponse, 'schema_content'> {
  schema_content_bytes?: Buffer;
}

interface MalformedRequest {
  readonly [MALFORMED]: SvcError;
}

/** The SvcError to answer when `request` is the marker of a message that did not decode. */
export function malformedRequestError(request: unknown): SvcError | undefined {
  return typeof request === 'object' && request !== null && MALFORMED in request ? (request as MalformedRequest)[MALFORMED] : undefined;
}

/**
 * Whether a RegisterSchema request's content arrived as bytes that are not UTF-8. Decoded, such bytes
 * would become U+FFFD, which is also a legal character: the decision is made on the bytes.
 */
export function schemaContentIsNotUtf8(request: object): boolean {
  return CONTENT_NOT_UTF8 in request;
}

/** Bytes copied into shared memory per turn of the event loop: 4 MiB take 2–3 ms. */
const SHARED_COPY_SLICE_BYTES = 4 * 1024 * 1024;

/** A RegisterSchema request's content: the bytes it arrived as, in shared memory (see above). */
export async function registeredSchemaText(request: { schema_content: string }): Promise<SchemaText> {
  if (!(CONTENT_BYTES in request)) return request.schema_content;
  const bytes = (request as { [CONTENT_BYTES]: Uint8Array })[CONTENT_BYTES];
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  for (let at = 0; at < bytes.byteLength; at += SHARED_COPY_SLICE_BYTES) {
    if (at > 0) await nextTurn();
    shared.set(bytes.subarray(at, at + SHARED_COPY_SLICE_BYTES), at);
  }
  return shared;
}

/** Operations whose messages the server decodes with its own wire reader instead of the protobuf library. */
const OWN_DECODERS: Readonly<Partial<Record<string, (bytes: Buffer) => unknown>>> = Object.freeze({
  RecordInteractions: decodeRecordedInteraction,
});

/** Encoders of answers the protobuf library does not encode alone. */
const OWN_ENCODERS: Readonly<Partial<Record<string, (libraryEncoder: (value: any) => Buffer) => (value: any) => Buffer>>> = Object.freeze({
  GetSchema: withContentBytes,
});

/** The service definition with pass-through codecs for the validation operations and guarded decoding for the rest. */
export function withMessageCodecs(definition: ContractValidatorDefinition): grpc.ServiceDefinition {
  // One map for operations of different message types: only `any` fits them all.
  const codecs: Record<string, grpc.MethodDefinition<any, any>> = {};
  for (const [name, method] of Object.entries(definition) as Array<[string, grpc.MethodDefinition<any, any>]>) {
    if (name in RAW_VALIDATION_OPERATIONS) {
      codecs[name] = { ...method, requestDeserialize: (bytes: Buffer) => bytes, responseSerialize: (bytes: Buffer) => bytes };
      continue;
    }
    const encode = answerEncoder(name, method);
    codecs[name] = {
      ...method,
      requestDeserialize: guardedDeserializer(OWN_DECODERS[name] ?? libraryDecoder(name, method.requestDeserialize)),
      responseSerialize: (answer: unknown) => (isEncodedAnswer(answer) ? answer[ENCODED] : encode(answer)),
    };
  }
  return codecs as grpc.ServiceDefinition;
}

interface EncodedAnswer {
  readonly [ENCODED]: Buffer;
}

function isEncodedAnswer(answer: unknown): answer is EncodedAnswer {
  return typeof answer === 'object' && answer !== null && ENCODED in answer;
}

function answerEncoder(name: string, method: grpc.MethodDefinition<any, any>): (answer: any) => Buffer {
  return OWN_ENCODERS[name]?.(method.responseSerialize) ?? method.responseSerialize;
}

/**
 * An answer with many entries in its lists, encoded a slice at a time between turns of the event
 * loop; any other answer as it is, for grpc-js to encode. Protobuf reads concatenated encodings of
 * one message type as one message (lists append), so the answer is its other fields' encoding
 * followed by its lists' entries, a slice each. A call cancelled meanwhile stops the encoding.
 */
export async function encodedInTurns(operation: string, answer: unknown, call: { readonly cancelled: boolean }): Promise<unknown> {
  if (typeof answer !== 'object' || answer === null || Buffer.isBuffer(answer)) return answer;
  // Every unary answer passes here on the main thread: a small one is counted, nothing built.
  let entries = 0;
  for (const value of Object.values(answer)) if (Array.isArray(value)) entries += value.length;
  if (entries < ENCODE_IN_TURNS_MIN_ENTRIES) return answer;
  const lists = Object.entries(answer).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]) && entry[1].length > 0);
  const encode = answerEncoders()[operation];
  if (!encode) throw new TypeError(`${operation} is not an operation of the service`);
  const parts = [encode({ ...answer, ...Object.fromEntries(lists.map(([field]) => [field, []])) })];
  const turns = eventLoopTurns(ENCODING_TURN_MS);
  for (const [field, list] of lists) {
    for (const entry of list) {
      if (turns.due()) {
        await turns.next();
        if (call.cancelled) return answer; // grpc-js sends nothing on a cancelled call
      }
      parts.push(encode({ [field]: [entry] }));
    }
  }
  return { [ENCODED]: Buffer.concat(parts) } satisfies EncodedAnswer;
}

let encoders: Readonly<Record<string, (answer: any) => Buffer>> | undefined;

function answerEncoders(): Readonly<Record<string, (answer: any) => Buffer>> {
  encoders ??= Object.freeze(Object.fromEntries(Object.entries(contractValidatorDefinition() as unknown as Record<string, grpc.MethodDefinition<any, any>>)
    .map(([name, method]) => [name, answerEncoder(name, method)])));
  return encoders;
}

/** The protobuf library's decoder of an operation, behind the checks it lacks (wire-type-check.ts). */
function libraryDecoder(name: string, deserialize: (bytes: Buffer) => unknown): (bytes: Buffer) => unknown {
  const decode = name === 'RegisterSchema' ? withSharedContentBytes(deserialize) : deserialize;
  const check = requestWireCheck(name);
  return (bytes) => {
    check(bytes);
    return decode(bytes);
  };
}

function guardedDeserializer(deserialize: (bytes: Buffer) => unknown): (bytes: Buffer) => unknown {
  return (bytes) => {
    try {
      return deserialize(bytes);
    } catch (error) {
      const marker: MalformedRequest = { [MALFORMED]: invalidArgument(`the request is not a valid protobuf message: ${errorMessage(error)}`) };
      return marker;
    }
  };
}

function withSharedContentBytes(deserialize: (bytes: Buffer) => unknown): (bytes: Buffer) => unknown {
  return (message) => {
    const others: Buffer[] = [];
    let content: Buffer | undefined;
    const reader = new WireReader(message);
    while (!reader.done) {
      const start = reader.position;
      const tag = reader.readTag();
      if (tag >>> 3 === SCHEMA_CONTENT_FIELD && (tag & 7) === WireType.LENGTH_DELIMITED) {
        const [from, to] = reader.readLengthDelimited();
        content = message.subarray(from, to); // the last occurrence wins, as in protobuf
      } else {
        reader.skip(tag & 7);
        others.push(message.subarray(start, reader.position));
      }
    }
    const request = deserialize(Buffer.concat(others)) as object;
    const bytes = content ?? Buffer.alloc(0);
    Object.defineProperty(request, CONTENT_BYTES, { value: bytes });
    if (!isUtf8(bytes)) Object.defineProperty(request, CONTENT_NOT_UTF8, { value: true });
    return request;
  };
}

/** GetSchemaResponse: the library encodes the other fields, and schema_content follows as its bytes (fields may come in any order). */
function withContentBytes(libraryEncoder: (value: GetSchemaResponse) => Buffer): (answer: GetSchemaAnswer) => Buffer {
  return ({ schema_content_bytes: content, ...fields }) => {
    const head = libraryEncoder(fields);
    if (content === undefined || content.length === 0) return head;
    const message = Buffer.allocUnsafe(head.length + 1 + varintSize(content.length) + content.length);
    head.copy(message, 0);
    message[head.length] = (ANSWERED_SCHEMA_CONTENT_FIELD << 3) | WireType.LENGTH_DELIMITED;
    content.copy(message, writeVarint(message, head.length + 1, content.length));
    return message;
  };
}
