/**
 * Reads the validation requests (InteractionRequest, ValidateProducerRequest) and writes
 * ValidationResult straight from and to protobuf bytes, following proto/svc.proto. The server
 * hands the raw request bytes of the validation operations to the worker pool: the main thread
 * reads only the routing head (ids, version, method) and a worker decodes the bodies, so large
 * interactions cost the main thread one copy and no parsing. Proto3 rules apply: unknown fields
 * are skipped, the last value of a scalar wins, a repeated embedded message merges.
 */
import { LIMITS, formatBytes } from '../limits';
import { WireFormatError, WireReader, WireType, stringFieldSize, writeStringField } from './protobuf-wire';

/** RequestData as the validation engine takes it (same shape as its HttpRequestInput). */
export interface RequestFields {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** ResponseData as the validation engine takes it (same shape as its HttpResponseInput). */
export interface ResponseFields {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface InteractionMessage {
  schemaId: string;
  schemaVersion: string;
  correlationId: string;
  request: RequestFields | undefined;
  response: ResponseFields | undefined;
}

export interface ProducerMessage {
  schemaId: string;
  schemaVersion: string;
  method: string;
  path: string;
  response: ResponseFields | undefined;
  request: RequestFields | undefined;
}

/** What the main thread needs to route a call and label its metrics, read without the bodies. */
export interface MessageHead {
  schemaId: string;
  schemaVersion: string;
  /** The HTTP method as sent (InteractionRequest: request.method). */
  method: string;
  correlationId: string;
}

export interface ValidationResultFields {
  valid: boolean;
  errors: readonly string[];
  version: string;
  hash: string;
  correlationId: string;
}

/** Field numbers of proto/svc.proto. */
const INTERACTION = { SCHEMA_ID: 1, REQUEST: 2, RESPONSE: 3, SCHEMA_VERSION: 4, CORRELATION_ID: 5 } as const;
const PRODUCER = { SCHEMA_ID: 1, SCHEMA_VERSION: 2, METHOD: 3, PATH: 4, RESPONSE: 5, REQUEST: 6 } as const;
const REQUEST_DATA = { METHOD: 1, PATH: 2, HEADERS: 3, BODY: 4 } as const;
const RESPONSE_DATA = { STATUS_CODE: 1, HEADERS: 2, BODY: 3 } as const;
const MAP_ENTRY = { KEY: 1, VALUE: 2 } as const;
const RESULT = { VALID: 1, ERRORS: 2, VERSION: 3, HASH: 4, CORRELATION_ID: 5 } as const;

export function readInteractionHead(bytes: Buffer): MessageHead {
  const head: MessageHead = { schemaId: '', schemaVersion: '', method: '', correlationId: '' };
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    const field = tag >>> 3;
    if (field === INTERACTION.SCHEMA_ID) head.schemaId = readString(reader, tag);
    else if (field === INTERACTION.SCHEMA_VERSION) head.schemaVersion = readString(reader, tag);
    else if (field === INTERACTION.CORRELATION_ID) head.correlationId = readString(reader, tag);
    else if (field === INTERACTION.REQUEST) {
      const [start, end] = readEmbedded(reader, tag);
      const method = readRequestMethod(bytes, start, end);
      if (method !== undefined) head.method = method;
    } else reader.skip(tag & 7);
  }
  return head;
}

export function readProducerHead(bytes: Buffer): MessageHead {
  const head: MessageHead = { schemaId: '', schemaVersion: '', method: '', correlationId: '' };
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    const field = tag >>> 3;
    if (field === PRODUCER.SCHEMA_ID) head.schemaId = readString(reader, tag);
    else if (field === PRODUCER.SCHEMA_VERSION) head.schemaVersion = readString(reader, tag);
    else if (field === PRODUCER.METHOD) head.method = readString(reader, tag);
    else reader.skip(tag & 7);
  }
  return head;
}

export function decodeInteractionRequest(bytes: Buffer): InteractionMessage {
  const message: InteractionMessage = {
    schemaId: '', schemaVersion: '', correlationId: '', request: undefined, response: undefined,
  };
  const requests: Array<[number, number]> = [];
  const responses: Array<[number, number]> = [];
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    switch (tag >>> 3) {
      case INTERACTION.SCHEMA_ID: message.schemaId = readString(reader, tag); break;
      case INTERACTION.SCHEMA_VERSION: message.schemaVersion = readString(reader, tag); break;
      case INTERACTION.CORRELATION_ID: message.correlationId = readString(reader, tag); break;
      case INTERACTION.REQUEST: requests.push(readEmbedded(reader, tag)); break;
      case INTERACTION.RESPONSE: responses.push(readEmbedded(reader, tag)); break;
      default: reader.skip(tag & 7);
    }
  }
  message.request = decodeRequestOccurrences(bytes, requests);
  message.response = decodeResponseOccurrences(bytes, responses);
  return message;
}

