/** Keys and order of recorded usage, shared by the storage backends so that they agree. */
import { createHash } from 'node:crypto';
import type { InteractionSampleRecord, UsageFilter, UsageRecord } from './storage';

type UsageKeyFields = Pick<UsageRecord, 'consumerId' | 'schemaId' | 'environment' | 'method' | 'path' | 'status'>;

/**
 * A longer path template (a schema's own: `/{a parameter name of any length}` matches `/x`) stands
 * in a key by its digest. V8 hashes a string over 16 Ki characters by its length alone: 3,000 keys
 * of one such length (a 17,000-character template, by status) made each look-up of the usage
 * registry compare them all, and held other callers' calls 1.3 s (p50).
 */
const MAX_KEY_PATH_CHARS = 1_024;

/** consumer × schema × environment × operation × status, as one string (a map key, never stored). */
export function usageKeyString(record: UsageKeyFields): string {
  return [record.consumerId, record.schemaId, record.environment, record.method, keyPath(record.path), String(record.status)].join('\u0000');
}

/** An operation (method and path template) as a map key; GetCoverage grouped 600 rows of such templates in 588 ms, holding other calls 451 ms. */
export function operationKey(method: string, path: string): string {
  return `${method} ${keyPath(path)}`;
}

function keyPath(path: string): string {
  return path.length <= MAX_KEY_PATH_CHARS ? path : `#${createHash('sha256').update(path).digest('base64')}`;
}

export function sampleKeyString(sample: InteractionSampleRecord): string {
  return `${usageKeyString(sample)}\u0000${sample.shape}`;
}

export function matchesUsage(record: UsageKeyFields & { lastSeenAt?: number; recordedAt?: number }, filter: UsageFilter): boolean {
  const seen = record.lastSeenAt ?? record.recordedAt ?? 0;
  return (filter.schemaId === undefined || record.schemaId === filter.schemaId)
    && (filter.consumerId === undefined || record.consumerId === filter.consumerId)
    && (filter.environment === undefined || record.environment === filter.environment)
    && (filter.before === undefined || seen < filter.before);
}

/** The order every backend lists usage in: schema, environment, consumer, path, method, status. */
export function compareUsage(a: UsageKeyFields, b: UsageKeyFields): number {
  return codeUnits(a.schemaId, b.schemaId) || codeUnits(a.environment, b.environment) || codeUnits(a.consumerId, b.consumerId)
    || codeUnits(a.path, b.path) || codeUnits(a.method, b.method) || a.status - b.status;
}

function codeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
