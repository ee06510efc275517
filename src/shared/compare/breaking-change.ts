/**
 * What the breaking-change engine reports. The type names are the proto's BreakingChangeType
 * names (the server hands them to grpc-js as enum strings), in the proto's numeric order.
 */
export const BREAKING_CHANGE_TYPES = Object.freeze([
  'ENDPOINT_REMOVED',
  'REQUIRED_FIELD_ADDED',
  'TYPE_CHANGED',
  'REQUIRED_PARAMETER_ADDED',
  'RESPONSE_SCHEMA_CHANGED',
  'ENUM_VALUE_REMOVED',
] as const);

export type BreakingChangeType = (typeof BREAKING_CHANGE_TYPES)[number];

export interface BreakingChangeRecord {
  type: BreakingChangeType;
  /** Path template of the old document (`/users/{id}`); empty when the change applies to every endpoint. */
  path: string;
  /** Upper-case HTTP method; empty when the change applies to every method. */
  method: string;
  /** Where (the location in the operation and a JSON pointer into the document) and what changed. */
  description: string;
  oldValue: string;
  newValue: string;
}

/** Characters of a change's text fields: what it costs an answer, and the memory a kept list holds (a string's length is known without copying it). */
export function breakingChangeChars(change: BreakingChangeRecord): number {
  return change.path.length + change.method.length + change.description.length + change.oldValue.length + change.newValue.length;
}

/** Proto numeric value of a change type (1..6). */
export function breakingChangeTypeNumber(type: BreakingChangeType): number {
  return BREAKING_CHANGE_TYPES.indexOf(type) + 1;
}

/** A change with the proto's snake_case field names: the gRPC message and every `--json` output. */
export interface BreakingChangeWire<T extends string = BreakingChangeType> {
  type: T;
  path: string;
  method: string;
  description: string;
  old_value: string;
  new_value: string;
}

/** Generic over the type name so the CLI can pass changes it read back from a server. */
export function toBreakingChangeWire<T extends string>(change: { type: T } & Omit<BreakingChangeRecord, 'type'>): BreakingChangeWire<T> {
  return {
    type: change.type,
    path: change.path,
    method: change.method,
    description: change.description,
    old_value: change.oldValue,
    new_value: change.newValue,
  };
}
