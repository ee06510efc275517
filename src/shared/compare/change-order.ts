/**
 * The one documented order of reported changes, so that the same two documents always give the
 * same list (CI logs diff cleanly, tests compare lists):
 *   1. path template of the old document (code-unit order; changes that apply to every endpoint,
 *      with an empty path, come first);
 *   2. HTTP method, in the order GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE;
 *   3. part of the operation: the endpoint itself, parameters (by location, then name), the
 *      request body (by media type), responses (by status code, body before headers);
 *   4. field path inside that part; 5. change type (proto order); 6. description.
 * Exact duplicates (the same change reached through two routes) are reported once.
 */
import { BREAKING_CHANGE_TYPES, type BreakingChangeRecord } from './breaking-change';

export interface SortableChange {
  record: BreakingChangeRecord;
  methodRank: number;
  section: number;
  sectionKey: string;
  field: string;
}

export function sortChanges(changes: SortableChange[]): BreakingChangeRecord[] {
  const sorted = [...changes].sort(compareSortable);
  const seen = new Set<string>();
  const records: BreakingChangeRecord[] = [];
  for (const { record } of sorted) {
    const identity = `${record.type}\u0000${record.path}\u0000${record.method}\u0000${record.description}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    records.push(record);
  }
  return records;
}

function compareSortable(a: SortableChange, b: SortableChange): number {
  return (
    compareText(a.record.path, b.record.path) ||
    a.methodRank - b.methodRank ||
    a.section - b.section ||
    compareText(a.sectionKey, b.sectionKey) ||
    compareText(a.field, b.field) ||
    BREAKING_CHANGE_TYPES.indexOf(a.record.type) - BREAKING_CHANGE_TYPES.indexOf(b.record.type) ||
    compareText(a.record.description, b.record.description)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
