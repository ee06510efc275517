/**
 * The default, embedded store: one SQLite file in the data folder (better-sqlite3). WAL with
 * `synchronous=FULL`, so a registration acknowledged to a client survives a crash or power loss.
 * better-sqlite3 is synchronous: the server runs this store on a thread of its own
 * (sqlite-thread-storage.ts), so that no statement holds the main thread.
 *
 * One server per data folder: the database is opened in EXCLUSIVE locking mode, which also means
 * WAL keeps its index in process memory instead of a `-shm` file (a shared-memory file that becomes
 * unwritable kills the process with SIGBUS on the next write). A second server on the same folder is
 * refused at start. Before every write the file is checked to still be the one opened: a database
 * deleted or replaced under a running server would otherwise take writes into an unlinked file and
 * lose them at restart, so such writes fail loudly (UNAVAILABLE) and are logged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { ErrorCode, SvcError, environmentGone } from '../../shared/errors';
import { isBuiltInEnvironment } from '../../shared/identifiers';
import {
  holdsExpected, listedChars, type ConsumerFilter, type ConsumerKey, type ConsumerUsedFields, type ConsumerRecord, type DeploymentFilter, type DeploymentRecord,
  type AppendDeploymentOptions, type EnvironmentDeletion, type EnvironmentRecord, type ExpectedVersion, type SaveResult, type SchemaVersionRecord, type SchemaVersionWrite, type StoredDocument,
  type SchemaVersionSummary, type Storage, type InteractionSampleRecord, type SampleListOptions, type SampleShapeRecord, type UsageCountRecord, type UsageFilter, type UsageRecord, type UsageStoreLimits,
} from './storage';
import { KeyedMutex } from './keyed-mutex';
import { mergeUsage } from './usage-merge';
import { usageKeyString } from './usage-keys';
import {
  OLDEST_SAMPLES_READ, USAGE_COUNT_COLUMNS, USAGE_KEY_COLUMNS, rowToSample, rowToSampleShape, rowToUsage, rowToUsageCounts, sampleToRow, samplesToRemove, usageToRow,
  type SampleRow, type SampleShapeRow, type UsageRow,
} from './usage-rows';

export const SQLITE_FILE_NAME = 'svc.sqlite';

/** Each entry migrates the database from user_version i to i + 1. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE schema_versions (
     schema_id       TEXT NOT NULL,
     version         TEXT NOT NULL,
     content         TEXT NOT NULL,
     content_hash    TEXT NOT NULL,
     document_json   TEXT NOT NULL,
     openapi_version TEXT NOT NULL,
     endpoint_count  INTEGER NOT NULL,
     owner           TEXT NOT NULL,
     team            TEXT NOT NULL,
     contact_email   TEXT NOT NULL,
     read_only       INTEGER NOT NULL,
     registered_at   INTEGER NOT NULL,
     updated_at      INTEGER NOT NULL,
     PRIMARY KEY (schema_id, version)
   ) WITHOUT ROWID;
   CREATE TABLE consumers (
     consumer_id       TEXT NOT NULL,
     schema_id         TEXT NOT NULL,
     environment       TEXT NOT NULL,
     consumer_version  TEXT NOT NULL,
     schema_version    TEXT NOT NULL,
     registered_at     INTEGER NOT NULL,
     last_validated_at INTEGER NOT NULL,
     used_endpoints    TEXT NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment)
   ) WITHOUT ROWID;
   CREATE INDEX consumers_by_schema ON consumers (schema_id, environment);`,
  // Environments and the deployment history. Environments that consumer registrations already name
  // become known ones, so an upgrade keeps every existing gate working.
  `CREATE TABLE environments (
     name        TEXT PRIMARY KEY,
     description TEXT NOT NULL,
     origin      TEXT NOT NULL,
     created_at  INTEGER NOT NULL,
     created_by  TEXT NOT NULL
   ) WITHOUT ROWID;
   INSERT INTO environments (name, description, origin, created_at, created_by)
     SELECT DISTINCT environment, '', 'existing-registrations', CAST(strftime('%s', 'now') AS INTEGER), ''
     FROM consumers WHERE environment NOT IN ('dev', 'staging', 'prod');
   CREATE TABLE deployments (
     id             INTEGER PRIMARY KEY AUTOINCREMENT,
     schema_id      TEXT NOT NULL,
     environment    TEXT NOT NULL,
     consumer_id    TEXT NOT NULL,
     version        TEXT NOT NULL,
     action         TEXT NOT NULL,
     schema_version TEXT NOT NULL,
     recorded_at    INTEGER NOT NULL,
     recorded_by    TEXT NOT NULL
   );
   CREATE INDEX deployments_by_target ON deployments (schema_id, environment, consumer_id, id);`,
  `CREATE TABLE usage (
     consumer_id     TEXT NOT NULL,
     schema_id       TEXT NOT NULL,
     environment     TEXT NOT NULL,
     method          TEXT NOT NULL,
     path            TEXT NOT NULL,
     status          INTEGER NOT NULL,
     schema_version  TEXT NOT NULL,
     call_count      INTEGER NOT NULL,
     valid_count     INTEGER NOT NULL,
     first_seen_at   INTEGER NOT NULL,
     last_seen_at    INTEGER NOT NULL,
     used_fields     TEXT NOT NULL,
     received_fields TEXT NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment, method, path, status)
   ) WITHOUT ROWID;
   CREATE TABLE usage_samples (
     consumer_id      TEXT NOT NULL,
     schema_id        TEXT NOT NULL,
     environment      TEXT NOT NULL,
     method           TEXT NOT NULL,
     path             TEXT NOT NULL,
     status           INTEGER NOT NULL,
     shape            TEXT NOT NULL,
     schema_version   TEXT NOT NULL,
     valid            INTEGER NOT NULL,
     recorded_at      INTEGER NOT NULL,
     interaction_json TEXT NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment, method, path, status, shape)
   );
   CREATE INDEX usage_samples_by_schema ON usage_samples (schema_id, environment);`,
  // Samples' sizes, and their total kept by triggers (every insert, update and delete, whichever
  // statement makes it), so the bound on all samples together costs one row read per write.
  `ALTER TABLE usage_samples ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
   UPDATE usage_samples SET bytes = length(CAST(interaction_json AS BLOB));
   CREATE INDEX usage_samples_by_age ON usage_samples (recorded_at);
   CREATE TABLE usage_sample_bytes (total INTEGER NOT NULL);
   INSERT INTO usage_sample_bytes SELECT COALESCE(SUM(bytes), 0) FROM usage_samples;
   CREATE TRIGGER usage_sample_bytes_insert AFTER INSERT ON usage_samples
     BEGIN UPDATE usage_sample_bytes SET total = total + NEW.bytes; END;
   CREATE TRIGGER usage_sample_bytes_update AFTER UPDATE OF bytes ON usage_samples
     BEGIN UPDATE usage_sample_bytes SET total = total - OLD.bytes + NEW.bytes; END;
   CREATE TRIGGER usage_sample_bytes_delete AFTER DELETE ON usage_samples
     BEGIN UPDATE usage_sample_bytes SET total = total - OLD.bytes; END;`,
  // Each registration's used-field characters, totalled per schema from an index alone (the
  // registrations themselves, up to megabytes each, are not read): consumerSchemaMaxUsedFieldChars.
  // Rows already there are counted in code points (SQL's length), new ones as JavaScript counts.
  `ALTER TABLE consumers ADD COLUMN used_field_chars INTEGER NOT NULL DEFAULT 0;
   UPDATE consumers SET used_field_chars = (SELECT COALESCE(SUM(length(field.value)), 0)
     FROM json_each(consumers.used_endpoints) AS endpoint, json_each(endpoint.value, '$.usedFields') AS field);
   CREATE INDEX consumers_used_field_chars ON consumers (schema_id, environment, used_field_chars);`,
  // The INTAKE_REVISION that made each engine document; 0 for those stored before (read again on first use).
  `ALTER TABLE schema_versions ADD COLUMN intake_revision INTEGER NOT NULL DEFAULT 0;`,
  // Endpoint paths count with the used fields (storage.ts usedFieldChars): rows already there get theirs.
  `UPDATE consumers SET used_field_chars = used_field_chars + (SELECT COALESCE(SUM(length(json_extract(endpoint.value, '$.path'))), 0)
     FROM json_each(consumers.used_endpoints) AS endpoint);`,
  // Each endpoint weighs 256 characters more and each used field 128 (storage.ts listedChars, whose
  // LISTED_ENDPOINT_CHARS and LISTED_USED_FIELD_CHARS these are): rows already there get theirs.
  `UPDATE consumers SET used_field_chars = used_field_chars + 256 * json_array_length(used_endpoints)
     + 128 * (SELECT COUNT(*) FROM json_each(consumers.used_endpoints) AS endpoint, json_each(endpoint.value, '$.usedFields') AS field);`,
];

const SUMMARY_COLUMNS = `schema_id, version, content_hash, openapi_version, endpoint_count, owner, team,
  contact_email, read_only, registered_at, updated_at`;

interface SchemaRow {
  schema_id: string;
  version: string;
  content?: string;
  content_hash: string;
  document_json?: string;
  openapi_version: string;
  endpoint_count: number;
  owner: string;
  team: string;
  contact_email: string;
  read_only: number;
  registered_at: number;
  updated_at: number;
  intake_revision?: number;
}

interface EnvironmentRow {
  name: string;
  description: string;
  origin: EnvironmentRecord['origin'];
  created_at: number;
  created_by: string;
}

interface DeploymentRow {
  schema_id: string;
  environment: string;
  consumer_id: string;
  version: string;
  action: DeploymentRecord['action'];
  schema_version: string;
  recorded_at: number;
  recorded_by: string;
}

interface ConsumerRow {
  consumer_id: string;
  schema_id: string;
  environment: string;
  consumer_version: string;
  schema_version: string;
  registered_at: number;
  last_validated_at: number;
  used_endpoints: string;
}

/** Where the store writes what it refuses (the server's logger, or one that forwards to it). */
export interface StoreLogger {
  error(bindings: object, message: string): void;
}

