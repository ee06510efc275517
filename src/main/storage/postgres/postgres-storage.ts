/**
 * The store for several replicas: one PostgreSQL database (node-postgres pool) shared by all of
 * them. Uniqueness and conditional writes are single statements the database makes atomic, so no
 * replica relies on a lock of its own for correctness. Connecting and migrating happen on first
 * use (SchemaRegistry.open at start), so a database that is unreachable or too old stops the start
 * with a clear message. Afterwards a lost database turns calls into UNAVAILABLE errors, quickly
 * (`connectTimeoutMs`, `statementTimeoutMs`), and the pool reconnects by itself when it is back.
 */
import pg from 'pg';
import { ErrorCode, SvcError, environmentGone, errorMessage } from '../../../shared/errors';
import { isBuiltInEnvironment } from '../../../shared/identifiers';
import type {
  ConsumerFilter, ConsumerKey, ConsumerRecord, ConsumerUsedFields, DeploymentFilter, AppendDeploymentOptions, DeploymentRecord, EnvironmentDeletion, EnvironmentRecord, ExpectedVersion, SaveResult,
  SchemaVersionRecord, SchemaVersionSummary, SchemaVersionWrite, Storage, StorageChange, StoredDocument, StorageChangeFeed, InteractionSampleRecord,
  SampleListOptions, SampleShapeRecord, UsageCountRecord, UsageFilter, UsageRecord, UsageStoreLimits,
} from '../storage';
import { schemaTextString } from '../../../shared/schema-records';
import { KeyedMutex } from '../keyed-mutex';
import { compareUsage, sampleKeyString, usageKeyString } from '../usage-keys';
import { mergeUsage } from '../usage-merge';
import {
  OLDEST_SAMPLES_READ, USAGE_COLUMNS, USAGE_COUNT_COLUMNS, USAGE_KEY_COLUMNS, rowToSample, rowToSampleShape, rowToUsage, rowToUsageCounts, sampleToRow, samplesToRemove, usageToRow,
  type SampleRow, type SampleShapeRow, type UsageRow,
} from '../usage-rows';
import { ChangeListener, type VersionKey } from './change-listener';
import { DatabaseAvailability } from './database-availability';
import { LOCK_NOT_AVAILABLE_SQLSTATE, QUERY_CANCELED_SQLSTATE, READ_ONLY_SQLSTATE, describeCause, isPoolWaitTimeout, isUnavailableError, unavailable } from './database-errors';
import { IncompatibleDatabaseError, migrate } from './migrations';
import { redactDatabaseUrl } from './database-url';
import { DEFAULT_POSTGRES_OPTIONS, type PostgresStorageOptions } from './postgres-options';

/** Namespace of `exclusive`'s advisory locks (hashed with the key), apart from other users of the database. */
const EXCLUSIVE_LOCK_PREFIX = 'svc exclusive ';

const SUMMARY_COLUMNS = `schema_id, version, content_hash, openapi_version, endpoint_count, owner, team,
  contact_email, read_only, registered_at, updated_at, revision`;
const SCHEMA_VALUES = '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14';
const INSERT_SCHEMA = `INSERT INTO svc_schema_versions (schema_id, version, content, content_hash, document_json,
  openapi_version, endpoint_count, owner, team, contact_email, read_only, registered_at, updated_at, intake_revision,
  names_intake_revision) VALUES (${SCHEMA_VALUES}, true)`;

interface SummaryRow {
  schema_id: string;
  version: string;
  content_hash: string;
  openapi_version: string;
  endpoint_count: number;
  owner: string;
  team: string;
  contact_email: string;
  read_only: boolean;
  registered_at: string;
  updated_at: string;
  revision: string;
}

interface EnvironmentRow {
  name: string;
  description: string;
  origin: EnvironmentRecord['origin'];
  created_at: string;
  created_by: string;
}

interface DeploymentRow {
  schema_id: string;
  environment: string;
  consumer_id: string;
  version: string;
  action: DeploymentRecord['action'];
  schema_version: string;
  recorded_at: string;
  recorded_by: string;
}

const DEPLOYMENT_COLUMNS = 'schema_id, environment, consumer_id, version, action, schema_version, recorded_at, recorded_by';
const DEPLOYMENT_FILTER = '($1::text IS NULL OR schema_id = $1) AND ($2::text IS NULL OR environment = $2) AND ($3::text IS NULL OR consumer_id = $3)';
/** What is deployed now (currentDeployments): the newest entry of each target, when it deploys. $1 schema, $2 environment, $3 consumer, any null. */
const CURRENT_DEPLOYMENTS = `SELECT ${DEPLOYMENT_COLUMNS} FROM svc_deployments WHERE action = 'deployed' AND id IN (
    SELECT max(id) FROM svc_deployments WHERE ${DEPLOYMENT_FILTER} GROUP BY schema_id, environment, consumer_id)`;

