/**
 * Versioned schema migrations of the PostgreSQL store, applied at start. Several replicas may start
 * at once: a session-level advisory lock lets one apply the pending migrations while the others
 * wait, then find nothing left to do. Each migration runs in its own transaction with the row
 * that records it, so a crash never leaves one half applied.
 */
import type pg from 'pg';
import { MIN_SERVER_VERSION_NUM } from './postgres-options';
import { LOCK_NOT_AVAILABLE_SQLSTATE, READ_ONLY_SQLSTATE } from './database-errors';

/** Key of the advisory lock held while migrating (`SVC_MIGR` in ASCII). */
export const MIGRATION_LOCK_KEY = '6004254011640530258';

/** The channel the tables' triggers notify on; the payload is `{"schemaId", "version"}`. */
export const CHANGE_CHANNEL = 'svc_registry';

/** Entry i migrates the database from version i to i + 1. Never edit one that has shipped: add another. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE svc_schema_versions (
     schema_id       text COLLATE "C" NOT NULL,
     version         text COLLATE "C" NOT NULL,
     content         text NOT NULL,
     content_hash    text NOT NULL,
     document_json   text NOT NULL,
     openapi_version text NOT NULL,
     endpoint_count  integer NOT NULL,
     owner           text NOT NULL,
     team            text NOT NULL,
     contact_email   text NOT NULL,
     read_only       boolean NOT NULL,
     registered_at   bigint NOT NULL,
     updated_at      bigint NOT NULL,
     PRIMARY KEY (schema_id, version)
   );
   CREATE TABLE svc_consumers (
     consumer_id       text COLLATE "C" NOT NULL,
     schema_id         text COLLATE "C" NOT NULL,
     environment       text COLLATE "C" NOT NULL,
     consumer_version  text NOT NULL,
     schema_version    text NOT NULL,
     registered_at     bigint NOT NULL,
     last_validated_at bigint NOT NULL,
     used_endpoints    jsonb NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment)
   );
   CREATE INDEX svc_consumers_by_schema ON svc_consumers (schema_id, environment);

   -- A read-only version never changes, whichever replica or tool writes.
   CREATE FUNCTION svc_keep_read_only_versions() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF OLD.read_only AND (NEW.content_hash, NEW.owner, NEW.team, NEW.contact_email, NEW.read_only)
         IS DISTINCT FROM (OLD.content_hash, OLD.owner, OLD.team, OLD.contact_email, OLD.read_only) THEN
       RAISE EXCEPTION 'schema % version % is read-only', OLD.schema_id, OLD.version USING ERRCODE = '${READ_ONLY_SQLSTATE}';
     END IF;
     RETURN NEW;
   END $$;
   CREATE TRIGGER svc_schema_versions_read_only BEFORE UPDATE ON svc_schema_versions
     FOR EACH ROW EXECUTE FUNCTION svc_keep_read_only_versions();

   -- Every replica LISTENs: a committed write reaches the others' indexes without polling.
   CREATE FUNCTION svc_notify_schema_version() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('${CHANGE_CHANNEL}', json_build_object('schemaId', NEW.schema_id, 'version', NEW.version)::text);
     RETURN NULL;
   END $$;
   CREATE TRIGGER svc_schema_versions_notify AFTER INSERT OR UPDATE ON svc_schema_versions
     FOR EACH ROW EXECUTE FUNCTION svc_notify_schema_version();`,
  // Environments and the deployment history. Environments that consumer registrations already name
  // become known ones, so an upgrade keeps every existing gate working.
  `CREATE TABLE svc_environments (
     name        text COLLATE "C" PRIMARY KEY,
     description text NOT NULL,
     origin      text NOT NULL,
     created_at  bigint NOT NULL,
     created_by  text NOT NULL
   );
   INSERT INTO svc_environments (name, description, origin, created_at, created_by)
     SELECT DISTINCT environment, '', 'existing-registrations', extract(epoch FROM now())::bigint, ''
     FROM svc_consumers WHERE environment NOT IN ('dev', 'staging', 'prod');
   CREATE TABLE svc_deployments (
     id             bigserial PRIMARY KEY,
     schema_id      text COLLATE "C" NOT NULL,
     environment    text COLLATE "C" NOT NULL,
     consumer_id    text COLLATE "C" NOT NULL,
     version        text NOT NULL,
     action         text NOT NULL,
     schema_version text NOT NULL,
     recorded_at    bigint NOT NULL,
     recorded_by    text NOT NULL
   );
   CREATE INDEX svc_deployments_by_target ON svc_deployments (schema_id, environment, consumer_id, id);`,
  `CREATE TABLE svc_usage (
     consumer_id     text COLLATE "C" NOT NULL,
     schema_id       text COLLATE "C" NOT NULL,
     environment     text COLLATE "C" NOT NULL,
     method          text COLLATE "C" NOT NULL,
     path            text COLLATE "C" NOT NULL,
     status          integer NOT NULL,
     schema_version  text NOT NULL,
     call_count      bigint NOT NULL,
     valid_count     bigint NOT NULL,
     first_seen_at   bigint NOT NULL,
     last_seen_at    bigint NOT NULL,
     used_fields     text NOT NULL,
     received_fields text NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment, method, path, status)
   );
   CREATE TABLE svc_usage_samples (
     consumer_id      text COLLATE "C" NOT NULL,
     schema_id        text COLLATE "C" NOT NULL,
     environment      text COLLATE "C" NOT NULL,
     method           text COLLATE "C" NOT NULL,
     path             text COLLATE "C" NOT NULL,
     status           integer NOT NULL,
     shape            text COLLATE "C" NOT NULL,
     schema_version   text NOT NULL,
     valid            boolean NOT NULL,
     recorded_at      bigint NOT NULL,
     interaction_json text NOT NULL,
     PRIMARY KEY (consumer_id, schema_id, environment, method, path, status, shape)
   );
   CREATE INDEX svc_usage_samples_by_schema ON svc_usage_samples (schema_id, environment);`,
  // Write order of each version. A replica's index may meet the same version twice, read at
  // different times (its own write, a notification, a resync); the higher revision is the later.
  // Set in a BEFORE trigger, which runs once the row is locked: writes of one version commit in
  // revision order.
  `CREATE SEQUENCE svc_schema_revisions;
   ALTER TABLE svc_schema_versions ADD COLUMN revision bigint NOT NULL DEFAULT nextval('svc_schema_revisions');
   CREATE FUNCTION svc_next_schema_revision() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.revision := nextval('svc_schema_revisions');
     RETURN NEW;
   END $$;
   CREATE TRIGGER svc_schema_versions_revision BEFORE INSERT OR UPDATE ON svc_schema_versions
     FOR EACH ROW EXECUTE FUNCTION svc_next_schema_revision();`,
  // Samples' sizes, and their total kept by triggers (every insert, update and delete, whichever
  // statement or replica makes it), so the bound on all samples together costs one row read per
  // write. The total's one row is updated after a writer's usage rows, in every transaction.
  `ALTER TABLE svc_usage_samples ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
   UPDATE svc_usage_samples SET bytes = octet_length(interaction_json);
   CREATE INDEX svc_usage_samples_by_age ON svc_usage_samples (recorded_at);
   CREATE TABLE svc_usage_sample_bytes (total bigint NOT NULL);
   INSERT INTO svc_usage_sample_bytes SELECT COALESCE(SUM(bytes), 0) FROM svc_usage_samples;
   CREATE FUNCTION svc_count_sample_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       UPDATE svc_usage_sample_bytes SET total = total + NEW.bytes;
     ELSIF TG_OP = 'UPDATE' THEN
       UPDATE svc_usage_sample_bytes SET total = total - OLD.bytes + NEW.bytes;
     ELSE
       UPDATE svc_usage_sample_bytes SET total = total - OLD.bytes;
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER svc_usage_sample_bytes AFTER INSERT OR UPDATE OF bytes OR DELETE ON svc_usage_samples
     FOR EACH ROW EXECUTE FUNCTION svc_count_sample_bytes();`,
  // Each registration's used-field characters (code points), totalled per schema from an index alone
  // (the registrations themselves, up to megabytes each, are not read): consumerSchemaMaxUsedFieldChars.
  // Counted by a trigger, whichever replica writes: one of an earlier svc, still running during a
  // rolling upgrade, knows nothing of the column.
  `ALTER TABLE svc_consumers ADD COLUMN used_field_chars bigint NOT NULL DEFAULT 0;
   CREATE FUNCTION svc_count_used_field_chars() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.used_field_chars := (SELECT COALESCE(SUM(length(field)), 0)
       FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint, jsonb_array_elements_text(endpoint -> 'usedFields') AS field);
     RETURN NEW;
   END $$;
   CREATE TRIGGER svc_consumers_used_field_chars BEFORE INSERT OR UPDATE OF used_endpoints ON svc_consumers
     FOR EACH ROW EXECUTE FUNCTION svc_count_used_field_chars();
   UPDATE svc_consumers SET used_endpoints = used_endpoints;
   CREATE INDEX svc_consumers_used_field_chars ON svc_consumers (schema_id, environment, used_field_chars);`,
  // The INTAKE_REVISION that made each engine document; 0 for those stored before (read again on first use).
  `ALTER TABLE svc_schema_versions ADD COLUMN intake_revision integer NOT NULL DEFAULT 0;`,
  // A replica of an earlier svc, still running in a rolling upgrade, writes documents without naming
  // intake_revision. This svc's writes of a document say they name it (names_intake_revision, which
  // the trigger clears again); a document written without saying so is marked 0, to be read again.
  `DROP TRIGGER IF EXISTS svc_schema_versions_intake_revision ON svc_schema_versions;
   DROP FUNCTION IF EXISTS svc_mark_unrevised_documents();
   ALTER TABLE svc_schema_versions ADD COLUMN names_intake_revision boolean NOT NULL DEFAULT false;
   CREATE FUNCTION svc_mark_unrevised_documents() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND NEW.document_json IS DISTINCT FROM OLD.document_json AND NOT NEW.names_intake_revision THEN
       NEW.intake_revision := 0;
     END IF;
     NEW.names_intake_revision := false;
     RETURN NEW;
   END $$;
   CREATE TRIGGER svc_schema_versions_intake_revision BEFORE INSERT OR UPDATE ON svc_schema_versions
     FOR EACH ROW EXECUTE FUNCTION svc_mark_unrevised_documents();`,
  // Endpoint paths count with the used fields (storage.ts usedFieldChars), whichever replica writes;
  // rows already there are counted again.
  `CREATE OR REPLACE FUNCTION svc_count_used_field_chars() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.used_field_chars := (SELECT COALESCE(SUM(length(endpoint ->> 'path')), 0) FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint)
       + (SELECT COALESCE(SUM(length(field)), 0)
         FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint, jsonb_array_elements_text(endpoint -> 'usedFields') AS field);
     RETURN NEW;
   END $$;
   UPDATE svc_consumers SET used_endpoints = used_endpoints;`,
  // Each endpoint weighs 256 characters more and each used field 128 (storage.ts listedChars, whose
  // LISTED_ENDPOINT_CHARS and LISTED_USED_FIELD_CHARS these are), whichever replica writes; rows
  // already there are counted again.
  `CREATE OR REPLACE FUNCTION svc_count_used_field_chars() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.used_field_chars := (SELECT COALESCE(SUM(length(endpoint ->> 'path')), 0) FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint)
       + (SELECT COALESCE(SUM(length(field)), 0)
         FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint, jsonb_array_elements_text(endpoint -> 'usedFields') AS field)
       + 256 * jsonb_array_length(NEW.used_endpoints)
       + 128 * (SELECT COUNT(*)
         FROM jsonb_array_elements(NEW.used_endpoints) AS endpoint, jsonb_array_elements_text(endpoint -> 'usedFields') AS field);
     RETURN NEW;
   END $$;
   UPDATE svc_consumers SET used_endpoints = used_endpoints;`,
];

/** The database cannot be used by this svc as it is (server too old, schema from a newer svc). */
export class IncompatibleDatabaseError extends Error {
  override name = 'IncompatibleDatabaseError';
}

