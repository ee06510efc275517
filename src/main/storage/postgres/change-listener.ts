/**
 * Follows what every replica writes: a dedicated connection LISTENs on the registry channel, and each
 * notification is turned into the version's current summary, read from the database (so that late or
 * reordered notifications can only bring an index forward). On every (re)connection, every
 * `resyncIntervalMs`, and shortly after a read that failed, the whole index is read again:
 * notifications sent while this replica was not listening, or whose read failed, are not sent again.
 * Everything runs one step at a time, in arrival order. Notifications that arrive while a step runs
 * are read together, NOTIFICATIONS_PER_READ versions a statement: one statement per notification made
 * a bulk write of 20,000 versions (an import) hold every later change of the registry 4.5 s.
 */
import type pg from 'pg';
import { errorMessage } from '../../../shared/errors';
import type { Logger } from '../../logger';
import type { SchemaVersionSummary, StorageChange } from '../storage';
import { CHANGE_CHANNEL } from './migrations';
import type { DatabaseAvailability } from './database-availability';
import { describeCause } from './database-errors';

export interface ChangeListenerParts {
  /** A new connection, not yet connected. */
  createClient(): pg.Client;
  /** The current summaries of the versions `keys` name that exist (in any order). */
  readSummaries(keys: readonly VersionKey[]): Promise<SchemaVersionSummary[]>;
  readIndex(): Promise<SchemaVersionSummary[]>;
  emit(change: StorageChange): void;
  availability: DatabaseAvailability;
  logger: Logger | undefined;
  resyncIntervalMs: number;
  reconnectDelayMs: number;
  listenerHeartbeatMs: number;
}

export interface VersionKey {
  schemaId: string;
  version: string;
}

/** Versions whose notifications one statement reads. */
export const NOTIFICATIONS_PER_READ = 500;
/**
 * Notified versions waiting to be read, at most; past it they are dropped and the whole index read
 * again instead, in one statement, which costs less than this many reads (and keeps the wait bounded).
 */
export const MAX_PENDING_NOTIFICATIONS = 10_000;

export class ChangeListener {
  readonly #parts: ChangeListenerParts;
  #client: pg.Client | undefined;
  #steps: Promise<void> = Promise.resolve();
  /** Notified versions not yet read, by `schemaId NUL version`, in arrival order. */
  #pending = new Map<string, VersionKey>();
  /** A step that reads #pending is queued and has not started taking from it. */
  #readQueued = false;
  /** A re-read of the index is queued and has not started: it covers every version notified meanwhile. */
  #resyncDue = false;
  #resyncTimer: NodeJS.Timeout | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #repairTimer: NodeJS.Timeout | undefined;
  #heartbeatTimer: NodeJS.Timeout | undefined;
  /** A step failed and none has succeeded since: one warning per such run, not one per attempt. */
  #failing = false;
  /** False from a failure of the listening connection until it is back: one warning per loss. */
  #listening = true;
  #started = false;
  #closed = false;

  constructor(parts: ChangeListenerParts) {
    this.#parts = parts;
  }

  /** Idempotent. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#resyncTimer = setInterval(() => this.#enqueue(() => this.#resync()), this.#parts.resyncIntervalMs);
    this.#resyncTimer.unref();
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = this.#parts.createClient();
    // Without a listener an 'error' event would end the process; the connection is replaced instead.
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('Connection terminated')));
    client.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload) this.#notified(message.payload);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      this.#lost(client, error);
      return;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#parts.availability.markUp();
    if (!this.#listening) {
      this.#parts.logger?.info({ caller: 'storage/postgres' }, 'following the other replicas\' registry changes again');
    }
    this.#listening = true;
    this.#enqueue(() => this.#resync());
    this.#startHeartbeat(client);
  }

  /**
   * A statement on the listening connection now and then. It only waits for notifications, and a
   * NAT or load balancer drops such an idle connection without a word: TCP keepalive (two hours by
   * default) never told, and every change reached this replica by the periodic resync alone, for as
   * long as it ran. The statement keeps such a path alive, and one left unanswered (query_timeout)
   * replaces the connection.
   */
  #startHeartbeat(client: pg.Client): void {
    let inFlight = false;
    clearInterval(this.#heartbeatTimer);
    this.#heartbeatTimer = setInterval(() => {
      if (inFlight || this.#client !== client) return;
      inFlight = true;
      client.query('SELECT 1').then(
        () => { inFlight = false; },
        (error: unknown) => this.#lost(client, error),
      );
    }, this.#parts.listenerHeartbeatMs);
    this.#heartbeatTimer.unref();
  }

