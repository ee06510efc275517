/**
 * RecordedInteraction read from its protobuf bytes on the main thread, with the validation path's
 * wire reader and limits (shared/pool-protocol/validation-codec.ts) instead of a generic decode: the
 * reading stops at the first header entry over validationMaxHeaderEntries, and such an interaction
 * comes back marked (its request and response left empty), so the service drops it for the price of
 * at most that many entries. Read fields past those observed are skipped unread, and one longer than
 * recordingMaxReadFieldBytes marks the interaction without being decoded.
 * A protobufjs decode of one message with a million headers held the event loop for seconds.
 * Malformed bytes (and strings that are not UTF-8, as in validation) throw WireFormatError.
 */
import type { RecordedInteraction__Output } from '@svc/client/protocol';
import { WireReader, WireType } from '../../shared/pool-protocol/protobuf-wire';
import {
  MessageLimitError, decodeRequestOccurrences, decodeResponseOccurrences, expectWireType, readEmbedded, readString,
} from '../../shared/pool-protocol/validation-codec';
import { LIMITS } from '../../shared/limits';
import type { RecordingDropReason } from './drop-reasons';
import { MAX_READ_FIELDS } from './observe-interaction';

/** Field numbers of proto/svc.proto. */
const RECORDED = {
  SCHEMA_ID: 1, SCHEMA_VERSION: 2, ENVIRONMENT: 3, CONSUMER_ID: 4, REQUEST: 5, RESPONSE: 6, VALID: 7, READ_FIELDS: 8, READ_FIELDS_TRACKED: 9,
} as const;

const OVER_LIMIT = Symbol('recorded interaction over a limit');
const WIRE_BYTES = Symbol('recorded interaction wire bytes');

/** The limit an interaction was found over while reading it; undefined for one read whole. */
export function overLimitReason(message: RecordedInteraction__Output): RecordingDropReason | undefined {
  return (message as { [OVER_LIMIT]?: RecordingDropReason })[OVER_LIMIT];
}

/** Bytes of the message as it came (0 for one not read by decodeRecordedInteraction): about what its decoded strings hold. */
export function wireBytesOf(message: RecordedInteraction__Output): number {
  return (message as { [WIRE_BYTES]?: number })[WIRE_BYTES] ?? 0;
}

export function decodeRecordedInteraction(bytes: Buffer): RecordedInteraction__Output {
  const message: RecordedInteraction__Output = {
    schema_id: '', schema_version: '', environment: '', consumer_id: '', request: null, response: null,
    valid: false, read_fields: [], read_fields_tracked: false,
  };
  const requests: Array<[number, number]> = [];
  const responses: Array<[number, number]> = [];
  let overLimit: RecordingDropReason | undefined;
  const reader = new WireReader(bytes);
  while (!reader.done) {
    const tag = reader.readTag();
    switch (tag >>> 3) {
      case RECORDED.SCHEMA_ID: message.schema_id = readString(reader, tag); break;
      case RECORDED.SCHEMA_VERSION: message.schema_version = readString(reader, tag); break;
      case RECORDED.ENVIRONMENT: message.environment = readString(reader, tag); break;
      case RECORDED.CONSUMER_ID: message.consumer_id = readString(reader, tag); break;
      case RECORDED.REQUEST: requests.push(readEmbedded(reader, tag)); break;
      case RECORDED.RESPONSE: responses.push(readEmbedded(reader, tag)); break;
      case RECORDED.VALID: message.valid = readBool(reader, tag); break;
      case RECORDED.READ_FIELDS: {
        // One past the limit is kept, to tell that the list was cut (observe-interaction.ts).
        if (message.read_fields.length > MAX_READ_FIELDS || overLimit !== undefined) {
          readEmbedded(reader, tag);
          break;
        }
        expectWireType(tag, WireType.LENGTH_DELIMITED);
        const path = reader.readStringUpTo(LIMITS.recordingMaxReadFieldBytes);
        if (path === undefined) overLimit = 'read_field_size';
        else message.read_fields.push(path);
        break;
      }
      case RECORDED.READ_FIELDS_TRACKED: message.read_fields_tracked = readBool(reader, tag); break;
      default: reader.skip(tag & 7);
    }
  }
  try {
    message.request = decodeRequestOccurrences(bytes, requests) ?? null;
    const response = decodeResponseOccurrences(bytes, responses);
    message.response = response ? { status_code: response.statusCode, headers: response.headers, body: response.body } : null;
  } catch (error) {
    // The decoders' limits: header entries and their bytes, read no further than the first over one.
    if (!(error instanceof MessageLimitError)) throw error;
    message.request = null;
    message.response = null;
    overLimit = error.limit;
  }
  if (overLimit !== undefined) Object.defineProperty(message, OVER_LIMIT, { value: overLimit });
  Object.defineProperty(message, WIRE_BYTES, { value: bytes.length });
  return message;
}

function readBool(reader: WireReader, tag: number): boolean {
  expectWireType(tag, WireType.VARINT);
  return reader.readVarint32() !== 0;
}