export function decodeProducerRequest(bytes: Buffer): ProducerMessage {
  const message: ProducerMessage = {
    schemaId: '', schemaVersion: '', method: '', path: '', response: undefined, request: undefined,
  };
  const requests: Array<[number, number]> = [];
  const responses: Array<[number, number]> = [];
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    switch (tag >>> 3) {
      case PRODUCER.SCHEMA_ID: message.schemaId = readString(reader, tag); break;
      case PRODUCER.SCHEMA_VERSION: message.schemaVersion = readString(reader, tag); break;
      case PRODUCER.METHOD: message.method = readString(reader, tag); break;
      case PRODUCER.PATH: message.path = readString(reader, tag); break;
      case PRODUCER.RESPONSE: responses.push(readEmbedded(reader, tag)); break;
      case PRODUCER.REQUEST: requests.push(readEmbedded(reader, tag)); break;
      default: reader.skip(tag & 7);
    }
  }
  message.request = decodeRequestOccurrences(bytes, requests);
  message.response = decodeResponseOccurrences(bytes, responses);
  return message;
}

/** Exact encoded size of a ValidationResult, so a batch of results fills one exact buffer. */
export function validationResultSize(result: ValidationResultFields): number {
  let size = result.valid ? 2 : 0;
  for (const error of result.errors) size += stringFieldSize(Buffer.byteLength(error, 'utf8'));
  size += optionalStringSize(result.version) + optionalStringSize(result.hash) + optionalStringSize(result.correlationId);
  return size;
}

/** Writes the result at `offset` (room for validationResultSize bytes); returns the end offset. */
export function writeValidationResult(result: ValidationResultFields, target: Buffer, offset: number): number {
  if (result.valid) {
    target[offset++] = (RESULT.VALID << 3) | WireType.VARINT;
    target[offset++] = 1;
  }
  for (const error of result.errors) offset = writeStringField(target, offset, RESULT.ERRORS, error, Buffer.byteLength(error, 'utf8'));
  offset = writeOptionalString(target, offset, RESULT.VERSION, result.version);
  offset = writeOptionalString(target, offset, RESULT.HASH, result.hash);
  return writeOptionalString(target, offset, RESULT.CORRELATION_ID, result.correlationId);
}

export function encodeValidationResult(result: ValidationResultFields): Buffer {
  const target = Buffer.allocUnsafe(validationResultSize(result));
  writeValidationResult(result, target, 0);
  return target;
}

/**
 * RequestData from its embedded occurrences (at `ranges`), merged as protobuf merges a repeated
 * embedded message; undefined when there are none. Header entries and their bytes are counted over
 * all occurrences together and the read stops at the first entry over validationMaxHeaderEntries or
 * validationMaxHeaderBytes (MessageLimitError), so an oversized map costs at most that much whoever
 * reads it: a worker, or the main thread for recorded interactions.
 */
export function decodeRequestOccurrences(bytes: Buffer, ranges: ReadonlyArray<[number, number]>): RequestFields | undefined {
  if (ranges.length === 0) return undefined;
  const request: RequestFields = { method: '', path: '', headers: {}, body: '' };
  const headerCount = headerCounter('request');
  for (const [start, end] of ranges) {
    const reader = new WireReader(bytes, start, end);
    while (!reader.done) {
      const tag = reader.readTag();
      switch (tag >>> 3) {
        case REQUEST_DATA.METHOD: request.method = readString(reader, tag); break;
        case REQUEST_DATA.PATH: request.path = readString(reader, tag); break;
        case REQUEST_DATA.BODY: request.body = readString(reader, tag); break;
        case REQUEST_DATA.HEADERS:
          readMapEntry(bytes, headerCount(readEmbedded(reader, tag)), request.headers);
          break;
        default: reader.skip(tag & 7);
      }
    }
  }
  return request;
}

