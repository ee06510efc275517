/** Settings of the PostgreSQL store: one typed interface, one frozen defaults object with units in the names. */
import type { Logger } from '../../logger';

export interface PostgresStorageOptions {
  /** A standard `postgres://` / `postgresql://` URL; its TLS parameters (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`) apply. */
  databaseUrl: string;
  /** Connections per replica. */
  poolSize: number;
  /** Longest wait for a new connection: a write fails with UNAVAILABLE after it rather than hanging. */
  connectTimeoutMs: number;
  /** Longest a statement may run, on the server and as seen from the client. */
  statementTimeoutMs: number;
  /**
   * Longest a migration statement may run at start, waiting for another replica's migration
   * included: one may rewrite a large table, for far longer than `statementTimeoutMs`. Its table
   * locks are waited for at most `lockWaitMs`.
   */
  migrationTimeoutMs: number;
  /**
   * Longest wait for another replica's write under the same key (`exclusive`) before giving up with
   * CONFLICT, and for a table lock a migration needs (the replicas' statements queue behind it).
   */
  lockWaitMs: number;
  /**
   * Longest wait at close for the database to acknowledge the end of svc's connections; past it they
   * are dropped. A stopped (SIGSTOP) or unreachable server never answers, and the process could not exit.
   */
  closeTimeoutMs: number;
  /** Full re-read of the index: the safety net behind LISTEN/NOTIFY. */
  resyncIntervalMs: number;
  /**
   * A statement on the change listener's connection this often: keeps a NAT's or load balancer's
   * idle timeout from dropping it silently, and replaces it when unanswered (`statementTimeoutMs` + 1 s).
   */
  listenerHeartbeatMs: number;
  /** Pause before the change listener connects again after losing its connection, or reads the index again after a failed read. */
  reconnectDelayMs: number;
  logger: Logger | undefined;
  /** Receives 1 while the database answers and 0 while it does not (`svc_storage_up`). */
  reportUp: ((up: boolean) => void) | undefined;
}

export const DEFAULT_POSTGRES_OPTIONS = Object.freeze({
  poolSize: 10,
  connectTimeoutMs: 2_000,
  statementTimeoutMs: 5_000,
  migrationTimeoutMs: 600_000,
  lockWaitMs: 5_000,
  closeTimeoutMs: 2_000,
  resyncIntervalMs: 30_000,
  reconnectDelayMs: 500,
  listenerHeartbeatMs: 10_000,
  logger: undefined,
  reportUp: undefined,
});

/** The oldest server the migrations are written for (`EXECUTE FUNCTION` in triggers needs 11; older releases are long out of support). */
export const MIN_SERVER_VERSION_NUM = 120000;