export class SqliteStorage implements Storage {
  readonly #db: Database.Database;
  readonly #file: string;
  /** Device and inode of the file opened: a write goes on only while the path still names it. */
  readonly #identity: FileIdentity;
  /**
   * The same of its write-ahead log. Commits stay there until a checkpoint copies them into the
   * database file (every 1,000 pages): a log deleted under the server takes them, and every later
   * write, into an unlinked file that the next start never sees.
   */
  readonly #walIdentity: FileIdentity | undefined;
  readonly #logger: StoreLogger | undefined;
  readonly #statements;
  /** One server per data directory (enforced at open), so a lock of this process excludes every writer. */
  readonly #exclusive = new KeyedMutex();
  /**
   * Statements written for the conditions a filter sets, by their SQL (at most 32 sample listings
   * and 8 deployment listings): `@x IS NULL OR …` would keep SQLite from the key's index.
   */
  readonly #filteredQueries = new Map<string, Database.Statement>();
  #closed = false;

  /** Opens (creating if needed) `<dataDir>/svc.sqlite`, takes the folder for this server and migrates it. */
  constructor(dataDir: string, logger?: StoreLogger) {
    this.#file = path.join(dataDir, SQLITE_FILE_NAME);
    this.#logger = logger;
    try {
      fs.mkdirSync(dataDir, { recursive: true });
      // SQLite writes beside its file (the write-ahead log): a folder this user cannot write fails later, unnamed.
      fs.accessSync(dataDir, fs.constants.W_OK);
      if (fs.existsSync(this.#file)) fs.accessSync(this.#file, fs.constants.R_OK | fs.constants.W_OK);
    } catch (error) {
      throw new Error(`cannot use the data folder ${dataDir} for the SQLite store (${SQLITE_FILE_NAME}): ${(error as Error).message}; it must be writable by the user svc runs as`, { cause: error });
    }
    this.#db = new Database(this.#file);
    try {
      // Before WAL is first entered: then SQLite never creates the shared-memory index file.
      this.#db.pragma('locking_mode = EXCLUSIVE');
      this.#db.pragma('busy_timeout = 0');
      this.#db.pragma('journal_mode = WAL');
      // Take the exclusive lock now, so a second server fails here rather than on its first write.
      this.#db.exec('BEGIN IMMEDIATE; COMMIT');
    } catch (error) {
      this.#db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new Error(`the data folder ${dataDir} is in use by another svc server (one server per data folder); stop it or give --data-dir another folder`);
      }
      throw error;
    }
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('foreign_keys = ON');
    this.#identity = identityOf(this.#file)!;
    migrate(this.#db);
    // WAL mode has created the log by now (the lock taken above opened it).
    this.#walIdentity = identityOf(`${this.#file}-wal`);
    this.#statements = {
      index: this.#db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM schema_versions`),
      versionsOf: this.#db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM schema_versions WHERE schema_id = ?`),
      summary: this.#db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM schema_versions WHERE schema_id = ? AND version = ?`),
      getSchema: this.#db.prepare(`SELECT * FROM schema_versions WHERE schema_id = ? AND version = ?`),
      // A BLOB, not TEXT: the stored UTF-8 bytes are copied, not decoded into a string (30 MiB: 19 against 42–55 ms).
      getContentBytes: this.#db.prepare(`SELECT CAST(content AS BLOB) FROM schema_versions WHERE schema_id = ? AND version = ?`).pluck(),
      getDocument: this.#db.prepare(`SELECT content_hash, document_json, intake_revision FROM schema_versions WHERE schema_id = ? AND version = ?`),
      updateDocument: this.#db.prepare(`UPDATE schema_versions SET document_json = @document_json, intake_revision = @intake_revision
        WHERE schema_id = @schema_id AND version = @version AND content_hash = @content_hash AND intake_revision < @intake_revision`),
      saveSchema: this.#db.prepare(`INSERT INTO schema_versions (schema_id, version, content, content_hash,
          document_json, openapi_version, endpoint_count, owner, team, contact_email, read_only, registered_at, updated_at, intake_revision)
        VALUES (@schema_id, @version, CAST(@content AS TEXT), @content_hash, @document_json, @openapi_version, @endpoint_count,
          @owner, @team, @contact_email, @read_only, @registered_at, @updated_at, @intake_revision)
        ON CONFLICT (schema_id, version) DO UPDATE SET content = excluded.content, content_hash = excluded.content_hash,
          document_json = excluded.document_json, openapi_version = excluded.openapi_version,
          endpoint_count = excluded.endpoint_count, owner = excluded.owner, team = excluded.team,
          contact_email = excluded.contact_email, read_only = excluded.read_only, updated_at = excluded.updated_at,
          intake_revision = excluded.intake_revision`),
      listConsumers: this.#db.prepare(`SELECT * FROM consumers
        WHERE (@schema_id IS NULL OR schema_id = @schema_id) AND (@environment IS NULL OR environment = @environment)
          AND (@consumer_id IS NULL OR consumer_id = @consumer_id)
        ORDER BY schema_id, environment, consumer_id`),
      getConsumer: this.#db.prepare(`SELECT * FROM consumers WHERE consumer_id = ? AND schema_id = ? AND environment = ?`),
      saveConsumer: this.#db.prepare(`INSERT INTO consumers (consumer_id, schema_id, environment, consumer_version,
          schema_version, registered_at, last_validated_at, used_endpoints, used_field_chars)
        VALUES (@consumer_id, @schema_id, @environment, @consumer_version, @schema_version, @registered_at,
          @last_validated_at, @used_endpoints, @used_field_chars)
        ON CONFLICT (consumer_id, schema_id, environment) DO UPDATE SET consumer_version = excluded.consumer_version,
          schema_version = excluded.schema_version, last_validated_at = excluded.last_validated_at,
          used_endpoints = excluded.used_endpoints, used_field_chars = excluded.used_field_chars`),
      consumerUsedFields: this.#db.prepare(`SELECT COUNT(*) AS registrations, COALESCE(SUM(used_field_chars), 0) AS chars FROM consumers
        WHERE schema_id = @schema_id AND (@environment IS NULL OR environment = @environment)`),
      deleteConsumer: this.#db.prepare(`DELETE FROM consumers WHERE consumer_id = ? AND schema_id = ? AND environment = ?`),
      deleteExpectedConsumer: this.#db.prepare(`DELETE FROM consumers WHERE consumer_id = @consumer_id AND schema_id = @schema_id
          AND environment = @environment AND consumer_version = @consumer_version AND schema_version = @schema_version
          AND last_validated_at = @last_validated_at AND used_endpoints = @used_endpoints`),
      listEnvironments: this.#db.prepare(`SELECT * FROM environments ORDER BY name`),
      createEnvironment: this.#db.prepare(`INSERT INTO environments (name, description, origin, created_at, created_by)
        VALUES (@name, @description, @origin, @created_at, @created_by) ON CONFLICT (name) DO NOTHING`),
      hasEnvironment: this.#db.prepare(`SELECT 1 FROM environments WHERE name = ?`),
      environmentConsumers: this.#db.prepare(`SELECT COUNT(*) AS count FROM consumers WHERE environment = ?`),
      deleteEnvironment: this.#db.prepare(`DELETE FROM environments WHERE name = ?`),
      appendDeployment: this.#db.prepare(`INSERT INTO deployments (schema_id, environment, consumer_id, version, action,
          schema_version, recorded_at, recorded_by)
        VALUES (@schema_id, @environment, @consumer_id, @version, @action, @schema_version, @recorded_at, @recorded_by)`),
      usageRow: this.#db.prepare(`SELECT * FROM usage WHERE consumer_id = @consumer_id AND schema_id = @schema_id
          AND environment = @environment AND method = @method AND path = @path AND status = @status`),
      saveUsage: this.#db.prepare(`INSERT OR REPLACE INTO usage (consumer_id, schema_id, environment, method, path, status,
          schema_version, call_count, valid_count, first_seen_at, last_seen_at, used_fields, received_fields)
        VALUES (@consumer_id, @schema_id, @environment, @method, @path, @status, @schema_version, @call_count, @valid_count,
          @first_seen_at, @last_seen_at, @used_fields, @received_fields)`),
      // An upsert, not INSERT OR REPLACE: a replacing delete fires no delete trigger (usage_sample_bytes).
      saveSample: this.#db.prepare(`INSERT INTO usage_samples (consumer_id, schema_id, environment, method, path,
          status, shape, schema_version, valid, recorded_at, interaction_json, bytes)
        VALUES (@consumer_id, @schema_id, @environment, @method, @path, @status, @shape, @schema_version, @valid,
          @recorded_at, @interaction_json, @bytes)
        ON CONFLICT (consumer_id, schema_id, environment, method, path, status, shape) DO UPDATE SET
          schema_version = excluded.schema_version, valid = excluded.valid, recorded_at = excluded.recorded_at,
          interaction_json = excluded.interaction_json, bytes = excluded.bytes`),
      sampleBytes: this.#db.prepare('SELECT total FROM usage_sample_bytes'),
      oldestSamples: this.#db.prepare('SELECT rowid, bytes FROM usage_samples ORDER BY recorded_at LIMIT @count'),
      removeSample: this.#db.prepare('DELETE FROM usage_samples WHERE rowid = @rowid'),
      trimSamples: this.#db.prepare(`DELETE FROM usage_samples WHERE consumer_id = @consumer_id AND schema_id = @schema_id
          AND environment = @environment AND method = @method AND path = @path AND status = @status AND shape NOT IN (
            SELECT shape FROM usage_samples WHERE consumer_id = @consumer_id AND schema_id = @schema_id
              AND environment = @environment AND method = @method AND path = @path AND status = @status
            ORDER BY recorded_at DESC, shape LIMIT @keep)`),
      listUsage: this.#db.prepare(`SELECT * FROM usage WHERE ${USAGE_FILTER_SQL.replace('@seen', 'last_seen_at')}
        ORDER BY schema_id, environment, consumer_id, path, method, status`),
      listUsageCounts: this.#db.prepare(`SELECT ${USAGE_COUNT_COLUMNS.join(', ')} FROM usage WHERE ${USAGE_FILTER_SQL.replace('@seen', 'last_seen_at')}
        ORDER BY schema_id, environment, consumer_id, path, method, status`),
      sampleShapes: this.#db.prepare('SELECT consumer_id, schema_id, environment, method, path, status, shape FROM usage_samples'),
      deleteUsage: this.#db.prepare(`DELETE FROM usage WHERE ${USAGE_FILTER_SQL.replace('@seen', 'last_seen_at')}`),
      deleteSamples: this.#db.prepare(`DELETE FROM usage_samples WHERE ${USAGE_FILTER_SQL.replace('@seen', 'recorded_at')}`),
      deleteUsagePortion: this.#db.prepare(`DELETE FROM usage WHERE (${USAGE_KEY_COLUMNS.join(', ')}) IN (
          SELECT ${USAGE_KEY_COLUMNS.join(', ')} FROM usage WHERE ${USAGE_FILTER_SQL.replace('@seen', 'last_seen_at')} LIMIT @limit)`),
      deleteSamplesPortion: this.#db.prepare(`DELETE FROM usage_samples WHERE rowid IN (
          SELECT rowid FROM usage_samples WHERE ${USAGE_FILTER_SQL.replace('@seen', 'recorded_at')} LIMIT @limit)`),
    };
  }

  async loadSchemaIndex(): Promise<SchemaVersionSummary[]> {
    return (this.#statements.index.all() as SchemaRow[]).map(rowToSummary);
  }

  async loadSchemaVersions(schemaId: string): Promise<SchemaVersionSummary[]> {
    return (this.#statements.versionsOf.all(schemaId) as SchemaRow[]).map(rowToSummary);
  }

  async getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined> {
    const row = this.#statements.getSchema.get(schemaId, version) as SchemaRow | undefined;
    return row && { ...rowToSummary(row), content: row.content!, documentJson: row.document_json! };
  }

  async getSchemaContentBytes(schemaId: string, version: string): Promise<Buffer | undefined> {
    return (this.#statements.getContentBytes.get(schemaId, version) as Buffer | null | undefined) ?? undefined;
  }

  async getSchemaDocument(schemaId: string, version: string): Promise<StoredDocument | undefined> {
    const row = this.#statements.getDocument.get(schemaId, version) as Pick<SchemaRow, 'content_hash' | 'document_json' | 'intake_revision'> | undefined;
    return row && { contentHash: row.content_hash, documentJson: row.document_json!, intakeRevision: row.intake_revision! };
  }

  async updateSchemaDocument(schemaId: string, version: string, document: StoredDocument): Promise<boolean> {
    return this.#write(() => this.#statements.updateDocument.run({
      schema_id: schemaId, version, content_hash: document.contentHash, document_json: document.documentJson, intake_revision: document.intakeRevision,
    }).changes > 0);
  }

  async saveSchemaVersion(record: SchemaVersionWrite, expected?: ExpectedVersion): Promise<SaveResult> {
    return this.#write(() => {
      if (expected === undefined) {
        this.#writeSchema(record);
        return { saved: true };
      }
      // Read and write in one transaction: the check holds for the write that follows it.
      return this.#db.transaction((): SaveResult => {
        const row = this.#statements.summary.get(record.schemaId, record.version) as SchemaRow | undefined;
        const current = row && rowToSummary(row);
        if (!holdsExpected(current, expected)) return { saved: false, current };
        this.#writeSchema(record);
        return { saved: true };
      }).immediate();
    });
  }

  /**
   * Runs a write only while the database file is still the one opened, and turns a failed write
   * (disk full, permissions, I/O error) into UNAVAILABLE: never an acknowledgement of lost data.
   */
  #write<T>(write: () => T): T {
    let problem: string;
    try {
      problem = this.#lostFile() ?? this.#lostWal() ?? '';
      if (problem === '') return write();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_')) problem = `the write failed (${code}: ${(error as Error).message})`;
      else throw error;
    }
    this.#logger?.error({ caller: 'sqlite-storage', file: this.#file }, `write refused: ${problem}; nothing was stored`);
    throw new SvcError(ErrorCode.UNAVAILABLE, `the registry store cannot take writes: ${problem}; nothing was stored (restart the server to reopen ${this.#file})`);
  }

  /** Why the database file is no longer the one opened, or undefined while it is. */
  #lostFile(): string | undefined {
    const now = identityOf(this.#file);
    if (now === undefined) return 'the database file was deleted while the server ran';
    return sameFile(now, this.#identity) ? undefined : 'the database file was replaced while the server ran';
  }

  /**
   * Why the write-ahead log is no longer the one opened, or undefined while it is. The commits it
   * still holds are first copied into the database file (a checkpoint reads the open log), so the
   * writes acknowledged before survive a restart or a crash.
   */
  #lostWal(): string | undefined {
    if (this.#walIdentity === undefined) return undefined;
    const now = identityOf(`${this.#file}-wal`);
    if (now !== undefined && sameFile(now, this.#walIdentity)) return undefined;
    const what = `the write-ahead log (${SQLITE_FILE_NAME}-wal) was ${now === undefined ? 'deleted' : 'replaced'} while the server ran`;
    try {
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
      return `${what} (the writes acknowledged before it were copied into the database file)`;
    } catch (error) {
      return `${what} and the writes acknowledged before it could not be copied into the database file (${(error as Error).message}): stop the server cleanly, which copies them`;
    }
  }

  /** Throws environmentGone unless `name` is built in or stored. */
  #requireEnvironment(name: string): void {
    if (!isBuiltInEnvironment(name) && this.#statements.hasEnvironment.get(name) === undefined) throw environmentGone(name);
  }

  #writeSchema(record: SchemaVersionWrite): void {
    const { content } = record;
    this.#statements.saveSchema.run({
      schema_id: record.schemaId,
      version: record.version,
      // Bytes are bound as they are (the statement casts them to TEXT, as stored before): decoding
      // them to a string first would cost this thread what it cost the main thread.
      content: typeof content === 'string' ? content : Buffer.from(content.buffer, content.byteOffset, content.byteLength),
      content_hash: record.contentHash,
      document_json: record.documentJson,
      openapi_version: record.openapiVersion,
      endpoint_count: record.endpointCount,
      owner: record.ownership.owner,
      team: record.ownership.team,
      contact_email: record.ownership.contactEmail,
      read_only: record.ownership.readOnly ? 1 : 0,
      registered_at: record.registeredAt,
      updated_at: record.updatedAt,
      intake_revision: record.intakeRevision,
    });
  }

  async listConsumers(filter: ConsumerFilter): Promise<ConsumerRecord[]> {
    const rows = this.#statements.listConsumers.all({
      schema_id: filter.schemaId ?? null,
      environment: filter.environment ?? null,
      consumer_id: filter.consumerId ?? null,
    }) as ConsumerRow[];
    return rows.map(rowToConsumer);
  }

  async getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined> {
    const row = this.#statements.getConsumer.get(key.consumerId, key.schemaId, key.environment) as ConsumerRow | undefined;
    return row && rowToConsumer(row);
  }

  async saveConsumer(record: ConsumerRecord): Promise<void> {
    // One thread runs every statement of this store: nothing deletes the environment between the check and the insert.
    this.#write(() => {
      this.#requireEnvironment(record.environment);
      this.#statements.saveConsumer.run({
        consumer_id: record.consumerId,
        schema_id: record.schemaId,
        environment: record.environment,
        consumer_version: record.consumerVersion,
        schema_version: record.schemaVersion,
        registered_at: record.registeredAt,
        last_validated_at: record.lastValidatedAt,
        used_endpoints: JSON.stringify(record.usedEndpoints),
        used_field_chars: listedChars(record.usedEndpoints),
      });
    });
  }

  async consumerUsedFields(schemaId: string, environment?: string): Promise<ConsumerUsedFields> {
    return this.#statements.consumerUsedFields.get({ schema_id: schemaId, environment: environment ?? null }) as ConsumerUsedFields;
  }

  async deleteConsumer(key: ConsumerKey, expected?: ConsumerRecord): Promise<boolean> {
    return this.#write(() => {
      if (expected === undefined) return this.#statements.deleteConsumer.run(key.consumerId, key.schemaId, key.environment).changes > 0;
      return this.#statements.deleteExpectedConsumer.run({
        consumer_id: key.consumerId, schema_id: key.schemaId, environment: key.environment, consumer_version: expected.consumerVersion,
        schema_version: expected.schemaVersion, last_validated_at: expected.lastValidatedAt, used_endpoints: JSON.stringify(expected.usedEndpoints),
      }).changes > 0;
    });
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    return (this.#statements.listEnvironments.all() as EnvironmentRow[]).map((row) => ({
      name: row.name, description: row.description, origin: row.origin, createdAt: row.created_at, createdBy: row.created_by,
    }));
  }

  async createEnvironment(record: EnvironmentRecord): Promise<boolean> {
    return this.#write(() => this.#statements.createEnvironment.run({
      name: record.name, description: record.description, origin: record.origin, created_at: record.createdAt, created_by: record.createdBy,
    }).changes > 0);
  }

  async deleteEnvironment(name: string): Promise<EnvironmentDeletion> {
    return this.#write(() => {
      if (this.#statements.hasEnvironment.get(name) === undefined) return { outcome: 'not-found' };
      const consumers = (this.#statements.environmentConsumers.get(name) as { count: number }).count;
      const deployments = this.#deploymentQuery('current', { environment: name }).all(deploymentParameters({ environment: name })).length;
      if (consumers > 0 || deployments > 0) return { outcome: 'in-use', consumers, deployments };
      this.#statements.deleteEnvironment.run(name);
      return { outcome: 'deleted' };
    });
  }

  async appendDeployment(record: DeploymentRecord, options: AppendDeploymentOptions = {}): Promise<void> {
    this.#write(() => {
      if (!options.ofDeletedEnvironment) this.#requireEnvironment(record.environment);
      this.#statements.appendDeployment.run({
        schema_id: record.schemaId, environment: record.environment, consumer_id: record.consumerId, version: record.version,
        action: record.action, schema_version: record.schemaVersion, recorded_at: record.recordedAt, recorded_by: record.recordedBy,
      });
    });
  }

  async listDeployments(filter: DeploymentFilter, limit: number): Promise<DeploymentRecord[]> {
    const rows = this.#deploymentQuery('history', filter).all({ ...deploymentParameters(filter), limit }) as DeploymentRow[];
    return rows.map(rowToDeployment);
  }

  async currentDeployments(filter: DeploymentFilter): Promise<DeploymentRecord[]> {
    return (this.#deploymentQuery('current', filter).all(deploymentParameters(filter)) as DeploymentRow[]).map(rowToDeployment);
  }

  /**
   * Only the conditions the filter sets: with `@x IS NULL OR …` every RecordDeployment read what is
   * deployed by scanning the whole history of every target (3.5 ms at 100,000 entries, growing with
   * them); now it searches its target's entries.
   */
  #deploymentQuery(kind: 'history' | 'current', filter: DeploymentFilter): Database.Statement {
    const where = whereClause([
      filter.schemaId !== undefined && 'schema_id = @schema_id',
      filter.environment !== undefined && 'environment = @environment',
      filter.consumerId !== undefined && 'consumer_id = @consumer_id',
    ]);
    return this.#filteredQuery(kind === 'history'
      ? `SELECT * FROM deployments ${where} ORDER BY id DESC LIMIT @limit`
      : `SELECT * FROM deployments WHERE action = 'deployed' AND id IN (
          SELECT max(id) FROM deployments ${where} GROUP BY schema_id, environment, consumer_id)
        ORDER BY schema_id, environment, consumer_id`);
  }

  /** The statement of `sql`, prepared on first use. */
  #filteredQuery(sql: string): Database.Statement {
    let statement = this.#filteredQueries.get(sql);
    if (!statement) this.#filteredQueries.set(sql, (statement = this.#db.prepare(sql)));
    return statement;
  }

  async addUsage(additions: UsageRecord[], samples: InteractionSampleRecord[], limits: UsageStoreLimits): Promise<void> {
    const { samplesPerKey, maxFieldsPerKey, maxSampleBytesTotal } = limits;
    this.#write(() => this.#db.transaction(() => {
      for (const added of additions) {
        const { consumer_id, schema_id, environment, method, path, status } = usageToRow(added);
        const stored = this.#statements.usageRow.get({ consumer_id, schema_id, environment, method, path, status }) as UsageRow | undefined;
        this.#statements.saveUsage.run(usageToRow(mergeUsage(stored && rowToUsage(stored), added, maxFieldsPerKey)));
      }
      const touched = new Map<string, Pick<SampleRow, (typeof USAGE_KEY_COLUMNS)[number]>>();
      for (const sample of samples) {
        const row = sampleToRow(sample);
        this.#statements.saveSample.run(row);
        const { consumer_id, schema_id, environment, method, path, status } = row;
        touched.set(usageKeyString(sample), { consumer_id, schema_id, environment, method, path, status });
      }
      for (const key of touched.values()) this.#statements.trimSamples.run({ ...key, keep: samplesPerKey });
      if (samples.length > 0) this.#removeOldestSamplesOver(maxSampleBytesTotal);
    })());
  }

  /** Inside addUsage's transaction: the oldest samples out while all of them hold more than `maxBytes`. */
  #removeOldestSamplesOver(maxBytes: number): void {
    for (;;) {
      const excess = (this.#statements.sampleBytes.get() as { total: number }).total - maxBytes;
      if (excess <= 0) return;
      const oldest = this.#statements.oldestSamples.all({ count: OLDEST_SAMPLES_READ }) as Array<{ rowid: number; bytes: number }>;
      if (oldest.length === 0) return;
      for (const { rowid } of samplesToRemove(oldest, excess)) this.#statements.removeSample.run({ rowid });
    }
  }

  async listUsage(filter: UsageFilter): Promise<UsageRecord[]> {
    return (this.#statements.listUsage.all(usageParameters(filter)) as UsageRow[]).map(rowToUsage);
  }

  async listUsageCounts(filter: UsageFilter): Promise<UsageCountRecord[]> {
    return (this.#statements.listUsageCounts.all(usageParameters(filter)) as UsageRow[]).map(rowToUsageCounts);
  }

  async listSamples(filter: UsageFilter, options: SampleListOptions = {}): Promise<InteractionSampleRecord[]> {
    // Only the conditions the filter sets (replay asks for one consumer's samples at a time).
    const where = whereClause([
      filter.schemaId !== undefined && 'schema_id = @schema_id', filter.consumerId !== undefined && 'consumer_id = @consumer_id',
      filter.environment !== undefined && 'environment = @environment', filter.before !== undefined && 'recorded_at < @before',
      options.validOnly === true && 'valid = 1',
    ]);
    const statement = this.#filteredQuery(`SELECT * FROM usage_samples ${where}
      ORDER BY recorded_at DESC, consumer_id, schema_id, environment, method, path, status, shape LIMIT @limit`);
    const parameters = Object.fromEntries(Object.entries(usageParameters(filter)).filter(([, value]) => value !== null));
    // LIMIT -1: no limit.
    return (statement.all({ ...parameters, limit: options.limit ?? -1 }) as SampleRow[]).map(rowToSample);
  }

  async listSampleShapes(): Promise<SampleShapeRecord[]> {
    return (this.#statements.sampleShapes.all() as SampleShapeRow[]).map(rowToSampleShape);
  }

  /**
   * In portions of DELETE_PORTION rows, other calls running between them, then what is left (rows a
   * flush added meanwhile) in one transaction: purging 20,000 keys and their 20,000 samples held the
   * main thread 90 ms in one statement.
   */
  async deleteUsage(filter: UsageFilter): Promise<number> {
    const parameters = usageParameters(filter);
    let removed = 0;
    for (const portion of [this.#statements.deleteSamplesPortion, this.#statements.deleteUsagePortion]) {
      for (;;) {
        await nextTurn();
        const changes = this.#write(() => portion.run({ ...parameters, limit: DELETE_PORTION }).changes);
        removed += changes;
        if (changes < DELETE_PORTION) break;
      }
    }
    return removed + this.#write(() => this.#db.transaction(() =>
      this.#statements.deleteUsage.run(parameters).changes + this.#statements.deleteSamples.run(parameters).changes)());
  }

  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#exclusive.run(key, work);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}

function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this svc supports (${MIGRATIONS.length}); upgrade svc`);
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

/** Rows one statement of a deletion removes at most (deleteUsage). */
const DELETE_PORTION = 1_000;

/** Empty filter fields (null) match every row; `@seen` is the column a `before` filter compares. */
const USAGE_FILTER_SQL = `(@schema_id IS NULL OR schema_id = @schema_id) AND (@consumer_id IS NULL OR consumer_id = @consumer_id)
  AND (@environment IS NULL OR environment = @environment) AND (@before IS NULL OR @seen < @before)`;

function usageParameters(filter: UsageFilter): Record<string, string | number | null> {
  return {
    schema_id: filter.schemaId ?? null, consumer_id: filter.consumerId ?? null,
    environment: filter.environment ?? null, before: filter.before ?? null,
  };
}

function rowToSummary(row: SchemaRow): SchemaVersionSummary {
  return {
    schemaId: row.schema_id,
    version: row.version,
    contentHash: row.content_hash,
    openapiVersion: row.openapi_version,
    endpointCount: row.endpoint_count,
    ownership: { owner: row.owner, team: row.team, contactEmail: row.contact_email, readOnly: row.read_only === 1 },
    registeredAt: row.registered_at,
    updatedAt: row.updated_at,
  };
}

/** `WHERE` with the conditions given (false: a filter field not set), or nothing. */
function whereClause(conditions: ReadonlyArray<string | false>): string {
  const set = conditions.filter((condition): condition is string => condition !== false);
  return set.length === 0 ? '' : `WHERE ${set.join(' AND ')}`;
}

/** The named parameters of the conditions a deployment filter sets. */
function deploymentParameters(filter: DeploymentFilter): { schema_id?: string; environment?: string; consumer_id?: string } {
  return {
    ...(filter.schemaId !== undefined && { schema_id: filter.schemaId }),
    ...(filter.environment !== undefined && { environment: filter.environment }),
    ...(filter.consumerId !== undefined && { consumer_id: filter.consumerId }),
  };
}

function rowToDeployment(row: DeploymentRow): DeploymentRecord {
  return {
    schemaId: row.schema_id,
    environment: row.environment,
    consumerId: row.consumer_id,
    version: row.version,
    action: row.action,
    schemaVersion: row.schema_version,
    recordedAt: row.recorded_at,
    recordedBy: row.recorded_by,
  };
}

function rowToConsumer(row: ConsumerRow): ConsumerRecord {
  return {
    consumerId: row.consumer_id,
    consumerVersion: row.consumer_version,
    schemaId: row.schema_id,
    schemaVersion: row.schema_version,
    environment: row.environment,
    registeredAt: row.registered_at,
    lastValidatedAt: row.last_validated_at,
    usedEndpoints: JSON.parse(row.used_endpoints),
  };
}

interface FileIdentity {
  dev: number;
  ino: number;
}

/** Device and inode of the file at `file`, or undefined when there is none. */
function identityOf(file: string): FileIdentity | undefined {
  const stats = fs.statSync(file, { throwIfNoEntry: false });
  return stats && { dev: stats.dev, ino: stats.ino };
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