export interface MigrationReport {
  serverVersion: string;
  /** Schema version before and after. */
  from: number;
  to: number;
}

/**
 * Checks the server, then applies what is pending under the advisory lock. Throws with a clear message.
 * A table lock is waited for at most `tableLockWaitMs`: every statement of the running replicas on
 * that table queues behind the migration's request (a backup's long transaction would hold them all).
 */
export async function migrate(client: pg.ClientBase, location: string, tableLockWaitMs: number): Promise<MigrationReport> {
  const { rows } = await client.query<{ server_version: string; server_version_num: string }>(
    `SELECT current_setting('server_version') AS server_version, current_setting('server_version_num') AS server_version_num`,
  );
  const serverVersion = rows[0]!.server_version;
  if (Number(rows[0]!.server_version_num) < MIN_SERVER_VERSION_NUM) {
    throw new IncompatibleDatabaseError(`PostgreSQL ${serverVersion} at ${location} is too old: svc needs PostgreSQL ${MIN_SERVER_VERSION_NUM / 10000} or newer`);
  }
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS svc_schema_migrations (
      version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const current = await client.query<{ version: number }>('SELECT coalesce(max(version), 0)::int AS version FROM svc_schema_migrations');
    const from = current.rows[0]!.version;
    if (from > MIGRATIONS.length) {
      throw new IncompatibleDatabaseError(`the registry database at ${location} has schema version ${from}, newer than this svc supports (${MIGRATIONS.length}): upgrade svc`);
    }
    for (let version = from; version < MIGRATIONS.length; version++) {
      await client.query('BEGIN');
      try {
        await client.query(`SELECT set_config('lock_timeout', $1, true)`, [`${tableLockWaitMs}ms`]);
        await client.query(MIGRATIONS[version]!);
        await client.query('INSERT INTO svc_schema_migrations (version) VALUES ($1)', [version + 1]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE_SQLSTATE) {
          throw new Error(`migration ${version + 1} waited over ${tableLockWaitMs} ms (lockWaitMs) for a table another session holds `
            + '(a long transaction, a backup); nothing of it was applied: start svc again once that session ends', { cause: error });
        }
        throw error;
      }
    }
    return { serverVersion, from, to: MIGRATIONS.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
  }
}
