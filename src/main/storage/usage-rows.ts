/** Rows of recorded usage as the SQL backends (SQLite, PostgreSQL) store them: the same columns in both. */
import type { InteractionSampleRecord, SampleShapeRecord, UsageCountRecord, UsageRecord } from './storage';

export interface UsageRow {
  consumer_id: string;
  schema_id: string;
  environment: string;
  method: string;
  path: string;
  status: number;
  schema_version: string;
  call_count: number | string;
  valid_count: number | string;
  first_seen_at: number | string;
  last_seen_at: number | string;
  used_fields: string;
  received_fields: string;
}

export interface SampleRow {
  consumer_id: string;
  schema_id: string;
  environment: string;
  method: string;
  path: string;
  status: number;
  shape: string;
  schema_version: string;
  valid: number | boolean;
  recorded_at: number | string;
  interaction_json: string;
  /** UTF-8 bytes of interaction_json: what counts against maxSampleBytesTotal. */
  bytes: number | string;
}

export function usageToRow(record: UsageRecord): UsageRow {
  return {
    consumer_id: record.consumerId, schema_id: record.schemaId, environment: record.environment, method: record.method,
    path: record.path, status: record.status, schema_version: record.schemaVersion, call_count: record.callCount,
    valid_count: record.validCount, first_seen_at: record.firstSeenAt, last_seen_at: record.lastSeenAt,
    used_fields: JSON.stringify(record.usedFields), received_fields: JSON.stringify(record.receivedFields),
  };
}

export function rowToUsage(row: UsageRow): UsageRecord {
  return { ...rowToUsageCounts(row), usedFields: JSON.parse(row.used_fields), receivedFields: JSON.parse(row.received_fields) };
}


export function rowToUsageCounts(row: Omit<UsageRow, 'used_fields' | 'received_fields'>): UsageCountRecord {
  return {
    consumerId: row.consumer_id, schemaId: row.schema_id, environment: row.environment, method: row.method, path: row.path,
    status: Number(row.status), schemaVersion: row.schema_version, callCount: Number(row.call_count), validCount: Number(row.valid_count),
    firstSeenAt: Number(row.first_seen_at), lastSeenAt: Number(row.last_seen_at),
  };
}

export function sampleToRow(sample: InteractionSampleRecord): SampleRow {
  return {
    consumer_id: sample.consumerId, schema_id: sample.schemaId, environment: sample.environment, method: sample.method,
    path: sample.path, status: sample.status, shape: sample.shape, schema_version: sample.schemaVersion,
    valid: sample.valid ? 1 : 0, recorded_at: sample.recordedAt, interaction_json: sample.interactionJson,
    bytes: Buffer.byteLength(sample.interactionJson),
  };
}

export function rowToSample(row: SampleRow): InteractionSampleRecord {
  return {
    consumerId: row.consumer_id, schemaId: row.schema_id, environment: row.environment, method: row.method, path: row.path,
    status: Number(row.status), shape: row.shape, schemaVersion: row.schema_version, valid: row.valid === 1 || row.valid === true,
    recordedAt: Number(row.recorded_at), interactionJson: row.interaction_json,
  };
}

/** Oldest samples read at a time while choosing which to remove for maxSampleBytesTotal. */
export const OLDEST_SAMPLES_READ = 64;

/** Of the oldest samples (oldest first), those whose removal brings the total down by `excess` bytes or as near as they can. */
export function samplesToRemove<T extends { bytes: number | string }>(oldestFirst: readonly T[], excess: number): T[] {
  const chosen: T[] = [];
  let freed = 0;
  for (const sample of oldestFirst) {
    if (freed >= excess) break;
    chosen.push(sample);
    freed += Number(sample.bytes);
  }
  return chosen;
}

/** The columns listSampleShapes reads: a sample's key and shape, without its body. */
export type SampleShapeRow = Pick<SampleRow, (typeof USAGE_KEY_COLUMNS)[number] | 'shape'>;

export function rowToSampleShape({ consumer_id, schema_id, environment, method, path, status, shape }: SampleShapeRow): SampleShapeRecord {
  return { consumerId: consumer_id, schemaId: schema_id, environment, method, path, status: Number(status), shape };
}

/** The columns of a usage key, in key order. */
export const USAGE_KEY_COLUMNS = ['consumer_id', 'schema_id', 'environment', 'method', 'path', 'status'] as const;
/** The columns a usage row has besides its field lists (listUsageCounts selects these alone). */
export const USAGE_COUNT_COLUMNS = [...USAGE_KEY_COLUMNS, 'schema_version', 'call_count', 'valid_count', 'first_seen_at', 'last_seen_at'] as const;
/** Every column of a usage row, the key's first. */
export const USAGE_COLUMNS = [...USAGE_COUNT_COLUMNS, 'used_fields', 'received_fields'] as const;
