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

/** Proto numeric value of a change type (1..6). */
export function breakingChangeTypeNumber(type: BreakingChangeType): number {
  return BREAKING_CHANGE_TYPES.indexOf(type) + 1;
}
