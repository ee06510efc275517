/**
 * The storage port. Everything durable goes through this async interface so that an embedded
 * store (SQLite, memory) and a networked one (PostgreSQL) fit behind it without changes above.
 * One contract test suite (test/storage/) runs against every backend.
 */
import { sameOwnership, type SchemaOwnershipRecord, type SchemaText } from '../../shared/schema-records';

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

/** A version record as it is written: its text may still be the bytes it arrived as. */
export interface SchemaVersionWrite extends Omit<SchemaVersionRecord, 'content'> {
  content: SchemaText;
  /** The INTAKE_REVISION whose intake made `documentJson`. */
  intakeRevision: number;
}

/** A version's engine document, and the INTAKE_REVISION that made it (0: stored before revisions were kept). */
export interface StoredDocument {
  contentHash: string;
  documentJson: string;
  intakeRevision: number;
}

/** A version record without its texts: what the in-memory index keeps. */
export type SchemaVersionSummary = Omit<SchemaVersionRecord, 'content' | 'documentJson'> & {
  /**
   * Where replicas share the store: rises with every write of this version, in commit order, so a
   * summary read before a later write can be told apart from one read after it. Absent elsewhere.
   */
  revision?: number;
};

export interface EndpointUsageRecord {
  method: string;
  path: string;
  usedFields: string[];
}

/** Which registrations a listing returns: each field given narrows it. */
export interface ConsumerFilter {
  schemaId?: string;
  environment?: string;
  consumerId?: string;
}

export interface ConsumerUsedFields {
  registrations: number;
  chars: number;
}

/**
 * Characters of a registration's used fields and endpoint paths, all endpoints together (a
 * registration's own limit; the stores keep listedChars). Paths count: a registration stores the schema's own templates, and 30 of
 * 1,000 endpoints of 4,000-character paths made a ListConsumers answer of 120 MB.
 */
export function usedFieldChars(endpoints: readonly EndpointUsageRecord[]): number {
  let chars = 0;
  for (const { path, usedFields } of endpoints) {
    chars += path.length;
    for (const usedField of usedFields) chars += usedField.length;
  }
  return chars;
}

/**
 * What one endpoint and one used field of a registration weigh in its schema's listings, in
 * characters, besides their text. Building and sending a ListConsumers answer costs the main thread
 * about 2 µs an endpoint and 1 µs a used field against 8 ns a character (2-core machine): counted
 * by their characters alone, 30 registrations of 100,000 three-character fields (9 Mi characters,
 * under every limit) made an answer that held every call 3.1 s. Fixed numbers: the stores'
 * migrations counted the rows already stored with them.
 */
export const LISTED_ENDPOINT_CHARS = 256;
export const LISTED_USED_FIELD_CHARS = 128;

/**
 * What a registration weighs in its schema's listings (ListConsumers, CanIDeploy's read), what the
 * stores keep per row and total per schema: the characters of its paths and used fields, each
 * endpoint counting LISTED_ENDPOINT_CHARS more and each used field LISTED_USED_FIELD_CHARS.
 */