  #lost(client: pg.Client, error: unknown): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    clearInterval(this.#heartbeatTimer);
    // Not marked down here: this one connection failing (max_connections reached) says nothing of the
    // pool's, and marking it down at every attempt while the pool's statements marked it up again
    // logged 'registry database unreachable' twice a second while every write succeeded. A read of
    // the index through the pool, once per loss, tells (and repairs what this replica missed).
    if (this.#listening) {
      this.#listening = false;
      this.#parts.logger?.warn(
        { caller: 'storage/postgres', cause: describeCause(error) },
        `not following the other replicas' registry changes (${describeCause(error)}): reconnecting every ${this.#parts.reconnectDelayMs} ms, `
          + `and reading the whole index again now and every ${this.#parts.resyncIntervalMs} ms meanwhile`,
      );
      this.#enqueue(() => this.#resync());
    }
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.#reconnectTimer = setTimeout(() => void this.#connect(), this.#parts.reconnectDelayMs);
    this.#reconnectTimer.unref();
  }

  #notified(payload: string): void {
    let key: { schemaId?: unknown; version?: unknown };
    try {
      key = JSON.parse(payload) as typeof key;
    } catch {
      return;
    }
    if (typeof key.schemaId !== 'string' || typeof key.version !== 'string') return;
    if (this.#resyncDue) return;
    if (this.#pending.size >= MAX_PENDING_NOTIFICATIONS) {
      this.#pending.clear();
      this.#resyncDue = true;
      this.#enqueue(() => {
        this.#resyncDue = false;
        return this.#resync();
      });
      return;
    }
    this.#pending.set(`${key.schemaId}\0${key.version}`, { schemaId: key.schemaId, version: key.version });
    if (this.#readQueued) return;
    this.#readQueued = true;
    this.#enqueue(() => this.#readPending());
  }

  /** Reads the notified versions, those that arrive meanwhile included, NOTIFICATIONS_PER_READ a statement. */
  async #readPending(): Promise<void> {
    this.#readQueued = false;
    while (this.#pending.size > 0 && !this.#closed && !this.#resyncDue) {
      const keys: VersionKey[] = [];
      for (const [id, key] of this.#pending) {
        this.#pending.delete(id);
        keys.push(key);
        if (keys.length === NOTIFICATIONS_PER_READ) break;
      }
      for (const summary of await this.#parts.readSummaries(keys)) this.#parts.emit({ type: 'schema-version', summary });
    }
  }

  async #resync(): Promise<void> {
    this.#parts.emit({ type: 'resync', summaries: await this.#parts.readIndex() });
  }

  #enqueue(step: () => Promise<void>): void {
    this.#steps = this.#steps.then(async () => {
      if (this.#closed) return;
      await step();
      this.#failing = false;
    }).catch((error: unknown) => {
      if (!this.#failing) {
        this.#failing = true;
        this.#parts.logger?.warn({ caller: 'storage/postgres' }, `registry change not applied yet: ${errorMessage(error)}; the index is read again until it succeeds`);
      }
      this.#repairSoon();
    });
  }

  /**
   * A notification whose read failed (connections exhausted, the pool busy) is not sent again, and
   * the listening connection, still up, brings no resync: until the periodic one, up to
   * `resyncIntervalMs` later, this replica validated with the content it held. The whole index is
   * read again shortly instead, and again after each failure.
   */
  #repairSoon(): void {
    if (this.#repairTimer !== undefined || this.#closed) return;
    this.#repairTimer = setTimeout(() => {
      this.#repairTimer = undefined;
      this.#enqueue(() => this.#resync());
    }, this.#parts.reconnectDelayMs);
    this.#repairTimer.unref();
  }

  /** Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#resyncTimer);
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#repairTimer);
    clearInterval(this.#heartbeatTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
    await this.#steps;
  }
}
