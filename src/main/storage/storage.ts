/**
 * The storage port. Everything durable goes through this async interface so that an embedded
 * store (SQLite, memory) and a networked one (PostgreSQL) fit behind it without changes above.
 * One contract test suite (test/storage/) runs against every backend.
 */
import type { SchemaOwnershipRecord } from '../../shared/schema-records';

/** One registered version of a schema, as stored. */
export interface SchemaVersionRecord {
  schemaId: string;
  version: string;
  /** The text exactly as registered. */
  content: string;
  /** SHA-256 (hex) of `content`. */
  contentHash: string;
  /** The OpenAPI 3.x document the engines use, as JSON text (v2 converted; `$ref`s kept). */
  documentJson: string;
  openapiVersion: string;
  endpointCount: number;
  ownership: SchemaOwnershipRecord;
  /** Unix seconds. */
  registeredAt: number;
  /** Unix seconds. */
  updatedAt: number;
}

/** A version record without its texts: what the in-memory index keeps. */
export type SchemaVersionSummary = Omit<SchemaVersionRecord, 'content' | 'documentJson'>;

export interface EndpointUsageRecord {
  method: string;
  path: string;
  usedFields: string[];
}

/** A consumer registration; its key is `<consumerId>/<schemaId>/<environment>`. */
export interface ConsumerRecord {
  consumerId: string;
  consumerVersion: string;
  schemaId: string;
  schemaVersion: string;
  environment: string;
  /** Unix seconds. */
  registeredAt: number;
  /** Unix seconds. */
  lastValidatedAt: number;
  usedEndpoints: EndpointUsageRecord[];
}

export interface ConsumerKey {
  consumerId: string;
  schemaId: string;
  environment: string;
}

export interface Storage {
  /** Every schema version without its texts, for the registry's index at start. */
  loadSchemaIndex(): Promise<SchemaVersionSummary[]>;
  getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined>;
  /** Only the engine document and its content hash: what worker threads need, without the registered text. */
  getSchemaDocument(schemaId: string, version: string): Promise<{ contentHash: string; documentJson: string } | undefined>;
  /** Inserts or replaces the version (key: schemaId + version). Durable when the promise resolves. */
  saveSchemaVersion(record: SchemaVersionRecord): Promise<void>;

  listConsumers(filter: { schemaId?: string; environment?: string }): Promise<ConsumerRecord[]>;
  getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined>;
  /** Inserts or replaces the registration. Durable when the promise resolves. */
  saveConsumer(record: ConsumerRecord): Promise<void>;
  /** True when a registration was removed. */
  deleteConsumer(key: ConsumerKey): Promise<boolean>;

  /** Idempotent. */
  close(): Promise<void>;
}

export type StorageKind = 'sqlite' | 'memory';
export const STORAGE_KINDS: readonly StorageKind[] = Object.freeze(['sqlite', 'memory']);