/** ResponseData from its embedded occurrences, as decodeRequestOccurrences reads RequestData. */
export function decodeResponseOccurrences(bytes: Buffer, ranges: ReadonlyArray<[number, number]>): ResponseFields | undefined {
  if (ranges.length === 0) return undefined;
  const response: ResponseFields = { statusCode: 0, headers: {}, body: '' };
  const headerCount = headerCounter('response');
  for (const [start, end] of ranges) {
    const reader = new WireReader(bytes, start, end);
    while (!reader.done) {
      const tag = reader.readTag();
      switch (tag >>> 3) {
        case RESPONSE_DATA.STATUS_CODE:
          expectWireType(tag, WireType.VARINT);
          response.statusCode = reader.readVarint32();
          break;
        case RESPONSE_DATA.BODY: response.body = readString(reader, tag); break;
        case RESPONSE_DATA.HEADERS:
          readMapEntry(bytes, headerCount(readEmbedded(reader, tag)), response.headers);
          break;
        default: reader.skip(tag & 7);
      }
    }
  }
  return response;
}

/** Only RequestData.method, for the routing head; undefined when the field is absent. */
function readRequestMethod(bytes: Buffer, start: number, end: number): string | undefined {
  const reader = new WireReader(bytes, start, end);
  let method: string | undefined;
  while (!reader.done) {
    const tag = reader.readTag();
    if (tag >>> 3 === REQUEST_DATA.METHOD) method = readString(reader, tag);
    else reader.skip(tag & 7);
  }
  return method;
}

/** An interaction over one of the decoding limits: a call failure (LIMIT_EXCEEDED), stopped before the work grows. */
export class MessageLimitError extends Error {
  override name = 'MessageLimitError';

  constructor(message: string, readonly limit: 'header_entries' | 'header_size') {
    super(message);
  }
}

/** Counts one side's header entries as they are read; throws at the first over a limit. */
function headerCounter(side: 'request' | 'response'): (entry: [number, number]) => [number, number] {
  let entries = 0;
  let bytes = 0;
  return (entry) => {
    if (++entries > LIMITS.validationMaxHeaderEntries) {
      throw new MessageLimitError(`the ${side} has more than ${LIMITS.validationMaxHeaderEntries} header entries (validationMaxHeaderEntries)`, 'header_entries');
    }
    bytes += entry[1] - entry[0];
    if (bytes > LIMITS.validationMaxHeaderBytes) {
      throw new MessageLimitError(`the ${side}'s headers are over ${formatBytes(LIMITS.validationMaxHeaderBytes)} (validationMaxHeaderBytes)`, 'header_size');
    }
    return entry;
  };
}

/** One `map<string, string>` entry; a later duplicate key wins, as in protobuf. */
function readMapEntry(bytes: Buffer, [start, end]: [number, number], map: Record<string, string>): void {
  const reader = new WireReader(bytes, start, end);
  let key = '';
  let value = '';
  while (!reader.done) {
    const tag = reader.readTag();
    const field = tag >>> 3;
    if (field === MAP_ENTRY.KEY) key = readString(reader, tag);
    else if (field === MAP_ENTRY.VALUE) value = readString(reader, tag);
    else reader.skip(tag & 7);
  }
  // A header named "__proto__" must stay an ordinary entry, not replace the object's prototype.
  if (key === '__proto__') Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

export function readString(reader: WireReader, tag: number): string {
  expectWireType(tag, WireType.LENGTH_DELIMITED);
  return reader.readString();
}

export function readEmbedded(reader: WireReader, tag: number): [number, number] {
  expectWireType(tag, WireType.LENGTH_DELIMITED);
  return reader.readLengthDelimited();
}

export function expectWireType(tag: number, expected: number): void {
  if ((tag & 7) !== expected) throw new WireFormatError(`field ${tag >>> 3} has wire type ${tag & 7}, expected ${expected}`);
}

function optionalStringSize(value: string): number {
  return value === '' ? 0 : stringFieldSize(Buffer.byteLength(value, 'utf8'));
}

function writeOptionalString(target: Buffer, offset: number, fieldNumber: number, value: string): number {
  return value === '' ? offset : writeStringField(target, offset, fieldNumber, value, Buffer.byteLength(value, 'utf8'));
}

/**
 * The operations whose request messages stay raw protobuf bytes on the main thread (the server
 * installs pass-through codecs for them), each with the reader of its routing fields.
 */
export const RAW_VALIDATION_OPERATIONS = Object.freeze({
  ValidateInteraction: readInteractionHead,
  ValidateInteractionStream: readInteractionHead,
  ValidateProducerResponse: readProducerHead,
});
export type RawValidationOperation = keyof typeof RAW_VALIDATION_OPERATIONS;
