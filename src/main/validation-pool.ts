/**
 * The validation worker pool: Piscina threads holding compiled contracts, fed in batches. A call
 * costs the main thread a copy of its request bytes into the next batch. Handing a batch to a
 * thread and back costs about as much CPU as a whole small gRPC call (about 0.1 ms measured here,
 * whatever the batch holds), so batches are made as large as the traffic allows without waiting
 * on a timer: a call leaves on the next turn of the event loop when no batch is out; while one
 * is out, calls gather until it comes back, unless enough of them (by count or bytes) gather to
 * be worth another worker. A worker that dies is replaced by Piscina; the calls it held fail with
 * UNAVAILABLE.
 */
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Piscina from 'piscina';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import type {
  BatchItem, BatchResult, CacheReport, ValidationBatch, ValidationOperation,
} from '../shared/pool-protocol/batches';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

/** A schema version as the pool knows it: the content hash is what workers key contracts by. */
export interface ContractRef {
  schemaId: string;
  version: string;
  hash: string;
}

/** The bundled document of a contract; `ref` may be newer than the one asked for if the version was re-registered. */
export interface ContractDocument {
  ref: ContractRef;
  documentJson: string;
}

export interface ValidationTask {
  operation: ValidationOperation;
  /** The request message exactly as received (InteractionRequest or ValidateProducerRequest bytes). */
  message: Uint8Array;
  contract: ContractRef;
}

export interface ValidationAnswer {
  valid: boolean;
  /** error_category of a failed validation ('' when valid). */
  category: string;
  /** The encoded ValidationResult, ready to send. */
  result: Buffer;
}

export interface ValidationPoolOptions {
  /** Worker threads (default: one per available core). */
  threads: number;
  /** Batches queued per worker, so a worker finds its next batch waiting while the previous answer travels back. */
  concurrentTasksPerWorker: number;
  /** Calls per batch at most. */
  maxBatchItems: number;
  /** Request bytes per batch at most (a larger single call travels alone). */
  maxBatchBytes: number;
  /** While a batch is out, queued calls wait for it to come back unless this many have gathered, */
  lingerItems: number;
  /** or this many request bytes (large interactions are worth another worker sooner). */
  lingerBytes: number;
  /** Fetches a contract's document when a worker does not hold it yet. */
  loadContract: (ref: ContractRef) => Promise<ContractDocument>;
  metrics: Metrics | undefined;
  logger: Logger | undefined;
  /** The worker entry (compiled JavaScript). */
  filename: string;
}

export const DEFAULT_POOL_OPTIONS = Object.freeze({
  threads: 0, // 0: os.availableParallelism()
  concurrentTasksPerWorker: 2,
  maxBatchItems: 64,
  maxBatchBytes: 1024 * 1024, // 1 MiB
  lingerItems: 16,
  lingerBytes: 32 * 1024, // 32 KiB
  metrics: undefined,
  logger: undefined,
  filename: path.resolve(__dirname, '../workers/validation-worker.js'),
});

interface RetryGroup {
  calls: PendingCall[];
  bytes: number;
}

interface PendingCall {
  operation: ValidationOperation;
  message: Uint8Array;
  contract: ContractRef;
  /** Set once a worker has answered `missing`: the document travels with the call's next batch. */
  documentJson: string | undefined;
  resolve: (answer: ValidationAnswer) => void;
  reject: (error: SvcError) => void;
}

export class ValidationPool {
  readonly #options: ValidationPoolOptions;
  readonly #maxInFlightBatches: number;
  #piscina: Piscina<ValidationBatch, BatchResult> | undefined;
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #queue: PendingCall[] = [];
  #queuedBytes = 0;
  /** Calls a worker answered `missing`, with their documents now; each group leaves as one batch. */
  #retries: RetryGroup[] = [];
  #inFlightBatches = 0;
  #flushScheduled = false;
  readonly #loading = new Map<string, Promise<ContractDocument>>();
  readonly #cacheByThread = new Map<number, CacheReport>();

