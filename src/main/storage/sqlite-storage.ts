/**
 * The default, embedded store: one SQLite file in the data folder (better-sqlite3). WAL with
 * `synchronous=FULL`, so a registration acknowledged to a client survives a crash or power loss.
 * better-sqlite3 is synchronous; statements are short, so they run on the main thread behind the
 * async port.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ConsumerKey, ConsumerRecord, SchemaVersionRecord, SchemaVersionSummary, Storage } from './storage';

export const SQLITE_FILE_NAME = 'svc.sqlite';

/** Each entry migrates the database from user_version i to i + 1. */
const MIGRATIONS: readonly string[] = [
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

export class SqliteStorage implements Storage {
  readonly #db: Database.Database;
  readonly #statements;
  #closed = false;

  /** Opens (creating if needed) `<dataDir>/svc.sqlite` and migrates it. */
  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true });
    this.#db = new Database(path.join(dataDir, SQLITE_FILE_NAME));
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = FULL');
    this.#db.pragma('foreign_keys = ON');
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db);
    this.#statements = {
      index: this.#db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM schema_versions`),
      getSchema: this.#db.prepare(`SELECT * FROM schema_versions WHERE schema_id = ? AND version = ?`),
      getDocument: this.#db.prepare(`SELECT content_hash, document_json FROM schema_versions WHERE schema_id = ? AND version = ?`),
      saveSchema: this.#db.prepare(`INSERT INTO schema_versions (schema_id, version, content, content_hash,
          document_json, openapi_version, endpoint_count, owner, team, contact_email, read_only, registered_at, updated_at)
        VALUES (@schema_id, @version, @content, @content_hash, @document_json, @openapi_version, @endpoint_count,
          @owner, @team, @contact_email, @read_only, @registered_at, @updated_at)
        ON CONFLICT (schema_id, version) DO UPDATE SET content = excluded.content, content_hash = excluded.content_hash,
          document_json = excluded.document_json, openapi_version = excluded.openapi_version,
          endpoint_count = excluded.endpoint_count, owner = excluded.owner, team = excluded.team,
          contact_email = excluded.contact_email, read_only = excluded.read_only, updated_at = excluded.updated_at`),
      listConsumers: this.#db.prepare(`SELECT * FROM consumers
        WHERE (@schema_id IS NULL OR schema_id = @schema_id) AND (@environment IS NULL OR environment = @environment)
        ORDER BY schema_id, environment, consumer_id`),
      getConsumer: this.#db.prepare(`SELECT * FROM consumers WHERE consumer_id = ? AND schema_id = ? AND environment = ?`),
      saveConsumer: this.#db.prepare(`INSERT INTO consumers (consumer_id, schema_id, environment, consumer_version,
          schema_version, registered_at, last_validated_at, used_endpoints)
        VALUES (@consumer_id, @schema_id, @environment, @consumer_version, @schema_version, @registered_at,
          @last_validated_at, @used_endpoints)
        ON CONFLICT (consumer_id, schema_id, environment) DO UPDATE SET consumer_version = excluded.consumer_version,
          schema_version = excluded.schema_version, last_validated_at = excluded.last_validated_at,
          used_endpoints = excluded.used_endpoints`),
      deleteConsumer: this.#db.prepare(`DELETE FROM consumers WHERE consumer_id = ? AND schema_id = ? AND environment = ?`),
    };
  }

  async loadSchemaIndex(): Promise<SchemaVersionSummary[]> {
    return (this.#statements.index.all() as SchemaRow[]).map(rowToSummary);
  }

  async getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined> {
    const row = this.#statements.getSchema.get(schemaId, version) as SchemaRow | undefined;
    return row && { ...rowToSummary(row), content: row.content!, documentJson: row.document_json! };
  }

  async getSchemaDocument(schemaId: string, version: string): Promise<{ contentHash: string; documentJson: string } | undefined> {
    const row = this.#statements.getDocument.get(schemaId, version) as Pick<SchemaRow, 'content_hash' | 'document_json'> | undefined;
    return row && { contentHash: row.content_hash, documentJson: row.document_json! };
  }

  async saveSchemaVersion(record: SchemaVersionRecord): Promise<void> {
    this.#statements.saveSchema.run({
      schema_id: record.schemaId,
      version: record.version,
      content: record.content,
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
    });
  }

  async listConsumers(filter: { schemaId?: string; environment?: string }): Promise<ConsumerRecord[]> {
    const rows = this.#statements.listConsumers.all({
      schema_id: filter.schemaId ?? null,
      environment: filter.environment ?? null,
    }) as ConsumerRow[];
    return rows.map(rowToConsumer);
  }

  async getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined> {
    const row = this.#statements.getConsumer.get(key.consumerId, key.schemaId, key.environment) as ConsumerRow | undefined;
    return row && rowToConsumer(row);
  }

  async saveConsumer(record: ConsumerRecord): Promise<void> {
    this.#statements.saveConsumer.run({
      consumer_id: record.consumerId,
      schema_id: record.schemaId,
      environment: record.environment,
      consumer_version: record.consumerVersion,
      schema_version: record.schemaVersion,
      registered_at: record.registeredAt,
      last_validated_at: record.lastValidatedAt,
      used_endpoints: JSON.stringify(record.usedEndpoints),
    });
  }

  async deleteConsumer(key: ConsumerKey): Promise<boolean> {
    return this.#statements.deleteConsumer.run(key.consumerId, key.schemaId, key.environment).changes > 0;
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
