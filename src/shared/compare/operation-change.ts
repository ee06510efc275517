/** A change found inside one operation, with where in the operation it was found. */
import { shortestPerKey, type FoundChange } from './found-change';

/** Parts of an operation, in the order its changes are reported. */
export const Section = Object.freeze({ ENDPOINT: 0, PARAMETERS: 1, REQUEST_BODY: 2, RESPONSES: 3 });
export type Section = (typeof Section)[keyof typeof Section];

export interface OperationChange extends FoundChange {
  /** The part of the operation, for people: `query parameter "limit"`, `response 200 (application/json)`. */
  location: string;
  section: Section;
  /** Orders changes within a section: parameter key, media type, status code. */
  sectionKey: string;
}

export function inSection(section: Section, sectionKey: string, location: string, changes: readonly FoundChange[]): OperationChange[] {
  return changes.map((change) => ({ ...change, location, section, sectionKey }));
}

/** One change per changed node and part of the operation (see oncePerNode in found-change.ts). */
export function oncePerNodeAndLocation(changes: readonly OperationChange[]): OperationChange[] {
  return shortestPerKey(changes, (change) => `${change.type}\u0000${change.location}\u0000${change.pointer}\u0000${change.what}`);
}