  constructor(options: Partial<ValidationPoolOptions> & Pick<ValidationPoolOptions, 'loadContract'>) {
    const merged = { ...DEFAULT_POOL_OPTIONS, ...withoutUndefined(options) } as ValidationPoolOptions;
    for (const name of ['threads', 'concurrentTasksPerWorker', 'maxBatchItems', 'maxBatchBytes', 'lingerItems', 'lingerBytes'] as const) {
      const value = merged[name];
      const min = name === 'threads' ? 0 : 1;
      if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`options.${name} must be an integer of at least ${min}`);
    }
    if (merged.threads === 0) merged.threads = os.availableParallelism();
    this.#options = merged;
    this.#maxInFlightBatches = merged.threads * merged.concurrentTasksPerWorker;
  }

  get threads(): number {
    return this.#options.threads;
  }

  /** The live worker threads (diagnostics, and fault tests that stop one on purpose). */
  get workers(): readonly Worker[] {
    return this.#piscina?.threads ?? [];
  }


  /** Starts the threads and checks that the worker entry loads; idempotent. */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  /** Fails queued calls, stops the threads; idempotent. Call after gRPC has drained. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  /** Validates one call; rejects with an SvcError only when the call could not be validated at all. */
  validate(task: ValidationTask): Promise<ValidationAnswer> {
    if (this.#closing) return Promise.reject(unavailable('the validation pool is closed'));
    if (!this.#piscina) return Promise.reject(new SvcError(ErrorCode.INTERNAL, 'the validation pool is not started'));
    return new Promise((resolve, reject) => {
      const call: PendingCall = {
        operation: task.operation,
        message: task.message,
        contract: task.contract,
        documentJson: undefined,
        resolve,
        reject,
      };
      this.#enqueue(call);
    });
  }


  async #start(): Promise<void> {
    const { threads, concurrentTasksPerWorker, filename, logger } = this.#options;
    const piscina = new Piscina<ValidationBatch, BatchResult>({
      filename,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker,
      idleTimeout: Number.POSITIVE_INFINITY,
      recordTiming: false,
    });
    // Without a listener an 'error' event (a worker failing while idle) would end the process.
    piscina.on('error', (error: unknown) => logger?.error({ caller: 'pool', err: error }, 'validation worker failed'));
    piscina.on('workerDestroy', () => this.#publishCacheGauges());
    this.#piscina = piscina;
    const probe = await piscina.run({ messages: new ArrayBuffer(0), items: [], documents: {} });
    if (!probe.ok) throw new Error(`validation worker failed its start check: ${probe.message}`);
    logger?.debug({ caller: 'pool', threads }, 'validation pool started');
  }

  async #close(): Promise<void> {
    const queued = [...this.#queue, ...this.#retries.flatMap((group) => group.calls)];
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#retries = [];
    for (const call of queued) call.reject(unavailable('the validation pool is closed'));
    await this.#starting?.catch(() => undefined);
    await this.#piscina?.destroy();
  }

  #enqueue(call: PendingCall): void {
    this.#queue.push(call);
    this.#queuedBytes += call.message.byteLength;
    if (!this.#worthAnotherBatch()) return; // the next finished batch flushes
    if (this.#queue.length >= this.#options.maxBatchItems || this.#queuedBytes >= this.#options.maxBatchBytes) {
      this.#dispatch();
    } else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(this.#flush);
    }
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    this.#dispatch();
  };

  /** True when queued calls should leave now rather than wait for a batch to come back. */
  #worthAnotherBatch(): boolean {
    if (this.#queue.length === 0 || this.#inFlightBatches >= this.#maxInFlightBatches || this.#closing) return false;
    return this.#inFlightBatches === 0
      || this.#queue.length >= this.#options.lingerItems
      || this.#queuedBytes >= this.#options.lingerBytes;
  }

  /** Sends retries first, then queued calls while that is worth it, spread over the free worker slots. */
  #dispatch(): void {
    while (this.#retries.length > 0 && this.#inFlightBatches < this.#maxInFlightBatches && !this.#closing) {
      const { calls, bytes } = this.#retries.shift()!;
      this.#runBatch(calls, bytes);
    }
    const { maxBatchItems, maxBatchBytes, lingerItems } = this.#options;
    while (this.#worthAnotherBatch()) {
      const freeSlots = this.#maxInFlightBatches - this.#inFlightBatches;
      const target = Math.min(maxBatchItems, Math.max(lingerItems, Math.ceil(this.#queue.length / freeSlots)));
      let count = 0;
      let bytes = 0;
      while (count < target && count < this.#queue.length) {
        const size = this.#queue[count]!.message.byteLength;
        if (count > 0 && bytes + size > maxBatchBytes) break;
        bytes += size;
        count++;
      }
      this.#queuedBytes -= bytes;
      this.#runBatch(this.#queue.splice(0, count), bytes);
    }
  }

  #runBatch(calls: PendingCall[], totalBytes: number): void {
    // Not from Buffer's shared pool: the whole ArrayBuffer is transferred to the worker.
    const messages = Buffer.allocUnsafeSlow(totalBytes);
    const items: BatchItem[] = [];
    const documents: Record<string, string> = {};
    let offset = 0;
    for (const call of calls) {
      messages.set(call.message, offset);
      offset += call.message.byteLength;
      items.push({ operation: call.operation, end: offset, hash: call.contract.hash, version: call.contract.version });
      if (call.documentJson !== undefined) documents[call.contract.hash] = call.documentJson;
    }
    const buffer = messages.buffer as ArrayBuffer;
    this.#inFlightBatches++;
    this.#piscina!.run({ messages: buffer, items, documents }, { transferList: [buffer] }).then(
      (result) => {
        this.#inFlightBatches--;
        this.#settle(calls, result);
        this.#dispatch();
      },
      (error: unknown) => {
        this.#inFlightBatches--;
        const reason = this.#closing
          ? unavailable('the validation pool is closed')
          : unavailable(`the validation worker holding this call stopped (${errorMessage(error)}); it was not validated, retry it`);
        for (const call of calls) call.reject(reason);
        this.#dispatch();
      },
    );
  }

  #settle(calls: PendingCall[], result: BatchResult): void {
    if (!result.ok) {
      const error = new SvcError(result.code, result.message);
      for (const call of calls) call.reject(error);
      return;
    }
    this.#recordCache(result.cache);
    const results = Buffer.from(result.results);
    const missing: PendingCall[] = [];
    let start = 0;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const outcome = result.outcomes[i]!;
      if (outcome.status === 'done') {
        call.resolve({ valid: outcome.valid, category: outcome.category, result: results.subarray(start, outcome.end) });
        start = outcome.end;
      } else if (outcome.status === 'failed') {
        call.reject(new SvcError(outcome.code, outcome.message));
      } else if (call.documentJson !== undefined) {
        call.reject(new SvcError(ErrorCode.INTERNAL, 'a validation worker did not build the contract from the document it was sent'));
      } else {
        missing.push(call);
      }
    }
    if (missing.length > 0) this.#resendWithDocuments(missing);
  }

  /**
   * A worker lacked contracts: fetch their documents (once for misses that overlap), then send the
   * calls again together, in one batch that carries the documents.
   */
  #resendWithDocuments(calls: PendingCall[]): void {
    const prepared = calls.map((call) => this.#documentFor(call.contract).then(
      ({ ref, documentJson }) => {
        call.contract = ref;
        call.documentJson = documentJson;
        return call;
      },
      (error: unknown) => {
        call.reject(error instanceof SvcError ? error : new SvcError(ErrorCode.INTERNAL, errorMessage(error)));
        return undefined;
      },
    ));
    void Promise.all(prepared).then((settled) => {
      const ready = settled.filter((call): call is PendingCall => call !== undefined);
      if (ready.length === 0) return;
      if (this.#closing) {
        for (const call of ready) call.reject(unavailable('the validation pool is closed'));
        return;
      }
      const bytes = ready.reduce((sum, call) => sum + call.message.byteLength, 0);
      this.#retries.push({ calls: ready, bytes });
      this.#dispatch();
    });
  }

  #documentFor(ref: ContractRef): Promise<ContractDocument> {
    let loading = this.#loading.get(ref.hash);
    if (!loading) {
      loading = this.#options.loadContract(ref);
      this.#loading.set(ref.hash, loading);
      const forget = () => this.#loading.delete(ref.hash);
      loading.then(forget, forget);
    }
    return loading;
  }

  #recordCache(report: CacheReport): void {
    const metrics = this.#options.metrics;
    if (!metrics) return;
    if (report.hits > 0) metrics.cacheHits.inc(report.hits);
    if (report.misses > 0) metrics.cacheMisses.inc(report.misses);
    const previous = this.#cacheByThread.get(report.threadId);
    this.#cacheByThread.set(report.threadId, report);
    if (!previous || previous.items !== report.items || previous.bytes !== report.bytes) this.#publishCacheGauges();
  }

  #publishCacheGauges(): void {
    const metrics = this.#options.metrics;
    if (!metrics) return;
    // A thread that is gone takes its cache with it (its id is no longer among the live threads).
    const live = new Set(this.workers.map((worker) => worker.threadId));
    let items = 0;
    let bytes = 0;
    for (const [threadId, report] of this.#cacheByThread) {
      if (!live.has(threadId)) {
        this.#cacheByThread.delete(threadId);
        continue;
      }
      items += report.items;
      bytes += report.bytes;
    }
    metrics.cacheItems.set(items);
    metrics.cacheSizeBytes.set(bytes);
  }
}

function unavailable(message: string): SvcError {
  return new SvcError(ErrorCode.UNAVAILABLE, message);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
