/**
 * The embedded SQLite store, run on a thread of its own (sqlite-thread.ts): each storage call is one
 * message there and one back, so no statement holds the main thread. Writing a
 * 32 MB registration held every other caller 0.3–0.5 s when better-sqlite3 ran here; now it holds
 * only the storage calls sent after it (a ListSchemas probe waited at most 73–81 ms during such
 * registrations, against 326–458 ms). The calls cost a hop each (tens of µs); validation of a cached
 * contract makes none.
 *
 * Opening happens on that thread, so a failure to open (a data folder another server holds) fails
 * the first call with its message, as PostgreSQL's connection errors do. Calls start in the order
 * they are sent. A thread that stops fails every call waiting on it, and every later one, with
 * UNAVAILABLE: the store does not silently go away.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ErrorCode, SvcError } from '../../shared/errors';
import type { Logger } from '../logger';
import { KeyedMutex } from './keyed-mutex';
import type { Storage } from './storage';

/** The storage operations that travel to the thread (`exclusive` is kept here: it runs the caller's work). */
export type StorageMethod = Exclude<{ [K in keyof Storage]-?: Storage[K] extends (...args: any[]) => Promise<unknown> ? K : never }[keyof Storage], 'exclusive'>;

export interface StorageThreadData {
  dataDir: string;
}

export interface StorageCall {
  id: number;
  method: StorageMethod;
  args: unknown[];
}

export type StorageThreadMessage =
  | { opened: true }
  | { openFailed: string }
  | { log: { bindings: object; message: string } }
  | { id: number; value: unknown }
  | { id: number; error: { message: string; code?: ErrorCode } };

const THREAD_FILE = path.resolve(__dirname, 'sqlite-thread.js');

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class SqliteThreadStorage implements Storage {
  readonly #worker: Worker;
  readonly #logger: Logger | undefined;
  readonly #pending = new Map<number, PendingCall>();
  /** One server per data folder (enforced where the thread opens it): a lock of this process excludes every writer. */
  readonly #exclusive = new KeyedMutex();
  readonly #opened: Promise<void>;
  /** Why calls fail from now on: the thread failed to open the store, or stopped. */
  #failure: Error | undefined;
  #nextId = 0;
  #closing: Promise<void> | undefined;

  constructor(dataDir: string, logger?: Logger) {
    this.#logger = logger;
    const data: StorageThreadData = { dataDir };
    this.#worker = new Worker(THREAD_FILE, { workerData: data });
    // Held open only while a call waits (a process with nothing else to do may exit).
    this.#worker.unref();
    let opened: () => void;
    this.#opened = new Promise((resolve) => {
      opened = resolve;
    });
    this.#worker.on('message', (message: StorageThreadMessage) => {
      if ('opened' in message) opened();
      else if ('openFailed' in message) {
        this.#failure = new Error(message.openFailed);
        opened();
      } else if ('log' in message) this.#logger?.error(message.log.bindings, message.log.message);
      else this.#settle(message);
    });
    this.#worker.on('error', (error) => this.#stopped(`it failed: ${error.message}`));
    this.#worker.on('exit', (code) => {
      if (this.#closing === undefined) this.#stopped(`it exited with code ${code}`);
      opened();
    });
  }

  loadSchemaIndex = this.#method('loadSchemaIndex');
  getSchemaVersion = this.#method('getSchemaVersion');
  getSchemaContentBytes = this.#method('getSchemaContentBytes');
  getSchemaDocument = this.#method('getSchemaDocument');
  updateSchemaDocument = this.#method('updateSchemaDocument');
  loadSchemaVersions = this.#method('loadSchemaVersions');
  saveSchemaVersion = this.#method('saveSchemaVersion');
  listConsumers = this.#method('listConsumers');
  consumerUsedFields = this.#method('consumerUsedFields');
  getConsumer = this.#method('getConsumer');
  saveConsumer = this.#method('saveConsumer');
  deleteConsumer = this.#method('deleteConsumer');
  listEnvironments = this.#method('listEnvironments');
  createEnvironment = this.#method('createEnvironment');
  deleteEnvironment = this.#method('deleteEnvironment');
  appendDeployment = this.#method('appendDeployment');
  listDeployments = this.#method('listDeployments');
  currentDeployments = this.#method('currentDeployments');
  addUsage = this.#method('addUsage');
  listUsage = this.#method('listUsage');
  listUsageCounts = this.#method('listUsageCounts');
  listSamples = this.#method('listSamples');
  listSampleShapes = this.#method('listSampleShapes');
  deleteUsage = this.#method('deleteUsage');

  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#exclusive.run(key, work);
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#opened;
      if (this.#failure === undefined) await this.#call('close', []).catch(() => undefined);
      await this.#worker.terminate();
    })();
    return this.#closing;
  }

  /** The method `name` of the store, run on its thread. */
  #method<M extends StorageMethod>(name: M): Storage[M] {
    return ((...args: unknown[]) => this.#call(name, args)) as Storage[M];
  }

  async #call(method: StorageMethod, args: unknown[]): Promise<unknown> {
    await this.#opened;
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#closing !== undefined && method !== 'close') throw new SvcError(ErrorCode.UNAVAILABLE, 'the registry store is closed');
    const id = this.#nextId++;
    const answer = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    if (this.#pending.size === 1) this.#worker.ref();
    const call: StorageCall = { id, method, args };
    this.#worker.postMessage(call);
    return answer;
  }

  #settle(message: Extract<StorageThreadMessage, { id: number }>): void {
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if ('error' in message) {
      const { code, message: text } = message.error;
      pending.reject(code === undefined ? new Error(text) : new SvcError(code, text));
    } else {
      // A Buffer arrives as a plain Uint8Array.
      const { value } = message;
      pending.resolve(value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);
    }
  }

  #stopped(why: string): void {
    if (this.#failure !== undefined) return;
    this.#failure = new SvcError(ErrorCode.UNAVAILABLE, `the registry store's thread stopped (${why}); nothing more is read or stored until the server restarts`);
    this.#logger?.error({ caller: 'sqlite-thread-storage' }, this.#failure.message);
    for (const pending of this.#pending.values()) pending.reject(this.#failure);
    this.#pending.clear();
    this.#worker.unref();
  }
}