interface ConsumerRow {
  consumer_id: string;
  schema_id: string;
  environment: string;
  consumer_version: string;
  schema_version: string;
  registered_at: string;
  last_validated_at: string;
  used_endpoints: ConsumerRecord['usedEndpoints'];
}

export class PostgresStorage implements Storage {
  readonly changes: StorageChangeFeed;
  readonly #options: PostgresStorageOptions;
  readonly #location: string;
  readonly #clientConfig: pg.ClientConfig;
  readonly #pool: pg.Pool;
  /**
   * Connections that hold advisory locks for `exclusive` while its work runs on #pool: a holder never
   * takes a connection the work it guards would need.
   */
  readonly #lockPool: pg.Pool;
  /** Work of this process under one key waits here, so it holds at most one lock connection per key. */
  readonly #localExclusive = new KeyedMutex();
  readonly #availability: DatabaseAvailability;
  readonly #listener: ChangeListener;
  readonly #listeners = new Set<(change: StorageChange) => void>();
  /** Every open connection of this store (pools, listener, migration), to drop at a close the database does not answer. */
  readonly #connections = new Set<pg.Client>();
  #ready: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: Partial<PostgresStorageOptions> & Pick<PostgresStorageOptions, 'databaseUrl'>) {
    this.#options = { ...DEFAULT_POSTGRES_OPTIONS, ...options };
    this.#location = redactDatabaseUrl(this.#options.databaseUrl);
    const clientConfig: pg.ClientConfig = {
      connectionString: this.#options.databaseUrl,
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
      statement_timeout: this.#options.statementTimeoutMs,
      query_timeout: this.#options.statementTimeoutMs + 1_000,
      keepAlive: true,
      application_name: 'svc',
    };
    this.#clientConfig = clientConfig;
    this.#pool = new pg.Pool({ ...clientConfig, max: this.#options.poolSize });
    // Waiting for a lock ends with lock_timeout (CONFLICT), before the statement timeouts would (UNAVAILABLE).
    const lockStatementMs = this.#options.lockWaitMs + this.#options.statementTimeoutMs;
    this.#lockPool = new pg.Pool({
      ...clientConfig,
      max: this.#options.poolSize,
      lock_timeout: this.#options.lockWaitMs,
      statement_timeout: lockStatementMs,
      query_timeout: lockStatementMs + 1_000,
    });
    for (const pool of [this.#pool, this.#lockPool]) {
      pool.on('connect', (client) => this.#connections.add(client));
      pool.on('remove', (client) => this.#connections.delete(client));
    }
    // An idle connection the server drops emits 'error' on the pool; unhandled, it would end the process.
    this.#pool.on('error', (error) => this.#availability.markDown(error));
    this.#lockPool.on('error', (error) => this.#availability.markDown(error));
    this.#availability = new DatabaseAvailability(this.#options.logger, this.#options.reportUp);
    this.#listener = new ChangeListener({
      createClient: () => this.#tracked(new pg.Client(clientConfig)),
      readSummaries: (keys) => this.#readSummaries(keys),
      readIndex: () => this.loadSchemaIndex(),
      emit: (change) => {
        for (const listener of this.#listeners) listener(change);
      },
      availability: this.#availability,
      logger: this.#options.logger,
      resyncIntervalMs: this.#options.resyncIntervalMs,
      reconnectDelayMs: this.#options.reconnectDelayMs,
      listenerHeartbeatMs: this.#options.listenerHeartbeatMs,
    });
    this.changes = {
      subscribe: (listener) => {
        this.#listeners.add(listener);
        void this.#whenReady().then(() => this.#listener.start(), () => undefined);
        return () => this.#listeners.delete(listener);
      },
    };
  }

  /** Connects and migrates now (instead of on first use); throws the start-up error, if any. */
  static async open(options: ConstructorParameters<typeof PostgresStorage>[0]): Promise<PostgresStorage> {
    const storage = new PostgresStorage(options);
    try {
      await storage.#whenReady();
    } catch (error) {
      await storage.close();
      throw error;
    }
    return storage;
  }

  async loadSchemaIndex(): Promise<SchemaVersionSummary[]> {
    const { rows } = await this.#query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM svc_schema_versions`);
    return rows.map(rowToSummary);
  }

  async loadSchemaVersions(schemaId: string): Promise<SchemaVersionSummary[]> {
    const { rows } = await this.#query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM svc_schema_versions WHERE schema_id = $1`, [schemaId]);
    return rows.map(rowToSummary);
  }

  async getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined> {
    const { rows } = await this.#query<SummaryRow & { content: string; document_json: string }>(
      `SELECT ${SUMMARY_COLUMNS}, content, document_json FROM svc_schema_versions WHERE schema_id = $1 AND version = $2`,
      [schemaId, version],
    );
    const row = rows[0];
    if (!row) return undefined;
    // A record is what was written; the revision is the index's business.
    const { revision: _revision, ...summary } = rowToSummary(row);
    return { ...summary, content: row.content, documentJson: row.document_json };
  }

  async getSchemaContentBytes(schemaId: string, version: string): Promise<Buffer | undefined> {
    // As text: a bytea answer travels as hex, twice the bytes to receive and decode.
    const { rows } = await this.#query<{ content: string }>('SELECT content FROM svc_schema_versions WHERE schema_id = $1 AND version = $2', [schemaId, version]);
    const content = rows[0]?.content;
    return content === undefined ? undefined : Buffer.from(content, 'utf8');
  }

  async getSchemaDocument(schemaId: string, version: string): Promise<StoredDocument | undefined> {
    const { rows } = await this.#query<{ content_hash: string; document_json: string; intake_revision: number }>(
      'SELECT content_hash, document_json, intake_revision FROM svc_schema_versions WHERE schema_id = $1 AND version = $2',
      [schemaId, version],
    );
    const row = rows[0];
    return row && { contentHash: row.content_hash, documentJson: row.document_json, intakeRevision: row.intake_revision };
  }

  async updateSchemaDocument(schemaId: string, version: string, document: StoredDocument): Promise<boolean> {
    const { rowCount } = await this.#query(
      `UPDATE svc_schema_versions SET document_json = $3, intake_revision = $5, names_intake_revision = true
        WHERE schema_id = $1 AND version = $2 AND content_hash = $4 AND intake_revision < $5`,
      [schemaId, version, document.documentJson, document.contentHash, document.intakeRevision],
    );
    return rowCount === 1;
  }

  async saveSchemaVersion(record: SchemaVersionWrite, expected?: ExpectedVersion): Promise<SaveResult> {
    const values = schemaValues(record);
    let statement: string;
    if (expected === undefined) {
      statement = `${INSERT_SCHEMA} ON CONFLICT (schema_id, version) DO UPDATE SET content = excluded.content,
        content_hash = excluded.content_hash, document_json = excluded.document_json, openapi_version = excluded.openapi_version,
        endpoint_count = excluded.endpoint_count, owner = excluded.owner, team = excluded.team,
        contact_email = excluded.contact_email, read_only = excluded.read_only, updated_at = excluded.updated_at,
        intake_revision = excluded.intake_revision, names_intake_revision = true`;
    } else if (expected === null) {
      statement = `${INSERT_SCHEMA} ON CONFLICT (schema_id, version) DO NOTHING`;
    } else {
      // The row must still be what the writer decided on: same content and ownership.
      // registered_at stays as stored, so $12 is the expected hash here.
      statement = `UPDATE svc_schema_versions SET content = $3, content_hash = $4, document_json = $5, openapi_version = $6,
          endpoint_count = $7, owner = $8, team = $9, contact_email = $10, read_only = $11, updated_at = $13, intake_revision = $14,
          names_intake_revision = true
        WHERE schema_id = $1 AND version = $2 AND content_hash = $12 AND owner = $15 AND team = $16
          AND contact_email = $17 AND read_only = $18`;
      values.splice(11, 1, expected.contentHash);
      values.push(expected.ownership.owner, expected.ownership.team, expected.ownership.contactEmail, expected.ownership.readOnly);
    }
    const { rows } = await this.#query<{ revision: string }>(`${statement} RETURNING revision`, values);
    if (rows.length === 1) return { saved: true, revision: Number(rows[0]!.revision) };
    return { saved: false, current: await this.#readSummary(record.schemaId, record.version) };
  }

  async listConsumers(filter: ConsumerFilter): Promise<ConsumerRecord[]> {
    const { rows } = await this.#query<ConsumerRow>(
      `SELECT * FROM svc_consumers WHERE ($1::text IS NULL OR schema_id = $1) AND ($2::text IS NULL OR environment = $2)
          AND ($3::text IS NULL OR consumer_id = $3)
        ORDER BY schema_id, environment, consumer_id`,
      [filter.schemaId ?? null, filter.environment ?? null, filter.consumerId ?? null],
    );
    return rows.map(rowToConsumer);
  }

  async getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined> {
    const { rows } = await this.#query<ConsumerRow>(
      'SELECT * FROM svc_consumers WHERE consumer_id = $1 AND schema_id = $2 AND environment = $3',
      [key.consumerId, key.schemaId, key.environment],
    );
    return rows[0] && rowToConsumer(rows[0]);
  }

  async saveConsumer(record: ConsumerRecord): Promise<void> {
    await this.#inEnvironment(record.environment, (run) => run(
      // used_field_chars is counted by a trigger (migrations.ts).
      `INSERT INTO svc_consumers (consumer_id, schema_id, environment, consumer_version, schema_version, registered_at,
          last_validated_at, used_endpoints) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (consumer_id, schema_id, environment) DO UPDATE SET consumer_version = excluded.consumer_version,
          schema_version = excluded.schema_version, last_validated_at = excluded.last_validated_at,
          used_endpoints = excluded.used_endpoints`,
      [record.consumerId, record.schemaId, record.environment, record.consumerVersion, record.schemaVersion,
        record.registeredAt, record.lastValidatedAt, JSON.stringify(record.usedEndpoints)],
    ));
  }

  async consumerUsedFields(schemaId: string, environment?: string): Promise<ConsumerUsedFields> {
    const { rows } = await this.#query<{ registrations: string; chars: string }>(
      `SELECT COUNT(*) AS registrations, COALESCE(SUM(used_field_chars), 0) AS chars FROM svc_consumers
        WHERE schema_id = $1 AND ($2::text IS NULL OR environment = $2)`,
      [schemaId, environment ?? null],
    );
    return { registrations: Number(rows[0]!.registrations), chars: Number(rows[0]!.chars) };
  }

  async deleteConsumer(key: ConsumerKey, expected?: ConsumerRecord): Promise<boolean> {
    const values: unknown[] = [key.consumerId, key.schemaId, key.environment];
    let sql = 'DELETE FROM svc_consumers WHERE consumer_id = $1 AND schema_id = $2 AND environment = $3';
    if (expected !== undefined) {
      sql += ' AND consumer_version = $4 AND schema_version = $5 AND last_validated_at = $6 AND used_endpoints = $7::jsonb';
      values.push(expected.consumerVersion, expected.schemaVersion, expected.lastValidatedAt, JSON.stringify(expected.usedEndpoints));
    }
    const { rowCount } = await this.#query(sql, values);
    return rowCount === 1;
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    const { rows } = await this.#query<EnvironmentRow>('SELECT * FROM svc_environments ORDER BY name');
    return rows.map((row) => ({
      name: row.name, description: row.description, origin: row.origin, createdAt: Number(row.created_at), createdBy: row.created_by,
    }));
  }

  async createEnvironment(record: EnvironmentRecord): Promise<boolean> {
    const { rowCount } = await this.#query(
      `INSERT INTO svc_environments (name, description, origin, created_at, created_by) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (name) DO NOTHING`,
      [record.name, record.description, record.origin, record.createdAt, record.createdBy],
    );
    return rowCount === 1;
  }

  async deleteEnvironment(name: string): Promise<EnvironmentDeletion> {
    return this.#transaction(async (client) => {
      // The row lock waits for writers holding the environment (inEnvironment) to commit, and holds
      // off new ones until this commits; the counts below, a statement later, see what they wrote.
      const { rowCount } = await client.query('SELECT 1 FROM svc_environments WHERE name = $1 FOR UPDATE', [name]);
      if (rowCount === 0) return { outcome: 'not-found' };
      const { rows } = await client.query<{ consumers: string; deployments: string }>(
        `SELECT (SELECT COUNT(*) FROM svc_consumers WHERE environment = $2) AS consumers,
            (SELECT COUNT(*) FROM (${CURRENT_DEPLOYMENTS}) AS current) AS deployments`,
        [null, name, null],
      );
      const consumers = Number(rows[0]!.consumers);
      const deployments = Number(rows[0]!.deployments);
      if (consumers > 0 || deployments > 0) return { outcome: 'in-use', consumers, deployments };
      await client.query('DELETE FROM svc_environments WHERE name = $1', [name]);
      return { outcome: 'deleted' };
    });
  }

  async appendDeployment(record: DeploymentRecord, options: AppendDeploymentOptions = {}): Promise<void> {
    const write = (run: (sql: string, values: unknown[]) => Promise<unknown>) => run(
      `INSERT INTO svc_deployments (${DEPLOYMENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [record.schemaId, record.environment, record.consumerId, record.version, record.action, record.schemaVersion,
        record.recordedAt, record.recordedBy],
    );
    if (options.ofDeletedEnvironment) await write((sql, values) => this.#query(sql, values));
    else await this.#inEnvironment(record.environment, write);
  }

  /**
   * Runs a write that names `environment` while no replica can delete it: for a stored environment,
   * in a transaction holding a share lock on its row (deleteEnvironment takes the row exclusively);
   * environmentGone when it is not stored any more. Built-in environments are never deleted.
   */
  async #inEnvironment(environment: string, write: (run: (sql: string, values: unknown[]) => Promise<unknown>) => Promise<unknown>): Promise<void> {
    if (isBuiltInEnvironment(environment)) {
      await write((sql, values) => this.#query(sql, values));
      return;
    }
    await this.#transaction(async (client) => {
      const { rowCount } = await client.query('SELECT 1 FROM svc_environments WHERE name = $1 FOR KEY SHARE', [environment]);
      if (rowCount === 0) throw environmentGone(environment);
      await write((sql, values) => client.query(sql, values));
    });
  }

  async listDeployments(filter: DeploymentFilter, limit: number): Promise<DeploymentRecord[]> {
    const { rows } = await this.#query<DeploymentRow>(
      `SELECT ${DEPLOYMENT_COLUMNS} FROM svc_deployments WHERE ${DEPLOYMENT_FILTER} ORDER BY id DESC LIMIT $4`,
      [filter.schemaId ?? null, filter.environment ?? null, filter.consumerId ?? null, limit],
    );
    return rows.map(rowToDeployment);
  }

  async currentDeployments(filter: DeploymentFilter): Promise<DeploymentRecord[]> {
    const { rows } = await this.#query<DeploymentRow>(
      `${CURRENT_DEPLOYMENTS} ORDER BY schema_id, environment, consumer_id`,
      [filter.schemaId ?? null, filter.environment ?? null, filter.consumerId ?? null],
    );
    return rows.map(rowToDeployment);
  }

  async addUsage(additions: UsageRecord[], samples: InteractionSampleRecord[], limits: UsageStoreLimits): Promise<void> {
    const { samplesPerKey, maxFieldsPerKey, maxSampleBytesTotal } = limits;
    // One addition per key (ON CONFLICT cannot touch one row twice in a statement), in the order every
    // replica locks rows in, so two adding to the same keys wait for each other instead of deadlocking.
    const byKey = new Map<string, UsageRecord>();
    for (const added of additions) {
      const key = usageKeyString(added);
      byKey.set(key, mergeUsage(byKey.get(key), added, maxFieldsPerKey));
    }
    const ordered = [...byKey.values()].sort(compareUsage);
    const sampleRows = [...new Map(samples.map((sample) => [sampleKeyString(sample), sampleToRow(sample)])).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row);
    if (ordered.length === 0 && sampleRows.length === 0) return;
    // One transaction: a portion is added whole or not at all, so the registry can put back what
    // failed without counting twice what was already committed. Replicas writing samples at once
    // wait for each other on the samples' byte total (a row its triggers update); should two meet
    // the other way round on a sample row, PostgreSQL ends one with a deadlock error, nothing of it
    // is kept, and its registry adds the portion again at the next flush.
    await this.#transaction(async (client) => {
      if (ordered.length > 0) {
        // Rows for new keys first (empty, so the merge below is the same for every key), then every
        // row locked until commit: the merge reads what no other replica can change meanwhile.
        const empty = ordered.map((added) => usageToRow({ ...added, callCount: 0, validCount: 0, usedFields: [], receivedFields: [] }));
        const placeholders = multiRowInsert('svc_usage', USAGE_COLUMNS, empty);
        await client.query(`${placeholders.text} ON CONFLICT DO NOTHING`, placeholders.values);
        const keys = keyList(ordered.map(usageToRow));
        const { rows } = await client.query<UsageRow>(
          `SELECT * FROM svc_usage WHERE (${USAGE_KEY_COLUMNS.join(', ')}) IN (${keys.text})
            ORDER BY schema_id, environment, consumer_id, path, method, status FOR UPDATE`,
          keys.values,
        );
        const stored = new Map(rows.map(rowToUsage).map((record) => [usageKeyString(record), record]));
        const merged = ordered.map((added) => usageToRow(mergeUsage(stored.get(usageKeyString(added)), added, maxFieldsPerKey)));
        const update = multiRowInsert('svc_usage', USAGE_COLUMNS, merged);
        await client.query(`${update.text} ON CONFLICT (${USAGE_KEY_COLUMNS.join(', ')}) DO UPDATE SET
            ${USAGE_COLUMNS.slice(USAGE_KEY_COLUMNS.length).map((column) => `${column} = excluded.${column}`).join(', ')}`, update.values);
      }
      if (sampleRows.length === 0) return;
      const { text, values } = multiRowInsert('svc_usage_samples', SAMPLE_COLUMNS, sampleRows.map((row) => ({ ...row, valid: row.valid === 1 })));
      await client.query(`${text} ON CONFLICT (consumer_id, schema_id, environment, method, path, status, shape) DO UPDATE SET
          ${SAMPLE_COLUMNS.slice(7).map((column) => `${column} = excluded.${column}`).join(', ')}`, values);
      const touched = new Map(sampleRows.map((row) => [usageKeyString(rowToSample(row)), row]));
      for (const row of touched.values()) {
        await client.query(
          `DELETE FROM svc_usage_samples WHERE ${SAMPLE_KEY_MATCH} AND shape NOT IN (
              SELECT shape FROM svc_usage_samples WHERE ${SAMPLE_KEY_MATCH} ORDER BY recorded_at DESC, shape LIMIT $7)`,
          [row.consumer_id, row.schema_id, row.environment, row.method, row.path, row.status, samplesPerKey],
        );
      }
      await removeOldestSamplesOver(client, maxSampleBytesTotal);
    });
  }

  async listUsage(filter: UsageFilter): Promise<UsageRecord[]> {
    const { rows } = await this.#query<UsageRow>(
      `SELECT * FROM svc_usage WHERE ${usageFilterSql('last_seen_at')} ORDER BY schema_id, environment, consumer_id, path, method, status`,
      usageFilterValues(filter),
    );
    return rows.map(rowToUsage);
  }

  async listUsageCounts(filter: UsageFilter): Promise<UsageCountRecord[]> {
    const { rows } = await this.#query<UsageRow>(
      `SELECT ${USAGE_COUNT_COLUMNS.join(', ')} FROM svc_usage WHERE ${usageFilterSql('last_seen_at')} ORDER BY schema_id, environment, consumer_id, path, method, status`,
      usageFilterValues(filter),
    );
    return rows.map(rowToUsageCounts);
  }

  async listSamples(filter: UsageFilter, options: SampleListOptions = {}): Promise<InteractionSampleRecord[]> {
    const { rows } = await this.#query<SampleRow>(
      `SELECT * FROM svc_usage_samples WHERE ${usageFilterSql('recorded_at')} AND (NOT $5::boolean OR valid)
        ORDER BY recorded_at DESC, consumer_id, schema_id, environment, method, path, status, shape LIMIT $6`,
      [...usageFilterValues(filter), options.validOnly === true, options.limit ?? null],
    );
    return rows.map(rowToSample);
  }

  async listSampleShapes(): Promise<SampleShapeRecord[]> {
    const { rows } = await this.#query<SampleShapeRow>('SELECT consumer_id, schema_id, environment, method, path, status, shape FROM svc_usage_samples', []);
    return rows.map(rowToSampleShape);
  }

  async deleteUsage(filter: UsageFilter): Promise<number> {
    const values = usageFilterValues(filter);
    const usage = await this.#query(`DELETE FROM svc_usage WHERE ${usageFilterSql('last_seen_at')}`, values);
    const samples = await this.#query(`DELETE FROM svc_usage_samples WHERE ${usageFilterSql('recorded_at')}`, values);
    return (usage.rowCount ?? 0) + (samples.rowCount ?? 0);
  }

  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#localExclusive.run(key, async () => {
      const holder = await this.#checkout(this.#lockPool);
      const lockKey = `${EXCLUSIVE_LOCK_PREFIX}${key}`;
      try {
        // A session lock, released below or by the server if this connection or process dies.
        await holder.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey]);
        this.#availability.markUp();
      } catch (error) {
        const timedOut = (error as { code?: unknown }).code === LOCK_NOT_AVAILABLE_SQLSTATE;
        holder.release(!timedOut);
        if (timedOut) {
          throw new SvcError(
            ErrorCode.CONFLICT,
            `another replica has been writing ${key} for over ${this.#options.lockWaitMs} ms; nothing was written: try again`,
            { cause: error },
          );
        }
        throw this.#mapped(error);
      }
      try {
        return await work();
      } finally {
        await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey]).then(
          () => holder.release(),
          // A connection that failed is closed, which releases the lock too.
          (error: unknown) => holder.release(error instanceof Error ? error : true),
        );
      }
    });
  }

  /** `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#checkout(this.#pool);
    let failure: unknown;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      this.#availability.markUp();
      return result;
    } catch (error) {
      failure = error;
      await client.query('ROLLBACK').catch(() => undefined);
      throw this.#mapped(error);
    } finally {
      // A connection whose statement failed for want of the database is not reused.
      client.release(failure !== undefined && isUnavailableError(failure) ? (failure as Error) : undefined);
    }
  }

  /** A connection of `pool` for statements of the caller's own (a transaction, a held lock). */
  async #checkout(pool: pg.Pool): Promise<pg.PoolClient> {
    await this.#usable();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw this.#mapped(error);
    }
    this.#watchErrors(client);
    return client;
  }

  /**
   * The pool listens for a connection's 'error' only while it is idle: a checked-out one that the
   * server ends (a restart, pg_terminate_backend) emits it with no listener, and that ends the
   * process. Here it only marks the database down; the statement that fails says the rest.
   */
  #watchErrors(client: pg.PoolClient): void {
    const onError = (error: Error) => this.#availability.markDown(error);
    client.on('error', onError);
    const release = client.release;
    client.release = (error?: Error | boolean) => {
      client.removeListener('error', onError);
      release(error);
    };
  }

  /** Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#listeners.clear();
      const ended = (async () => {
        await this.#listener.close();
        await Promise.all([this.#pool.end(), this.#lockPool.end()]);
      })();
      if (await settlesWithin(ended, this.#options.closeTimeoutMs)) return;
      // A stopped or unreachable server never acknowledges an end: the sockets kept the process alive.
      for (const client of this.#connections) dropConnection(client);
      await settlesWithin(ended, this.#options.closeTimeoutMs);
    })();
    return this.#closing;
  }

  #tracked(client: pg.Client): pg.Client {
    this.#connections.add(client);
    client.once('end', () => this.#connections.delete(client));
    return client;
  }

  async #readSummary(schemaId: string, version: string): Promise<SchemaVersionSummary | undefined> {
    const { rows } = await this.#query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM svc_schema_versions WHERE schema_id = $1 AND version = $2`,
      [schemaId, version],
    );
    return rows[0] && rowToSummary(rows[0]);
  }

  async #readSummaries(keys: readonly VersionKey[]): Promise<SchemaVersionSummary[]> {
    const { rows } = await this.#query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM svc_schema_versions
        WHERE (schema_id, version) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [keys.map((key) => key.schemaId), keys.map((key) => key.version)],
    );
    return rows.map(rowToSummary);
  }

  async #query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    await this.#usable();
    try {
      const result = await this.#pool.query<R>(text, values);
      this.#availability.markUp();
      return result;
    } catch (error) {
      throw this.#mapped(error);
    }
  }

  /** A failed statement as the service reports it; an unreachable database is also marked down. */
  #mapped(error: unknown): unknown {
    if (isPoolWaitTimeout(error)) {
      // Not marked down: a busy pool is no outage, and svc_storage_up and the log would say it was.
      const { poolSize, connectTimeoutMs } = this.#options;
      return new SvcError(
        ErrorCode.UNAVAILABLE,
        `all ${poolSize} connections of this server to the registry database (poolSize) stayed busy for ${connectTimeoutMs} ms (connectTimeoutMs); nothing was read or written: retry shortly`,
        { cause: error },
      );
    }
    if ((error as { code?: unknown }).code === QUERY_CANCELED_SQLSTATE) {
      // Not marked down: one slow statement (a large read, a lock held by an administrator) marked
      // the whole database down, with an error line and svc_storage_up 0, while it answered.
      return new SvcError(
        ErrorCode.UNAVAILABLE,
        `the registry database cancelled a statement of this call (${describeCause(error)}): it ran past its time (statementTimeoutMs) or an operator cancelled it; retry shortly`,
        { cause: error },
      );
    }
    if (isUnavailableError(error)) {
      this.#availability.markDown(error);
      return unavailable(error);
    }
    if ((error as { code?: unknown }).code === READ_ONLY_SQLSTATE) {
      return new SvcError(ErrorCode.READ_ONLY, `${errorMessage(error)} and cannot be updated; register a new version instead`, { cause: error });
    }
    return error;
  }

  /** Connected and migrated; refused once the store is closing. */
  async #usable(): Promise<void> {
    if (this.#closing) throw new SvcError(ErrorCode.UNAVAILABLE, 'the registry database connection is closed: the server is shutting down');
    await this.#whenReady();
  }

  #whenReady(): Promise<void> {
    this.#ready ??= this.#connectAndMigrate();
    return this.#ready;
  }

  async #connectAndMigrate(): Promise<void> {
    // A connection of its own, not the pool's: under statementTimeoutMs a migration that rewrites a
    // large table, or a wait for another replica's, was cancelled at every start.
    const { migrationTimeoutMs } = this.#options;
    const client = this.#tracked(new pg.Client({ ...this.#clientConfig, statement_timeout: migrationTimeoutMs, query_timeout: migrationTimeoutMs + 1_000 }));
    client.on('error', (error) => this.#availability.markDown(error));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw new Error(`cannot reach the registry database at ${this.#location}: ${describeCause(error)}`, { cause: error });
    }
    try {
      const report = await migrate(client, this.#location, this.#options.lockWaitMs);
      this.#options.logger?.info(
        { caller: 'storage/postgres', database: this.#location, serverVersion: report.serverVersion, schemaVersion: report.to, migratedFrom: report.from },
        report.from === report.to ? 'registry database ready' : `registry database migrated from schema version ${report.from} to ${report.to}`,
      );
    } catch (error) {
      if (error instanceof IncompatibleDatabaseError) throw error;
      throw new Error(`cannot prepare the registry database at ${this.#location}: ${describeCause(error)}`, { cause: error });
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function schemaValues(record: SchemaVersionWrite): unknown[] {
  return [record.schemaId, record.version, schemaTextString(record.content), record.contentHash, record.documentJson, record.openapiVersion,
    record.endpointCount, record.ownership.owner, record.ownership.team, record.ownership.contactEmail,
    record.ownership.readOnly, record.registeredAt, record.updatedAt, record.intakeRevision];
}

function rowToSummary(row: SummaryRow): SchemaVersionSummary {
  return {
    schemaId: row.schema_id,
    version: row.version,
    contentHash: row.content_hash,
    openapiVersion: row.openapi_version,
    endpointCount: row.endpoint_count,
    ownership: { owner: row.owner, team: row.team, contactEmail: row.contact_email, readOnly: row.read_only },
    registeredAt: Number(row.registered_at),
    updatedAt: Number(row.updated_at),
    revision: Number(row.revision),
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
    recordedAt: Number(row.recorded_at),
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
    registeredAt: Number(row.registered_at),
    lastValidatedAt: Number(row.last_validated_at),
    usedEndpoints: row.used_endpoints,
  };
}

const SAMPLE_COLUMNS = ['consumer_id', 'schema_id', 'environment', 'method', 'path', 'status', 'shape', 'schema_version', 'valid',
  'recorded_at', 'interaction_json', 'bytes'] as const;
const SAMPLE_KEY_MATCH = 'consumer_id = $1 AND schema_id = $2 AND environment = $3 AND method = $4 AND path = $5 AND status = $6';

function multiRowInsert<C extends string>(table: string, columns: readonly C[], rows: Array<Record<C, unknown>>): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = rows.map((row) => `(${columns.map((column) => `$${values.push(row[column])}`).join(', ')})`);
  return { text: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values };
}

/** `($1, $2, …), (…)`: the key columns of `rows`, for `(columns) IN (…)`. */
function keyList(rows: UsageRow[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const tuples = rows.map((row) => `(${USAGE_KEY_COLUMNS.map((column) => `$${values.push(row[column])}`).join(', ')})`);
  return { text: tuples.join(', '), values };
}

/** Null parameters match every row; `seenColumn` is what a `before` filter compares. */
function usageFilterSql(seenColumn: string): string {
  return `($1::text IS NULL OR schema_id = $1) AND ($2::text IS NULL OR consumer_id = $2)
    AND ($3::text IS NULL OR environment = $3) AND ($4::bigint IS NULL OR ${seenColumn} < $4)`;
}

function usageFilterValues(filter: UsageFilter): unknown[] {
  return [filter.schemaId ?? null, filter.consumerId ?? null, filter.environment ?? null, filter.before ?? null];
}

/**
 * Inside addUsage's transaction: the oldest samples out while all of them hold more than `maxBytes`.
 * Replicas doing this at once may remove a few more than needed; a sample another removed first is
 * simply not found.
 */
async function removeOldestSamplesOver(client: pg.PoolClient, maxBytes: number): Promise<void> {
  for (;;) {
    const { rows: [total] } = await client.query<{ total: string }>('SELECT total FROM svc_usage_sample_bytes', []);
    const excess = Number(total?.total ?? 0) - maxBytes;
    if (excess <= 0) return;
    const { rows: oldest } = await client.query<{ ctid: string; bytes: string }>(
      'SELECT ctid, bytes FROM svc_usage_samples ORDER BY recorded_at LIMIT $1', [OLDEST_SAMPLES_READ],
    );
    if (oldest.length === 0) return;
    const chosen = samplesToRemove(oldest, excess).map((sample) => sample.ctid);
    await client.query('DELETE FROM svc_usage_samples WHERE ctid = ANY($1::tid[])', [chosen]);
  }
}

/** Whether `promise` settled within `timeoutMs` (a rejection counts as settled). */
async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(() => true, () => true);
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a connection's socket at once, as pg-pool does for a connection attempt that timed out. */
function dropConnection(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
