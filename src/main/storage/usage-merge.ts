/**
 * How recorded usage adds up: what the usage registry gathers between two flushes, and what every
 * storage backend does when it is added to a stored row. One rule, so a row reads the same whichever
 * replica or backend wrote it, and replicas adding to one key lose nothing.
 */
import { ALL_FIELDS } from '../../shared/evidence/field-paths';
import type { UsageRecord } from './storage';

/** Field names seen on one key: used (read by the consumer) and received (sent, not read). */
export interface FieldSets {
  usedFields: readonly string[];
  receivedFields: readonly string[];
}

/**
 * `stored` and `added` together: counts add, first and last seen widen, the schema version is the
 * one seen last, and fields unite (see uniteFields). `stored` undefined: `added` alone.
 */
export function mergeUsage(stored: UsageRecord | undefined, added: UsageRecord, maxFields: number): UsageRecord {
  if (stored === undefined) return { ...added, ...uniteFields({ usedFields: [], receivedFields: [] }, added, maxFields) };
  return {
    consumerId: stored.consumerId, schemaId: stored.schemaId, environment: stored.environment,
    method: stored.method, path: stored.path, status: stored.status,
    schemaVersion: added.lastSeenAt >= stored.lastSeenAt ? added.schemaVersion : stored.schemaVersion,
    callCount: stored.callCount + added.callCount,
    validCount: stored.validCount + added.validCount,
    firstSeenAt: Math.min(stored.firstSeenAt, added.firstSeenAt),
    lastSeenAt: Math.max(stored.lastSeenAt, added.lastSeenAt),
    ...uniteFields(stored, added, maxFields),
  };
}

/**
 * The fields of both, sorted: a field used by either is used, never also received. At most
 * `maxFields` in all; what `into` holds comes first, used fields before received ones. Used fields
 * left out for want of room leave ALL_FIELDS in their place (one past `maxFields`).
 */
export function uniteFields(into: FieldSets, added: FieldSets, maxFields: number): { usedFields: string[]; receivedFields: string[] } {
  // Runs once per recorded interaction on the main thread: no concatenated copies of the lists.
  const used = new Set<string>();
  let cut = false;
  for (const fields of [into.usedFields, added.usedFields]) {
    for (const field of fields) {
      if (used.size < maxFields) used.add(field);
      else if (!used.has(field)) cut = true;
    }
  }
  if (cut) used.add(ALL_FIELDS);
  const received = new Set<string>();
  for (const fields of [into.receivedFields, added.receivedFields]) {
    for (const field of fields) if (!used.has(field) && used.size + received.size < maxFields) received.add(field);
  }
  return { usedFields: [...used].sort(), receivedFields: [...received].sort() };
}
