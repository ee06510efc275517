/**
 * The few protobuf wire-format primitives the validation path needs to read its request messages
 * and write ValidationResult without a generic codec: varints, length-delimited fields, skipping.
 * Hand-rolled so that the main thread can read two routing fields of a message without decoding
 * its bodies, and a worker can decode the rest (see validation-codec.ts). Malformed input throws
 * WireFormatError; nothing here trusts a length before checking it against the buffer.
 */

import { isUtf8 } from 'node:buffer';

export const WireType = Object.freeze({ VARINT: 0, FIXED64: 1, LENGTH_DELIMITED: 2, START_GROUP: 3, END_GROUP: 4, FIXED32: 5 });

/** The longest varint protobuf allows (a negative int32 or any 64-bit value). */
const MAX_VARINT_BYTES = 10;

export class WireFormatError extends Error {
  override name = 'WireFormatError';
}

/** A cursor over one message (or one embedded message) of a buffer. */
export class WireReader {
  readonly buffer: Buffer;
  position: number;
  readonly end: number;

  constructor(buffer: Buffer, start = 0, end = buffer.length) {
    this.buffer = buffer;
    this.position = start;
    this.end = end;
  }

  get done(): boolean {
    return this.position >= this.end;
  }

  /** The next field's tag: field number in the high bits, wire type in the low three. */
  readTag(): number {
    const tag = this.readVarint32();
    if (tag >>> 3 === 0) throw new WireFormatError(`field number 0 at byte ${this.position}`);
    return tag;
  }

  /**
   * A varint's low 32 bits, as protobuf decodes int32, uint32, bool and enum fields (a negative
   * int32 arrives as ten bytes; `| 0` keeps its sign).
   */
  readVarint32(): number {
    let result = 0;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      if (this.position >= this.end) throw new WireFormatError('truncated varint');
      const byte = this.buffer[this.position++]!;
      if (i < 5) result |= (byte & 0x7f) << (7 * i);
      if (byte < 0x80) return result | 0;
    }
    throw new WireFormatError('varint longer than 10 bytes');
  }

  /** Start and end offsets of a length-delimited field's payload; the cursor moves past it. */
  readLengthDelimited(): [start: number, end: number] {
    const length = this.readVarint32() >>> 0;
    const start = this.position;
    if (length > this.end - start) throw new WireFormatError(`length ${length} runs past the end of the message`);
    this.position = start + length;
    return [start, this.position];
  }

  /**
   * proto3 `string` fields must hold valid UTF-8; decoding would silently turn bad bytes into
   * U+FFFD and validate a body that was never the JSON text the client sent.
   */
  readString(): string {
    return this.#utf8(...this.readLengthDelimited());
  }

  /** A string field no longer than `maxBytes`, else undefined: a longer one is skipped undecoded. */
  readStringUpTo(maxBytes: number): string | undefined {
    const [start, end] = this.readLengthDelimited();
    return end - start > maxBytes ? undefined : this.#utf8(start, end);
  }

  #utf8(start: number, end: number): string {
    if (start === end) return '';
    if (!isUtf8(this.buffer.subarray(start, end))) {
      throw new WireFormatError(`string field at byte ${start} is not valid UTF-8`);
    }
    return this.buffer.toString('utf8', start, end);
  }

  /** Moves past a field this reader does not need (unknown fields are allowed by protobuf). */
  skip(wireType: number): void {
    switch (wireType) {
      case WireType.VARINT:
        this.readVarint32();
        return;
      case WireType.FIXED64:
        this.#advance(8);
        return;
      case WireType.LENGTH_DELIMITED:
        this.readLengthDelimited();
        return;
      case WireType.FIXED32:
        this.#advance(4);
        return;
      default:
        // Groups are proto2-only and never appear in these proto3 messages.
        throw new WireFormatError(`unsupported wire type ${wireType}`);
    }
  }

  #advance(bytes: number): void {
    if (bytes > this.end - this.position) throw new WireFormatError('truncated fixed-width field');
    this.position += bytes;
  }
}

/** Bytes a varint of this unsigned 32-bit value takes. */
export function varintSize(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

export function writeVarint(target: Buffer, offset: number, value: number): number {
  let remaining = value >>> 0;
  while (remaining >= 0x80) {
    target[offset++] = (remaining & 0x7f) | 0x80;
    remaining >>>= 7;
  }
  target[offset++] = remaining;
  return offset;
}

/** Size of a length-delimited string field including its one-byte tag (field numbers below 16). */
export function stringFieldSize(byteLength: number): number {
  return 1 + varintSize(byteLength) + byteLength;
}

export function writeStringField(target: Buffer, offset: number, fieldNumber: number, value: string, byteLength: number): number {
  target[offset++] = (fieldNumber << 3) | WireType.LENGTH_DELIMITED;
  offset = writeVarint(target, offset, byteLength);
  return offset + target.write(value, offset, byteLength, 'utf8');
}
