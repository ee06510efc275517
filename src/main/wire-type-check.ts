/**
 * Checks a request's fields against the wire types proto/svc.proto declares for them, down through
 * its embedded messages, before the protobuf library decodes it. The library trusts what it reads:
 * - it reads a field by the type it expects whatever the wire says: `08 01` (field 1 as the varint 1)
 *   to PurgeRecordings was read as an empty schema_id, so a malformed request became "purge every
 *   recording";
 * - it reads a string whose length runs past the end of its message as the bytes that are there:
 *   `0a 05 61 62` to CreateEnvironment created the environment "ab".
 * A field of a number the message does not declare is skipped, as protobuf allows; a declared field
 * must arrive as its declared type (or packed, for a repeated number field) and end inside its message.
 */
import type { MethodDefinition, ServiceDefinition } from '@grpc/proto-loader';
import { SERVICE_NAME, loadSvcProto } from '@svc/client/protocol';
import { WireFormatError, WireReader, WireType } from '../shared/pool-protocol/protobuf-wire';

/** Embedded messages deeper than this are refused (svc.proto nests four levels at most). */
const MAX_MESSAGE_DEPTH = 32;

interface FieldShape {
  name: string;
  wireType: number;
  /** A repeated number field, which may also arrive packed (length-delimited). */
  packable: boolean;
  /** The embedded message's shape, for message fields (resolved once the whole proto is read). */
  message: MessageShape | undefined;
}

interface MessageShape {
  name: string;
  fields: Map<number, FieldShape>;
}

/** Wire type of each scalar field type; messages, strings and bytes are length-delimited. */
const SCALAR_WIRE_TYPES: Readonly<Record<string, number>> = Object.freeze({
  TYPE_DOUBLE: WireType.FIXED64,
  TYPE_FIXED64: WireType.FIXED64,
  TYPE_SFIXED64: WireType.FIXED64,
  TYPE_FLOAT: WireType.FIXED32,
  TYPE_FIXED32: WireType.FIXED32,
  TYPE_SFIXED32: WireType.FIXED32,
  TYPE_INT32: WireType.VARINT,
  TYPE_INT64: WireType.VARINT,
  TYPE_UINT32: WireType.VARINT,
  TYPE_UINT64: WireType.VARINT,
  TYPE_SINT32: WireType.VARINT,
  TYPE_SINT64: WireType.VARINT,
  TYPE_BOOL: WireType.VARINT,
  TYPE_ENUM: WireType.VARINT,
});

const WIRE_TYPE_NAMES = ['a varint', 'a 64-bit value', 'length-delimited', 'a group start', 'a group end', 'a 32-bit value'];

/** A descriptor as @grpc/proto-loader gives it (the parts read here). */
interface DescriptorProto {
  name: string;
  field: Array<{ name: string; number: number; label: string; type: string; typeName: string }>;
  nestedType: DescriptorProto[];
}

let shapes: Map<string, MessageShape> | undefined;

/**
 * The check of one operation's request message: throws WireFormatError naming the first field whose
 * wire type or length is wrong.
 */
export function requestWireCheck(operation: string): (bytes: Buffer) => void {
  shapes ??= readShapes();
  const { packageDefinition } = loadSvcProto();
  const method = (packageDefinition[SERVICE_NAME] as ServiceDefinition)[operation] as MethodDefinition<unknown, unknown> | undefined;
  if (!method) throw new TypeError(`${operation} is not an operation of ${SERVICE_NAME}`);
  const holder = SERVICE_NAME.slice(0, SERVICE_NAME.lastIndexOf('.'));
  const shape = resolve(shapes, holder, (method.requestType.type as DescriptorProto).name);
  return (bytes) => checkMessage(new WireReader(bytes), shape, 0);
}

function checkMessage(reader: WireReader, shape: MessageShape, depth: number): void {
  if (depth > MAX_MESSAGE_DEPTH) throw new WireFormatError(`messages nested deeper than ${MAX_MESSAGE_DEPTH} levels`);
  while (!reader.done) {
    const tag = reader.readTag();
    const wireType = tag & 7;
    const field = shape.fields.get(tag >>> 3);
    if (field === undefined || (wireType === field.wireType && field.message === undefined)) {
      reader.skip(wireType);
    } else if (wireType === field.wireType) {
      const [start, end] = reader.readLengthDelimited();
      checkMessage(new WireReader(reader.buffer, start, end), field.message!, depth + 1);
    } else if (field.packable && wireType === WireType.LENGTH_DELIMITED) {
      const [start, end] = reader.readLengthDelimited();
      checkPacked(new WireReader(reader.buffer, start, end), field);
    } else {
      throw new WireFormatError(`${shape.name}.${field.name} (field ${tag >>> 3}) arrived as ${WIRE_TYPE_NAMES[wireType] ?? `wire type ${wireType}`}, not ${WIRE_TYPE_NAMES[field.wireType]}`);
    }
  }
}

/** Packed numbers must fill their field exactly: the library would read the last one past its end. */
function checkPacked(reader: WireReader, field: FieldShape): void {
  while (!reader.done) reader.skip(field.wireType);
}

function readShapes(): Map<string, MessageShape> {
  const read = new Map<string, { shape: MessageShape; descriptor: DescriptorProto }>();
  const add = (fullName: string, descriptor: DescriptorProto) => {
    read.set(fullName, { shape: { name: fullName, fields: new Map() }, descriptor });
    for (const nested of descriptor.nestedType) add(`${fullName}.${nested.name}`, nested);
  };
  for (const [fullName, definition] of Object.entries(loadSvcProto().packageDefinition)) {
    if ('format' in definition && definition.format === 'Protocol Buffer 3 DescriptorProto') add(fullName, definition.type as DescriptorProto);
  }
  for (const [fullName, { shape, descriptor }] of read) {
    for (const field of descriptor.field) {
      const isMessage = field.type === 'TYPE_MESSAGE';
      const scalarWireType = SCALAR_WIRE_TYPES[field.type];
      shape.fields.set(field.number, {
        name: field.name,
        wireType: isMessage || scalarWireType === undefined ? WireType.LENGTH_DELIMITED : scalarWireType,
        packable: field.label === 'LABEL_REPEATED' && scalarWireType !== undefined,
        message: isMessage ? resolve(read, fullName, field.typeName).shape : undefined,
      });
    }
  }
  return new Map([...read].map(([fullName, { shape }]) => [fullName, shape]));
}

/** A field's message type, named relative to the message that holds it (nested first, then outwards). */
function resolve<T>(read: Map<string, T>, holder: string, typeName: string): T {
  if (typeName.startsWith('.')) return found(read, typeName.slice(1), typeName);
  for (let scope = holder; scope !== ''; scope = scope.slice(0, Math.max(0, scope.lastIndexOf('.')))) {
    const candidate = read.get(`${scope}.${typeName}`);
    if (candidate) return candidate;
  }
  return found(read, typeName, typeName);
}

function found<T>(read: Map<string, T>, fullName: string, typeName: string): T {
  const entry = read.get(fullName);
  if (!entry) throw new TypeError(`svc.proto: message type ${typeName} not found`);
  return entry;
}