export function listedChars(endpoints: readonly EndpointUsageRecord[]): number {
  let entries = 0;
  for (const { usedFields } of endpoints) entries += LISTED_ENDPOINT_CHARS + usedFields.length * LISTED_USED_FIELD_CHARS;
  return usedFieldChars(endpoints) + entries;
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

/** How an environment other than the built-in ones came to exist. */
export type EnvironmentOrigin = 'created' | 'deployment' | 'consumer-registration' | 'existing-registrations';

/** An environment created explicitly or implicitly (dev, staging and prod are built in and not stored). */
export interface EnvironmentRecord {
  name: string;
  description: string;
  origin: EnvironmentOrigin;
  /** Unix seconds. */
  createdAt: number;
  /** API key name of the caller that created it (`anonymous` without authentication; empty for a migration). */
  createdBy: string;
}

/** One entry of the deployment history: a schema version (or a consumer version) put in or taken out of an environment. */
export interface DeploymentRecord {
  schemaId: string;
  environment: string;
  /** Empty for the schema itself; a consumer id for a consumer's own deployment. */
  consumerId: string;
  /** The schema version (or the consumer version); empty for an undeployment. */
  version: string;
  action: 'deployed' | 'undeployed';
  /** For a consumer's deployment: the schema version its version was tested against; else empty. */
  schemaVersion: string;
  /** Unix seconds. */
  recordedAt: number;
  recordedBy: string;
}

export interface DeploymentFilter {
  schemaId?: string;
  environment?: string;
  /** One target's entries ('' for the schema itself); every consumer's and the schema's when undefined. */
  consumerId?: string;
}

/**
 * Recorded usage (docs/evidence.md): one row per consumer × schema × environment × operation × status.
 * `method` and `path` are the operation (path template).
 */
export interface UsageRecord {
  consumerId: string;
  schemaId: string;
  environment: string;
  method: string;
  path: string;
  status: number;
  /** The version the newest recorded interaction was validated against. */
  schemaVersion: string;
  callCount: number;
  /** Interactions that were valid when recorded. */
  validCount: number;
  /** Unix seconds. */
  firstSeenAt: number;
  /** Unix seconds. */
  lastSeenAt: number;
  /** Response field paths the consumer's code read (dot paths with `[]`); all received ones where reads were not tracked. */
  usedFields: string[];
  /** Response field paths received and never read (kept apart; they still count for replay). */
  receivedFields: string[];
}

/** A usage row without its field lists: what coverage and the key count read (the lists can be 500 paths each). */
export type UsageCountRecord = Omit<UsageRecord, 'usedFields' | 'receivedFields'>;

/** One recorded interaction kept as a sample, after redaction: at most one per distinct shape. */
export interface InteractionSampleRecord {
  consumerId: string;
  schemaId: string;
  environment: string;
  method: string;
  path: string;
  status: number;
  /** Digest of the interaction's structure (keys and value types), the sample's identity within its key. */
  shape: string;
  schemaVersion: string;
  valid: boolean;
  /** Unix seconds. */
  recordedAt: number;
  /** The redacted RequestData and ResponseData as JSON (`{"request":…,"response":…}`), with the real path. */
  interactionJson: string;
}

/** What bounds the usage a store keeps. */
export interface UsageStoreLimits {
  samplesPerKey: number;
  maxFieldsPerKey: number;
  /** UTF-8 bytes of all samples' interactions together; past it the oldest samples, of any key, are removed. */
  maxSampleBytesTotal: number;
}

/** What `listSamples` leaves out: replay reads only the valid samples it replays, newest first. */
export interface SampleListOptions {
  /** Only samples that were valid when recorded. */
  validOnly?: boolean;
  /** At most this many (the newest). */
  limit?: number;
}

/** A sample's key and shape without its body: what the usage registry learns at start. */
export type SampleShapeRecord = Pick<InteractionSampleRecord, 'consumerId' | 'schemaId' | 'environment' | 'method' | 'path' | 'status' | 'shape'>;

/** Empty fields match every value; `before` (unix seconds) matches usage last seen earlier. */
export interface UsageFilter {
  schemaId?: string;
  consumerId?: string;
  environment?: string;
  before?: number;
}

export interface Storage {
  /** Every schema version without its texts, for the registry's index at start. */
  loadSchemaIndex(): Promise<SchemaVersionSummary[]>;
  getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined>;
  /**
   * Only the registered text, as its UTF-8 bytes (GetSchema sends them as they are, without decoding
   * and encoding them again); a large document's engine copy is not read with it.
   */
  getSchemaContentBytes(schemaId: string, version: string): Promise<Buffer | undefined>;
  /** Only the engine document and its content hash: what worker threads need, without the registered text. */
  getSchemaDocument(schemaId: string, version: string): Promise<StoredDocument | undefined>;
  /**
   * Replaces a version's engine document with one a later intake made of the same text: only while
   * the version holds `document.contentHash` and a lower intake revision. True when it was replaced.
   */
  updateSchemaDocument(schemaId: string, version: string, document: StoredDocument): Promise<boolean>;
  /** Every version of one schema id without texts: the registry's read-through on an index miss. */
  loadSchemaVersions(schemaId: string): Promise<SchemaVersionSummary[]>;
  /**
   * Inserts or replaces the version (key: schemaId + version). Durable when the promise resolves.
   * With `expected`, the write is conditional (see ExpectedVersion) and atomic in the store, so two
   * writers that decided on the same stale state cannot both win.
   */
  saveSchemaVersion(record: SchemaVersionWrite, expected?: ExpectedVersion): Promise<SaveResult>;

  listConsumers(filter: ConsumerFilter): Promise<ConsumerRecord[]>;
  /**
   * The registrations of `schemaId` (of one environment, or all) and the characters of their used
   * fields, counted without reading the registrations.
   */
  consumerUsedFields(schemaId: string, environment?: string): Promise<ConsumerUsedFields>;
  getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined>;
  /**
   * Inserts or replaces the registration. Durable when the promise resolves. Refused (environmentGone,
   * nothing written) when its environment is neither built in nor stored, in the same step as the write.
   */
  saveConsumer(record: ConsumerRecord): Promise<void>;
  /**
   * True when a registration was removed. With `expected`, only while the stored registration is
   * still that one (versions, last validation, used endpoints): one written since stays.
   */
  deleteConsumer(key: ConsumerKey, expected?: ConsumerRecord): Promise<boolean>;

  /** Every stored environment, by name in code-unit order. */
  listEnvironments(): Promise<EnvironmentRecord[]>;
  /** Inserts the environment unless one of that name exists; true when it was inserted. Durable when the promise resolves. */
  createEnvironment(record: EnvironmentRecord): Promise<boolean>;
  /**
   * Removes the environment unless a consumer registration names it or something is deployed there
   * now (currentDeployments), checked in the same step as the delete: across replicas too, no
   * registration or deployment can land between the check and the delete.
   */
  deleteEnvironment(name: string): Promise<EnvironmentDeletion>;

  /**
   * Appends one entry to the deployment history (entries are never changed or removed). Refused as
   * saveConsumer is when its environment is neither built in nor stored, unless `options` say the
   * entry is history of an environment deleted since.
   */
  appendDeployment(record: DeploymentRecord, options?: AppendDeploymentOptions): Promise<void>;
  /** History entries matching the filter, newest first (the order they were appended), at most `limit`. */
  listDeployments(filter: DeploymentFilter, limit: number): Promise<DeploymentRecord[]>;
  /**
   * What is deployed now: for every (schema, environment, consumer) matching the filter, its newest
   * history entry when that entry is a deployment. Ordered by schema, environment, consumer id.
   */
  currentDeployments(filter: DeploymentFilter): Promise<DeploymentRecord[]>;

  /**
   * Adds recorded usage: each record is what was seen on its key since the last addition, merged
   * into the stored row by mergeUsage (counts add, times widen, fields unite up to
   * `maxFieldsPerKey`), atomically per key, so replicas adding to one key lose nothing. Samples
   * are inserted or replaced (a sample of the same key and shape replaces the older one), then the
   * newest `samplesPerKey` of every key touched are kept, then the oldest samples of any key are
   * removed while all of them together hold more than `maxSampleBytesTotal`. All of it or none:
   * a call that fails added nothing, so the caller can add it again without counting twice.
   * Durable when the promise resolves.
   */
  addUsage(additions: UsageRecord[], samples: InteractionSampleRecord[], limits: UsageStoreLimits): Promise<void>;
  listUsage(filter: UsageFilter): Promise<UsageRecord[]>;
  /**
   * The same rows without their field lists, read without them: 10,000 rows of 500 fields each took
   * 640–714 ms of the main thread to read with them (SQLite), for callers that never look at them.
   */
  listUsageCounts(filter: UsageFilter): Promise<UsageCountRecord[]>;
  /** Samples matching the filter, newest first; the options bound what is read in the store, not after. */
  listSamples(filter: UsageFilter, options?: SampleListOptions): Promise<InteractionSampleRecord[]>;
  /** Key and shape of every stored sample, without reading bodies. */
  listSampleShapes(): Promise<SampleShapeRecord[]>;
  /** Removes usage rows and samples matching the filter; the number of rows and samples removed. */
  deleteUsage(filter: UsageFilter): Promise<number>;

  /**
   * Runs `work` while no other writer of this store runs work under the same `key`: within this
   * process for an embedded store (one server per data directory), across every replica for a
   * shared one. For writes that read before they write where no single statement can decide, such
   * as what was deployed before a deployment is recorded.
   */
  exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;

  /**
   * Present on a store that several replicas share: what the others wrote, so that in-memory
   * indexes follow. Embedded stores have one writer and leave it out.
   */
  readonly changes?: StorageChangeFeed;

  /** Idempotent. */
  close(): Promise<void>;
}

export interface AppendDeploymentOptions {
  /**
   * The entry is history of an environment deleted since (svc import restoring an archive): it is
   * appended without the environment check. The importer checks that nothing stays deployed there.
   */
  ofDeletedEnvironment?: boolean;
}

/** What deleteEnvironment did: removed it, found none of that name, or kept it for what still names it. */
export type EnvironmentDeletion =
  | { outcome: 'deleted' }
  | { outcome: 'not-found' }
  | { outcome: 'in-use'; consumers: number; deployments: number };

/**
 * What a conditional save expects to find under the record's key: `null` for no version yet, or
 * the summary the writer based its decision on (same content hash and ownership).
 */
export type ExpectedVersion = SchemaVersionSummary | null;

/**
 * `saved: false` when the expectation did not hold; `current` is what the store holds instead.
 * `revision`: the saved version's, where the store keeps them.
 */
export type SaveResult = { saved: true; revision?: number } | { saved: false; current: SchemaVersionSummary | undefined };

/** Whether `current` (undefined: no version) is what `expected` describes. */
export function holdsExpected(current: SchemaVersionSummary | undefined, expected: ExpectedVersion): boolean {
  if (expected === null || current === undefined) return expected === null && current === undefined;
  return current.contentHash === expected.contentHash && sameOwnership(current.ownership, expected.ownership);
}

/**
 * A change another writer (or this one) made to a shared store: one version as it now stands, or
 * the whole index after a reconnect or the periodic resync (versions are never removed).
 */
export type StorageChange =
  | { type: 'schema-version'; summary: SchemaVersionSummary }
  | { type: 'resync'; summaries: SchemaVersionSummary[] };

export interface StorageChangeFeed {
  /** Calls `listener` for every change from now on; returns the unsubscribe function. */
  subscribe(listener: (change: StorageChange) => void): () => void;
}

export type StorageKind = 'sqlite' | 'memory' | 'postgres';
export const STORAGE_KINDS: readonly StorageKind[] = Object.freeze(['sqlite', 'memory', 'postgres']);
