/**
 * The validation worker pool: one lane per worker thread (a Piscina of one thread, which replaces a
 * worker that dies), fed batches from one shared queue.
 *
 * - Batching. Handing a batch to a thread and back costs about as much CPU as a whole small gRPC
 *   call (about 0.1 ms measured here, whatever the batch holds), so a lane that is free takes as many
 *   queued calls as the traffic offers, without waiting on a timer: calls that arrive together leave
 *   on the next turn of the event loop. A lane with a batch out takes a second only when a full
 *   batch waits; smaller ones wait for its answer and leave larger (fewer hand-overs under load).
 * - Affinity. A free lane takes first the calls of contracts its worker already holds, so a contract
 *   is compiled once rather than once per worker; calls of contracts no lane holds start a compile.
 * - Single calls before stream items. A stream keeps up to validationStreamMaxInFlight items queued,
 *   so a few streams fill the queue with thousands; a single call queued behind them waited for all
 *   of them (another caller's p99 went from 7 to 571 ms beside 16 streams). Stream items wait in a
 *   queue of their own: a batch takes single calls first, and stream items fill the rest, with at
 *   least `minStreamItemsPerBatch` of them whenever they wait, so streams keep moving under any load
 *   of single calls. At `maxQueuedStreamItems` queued, streams stop reading (`hasStreamRoom`) until
 *   batches take some: items read far ahead only wait, and items that wait long survive young-generation
 *   collections (16 streams: 31.6 MB/s promoted, 670 ms of main-thread GC per 5 s).
 * - Isolation. Compiling is the slow part of validation (a large schema can take a second), so it
 *   never happens in a shared batch: workers answer `cold` for calls that would compile and `missing`
 *   for contracts they lack, and those calls go again in a batch of their contract alone, on a lane
 *   with nothing else in flight. A lane whose batch has been out longer than `laneStallMs` takes no
 *   more work, and slow work (a compile, a call over `maxBatchBytes`, the calls of a contract that ran
 *   slow, a large call of a contract not yet seen to run one quickly) never takes the last lane free
 *   of it, so the other lanes serve every other schema meanwhile.
 * - Compiles in turns by caller. Contracts waiting to compile go each caller's oldest first, then
 *   each one's second, and so on, a caller's compiles already running counting as taken turns, and
 *   within a turn the caller served longest ago first: in arrival order, one caller's first calls of
 *   many new schemas held another caller's first call of one for all of their compiles.
 *
 * - Time budget. A batch that runs longer than `maxRunMs` in its worker (RE2 and AJV cannot be
 *   interrupted) has its lane given a new thread at once, and the old one is stopped (a thread inside
 *   RE2's native code ends only when that call returns, so the lane does not wait for it). The
 *   batch's calls go again one by one, marked slow work, and one that overruns alone fails with
 *   LIMIT_EXCEEDED; batches waiting behind it on that lane go again unchanged.
 * - Heap budget. A worker's heap is limited to `maxHeapBytes`: a batch that needs more stops its
 *   thread (Piscina starts another), and its calls are dealt with as after an overrun.
 * - Callers that have gone. A queued call whose caller cancelled it (or whose deadline passed) is
 *   dropped when a batch would take it, and a batch that has run longer than `slowCallMs` with only
 *   such calls has its lane given a new thread, as for an overrun: under overload, work for callers
 *   that gave up would otherwise hold the workers that the others wait for.
 *
 * A worker that dies otherwise is replaced by Piscina; the calls of the batch it was running fail with
 * UNAVAILABLE, and the batches waiting behind it, which never started, go again as they were. Which
 * batch a thread was running, it marks in memory it shares with the main thread: the answer of the
 * batch before may still wait to be read when its death is.
 */
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Piscina from 'piscina';
import { ErrorCode, SvcError, callerGone, errorMessage, limitExceeded } from '../shared/errors';
import { LIMITS, formatBytes } from '../shared/limits';
import {
  OUTCOME_FIELDS, OutcomeField, OutcomeStatus, encodeBatch, newBatchStartMark,
  type BatchResult, type BatchStartMark, type CacheReport, type ValidationBatch, type ValidationOperation,
} from '../shared/pool-protocol/batches';
import { ERROR_CATEGORIES } from '../shared/validation/types';
import type { VersionDocument, VersionRef } from '../shared/schema-records';
import type { Logger } from './logger';
import { LruCache } from '../shared/lru-cache';
import { heapLimits, isOutOfHeap } from './worker-heap';
import type { Metrics } from './metrics';

export interface ValidationTask {
  operation: ValidationOperation;
  /** The request message exactly as received (InteractionRequest or ValidateProducerRequest bytes). */
  message: Uint8Array;
  contract: VersionRef;
  /** An item of a ValidateInteractionStream: it waits behind single calls (see the file's comment). */
  streamed?: boolean;
  /** Whether the caller has gone (cancelled, past its deadline): see the file's comment. */
  isCancelled?: () => boolean;
  /** Who sent the call (auth/principal.ts callerOf), read only when it must compile: compiles go in turns by caller. */
  caller?: () => string;
}

export interface ValidationAnswer {
  valid: boolean;
  /** error_category of a failed validation ('' when valid). */
  category: string;
  /** The encoded ValidationResult, ready to send. */
  result: Buffer;
}

export interface ValidationPoolOptions {
  /** Worker threads, one lane each (default: one per available core). */
  threads: number;
  /** Batches in flight per lane, so a worker finds its next (full) batch waiting while an answer travels back. */
  concurrentTasksPerWorker: number;
  /** Calls per batch at most. */
  maxBatchItems: number;
  /** Request bytes per batch at most (a larger single call travels alone). */
  maxBatchBytes: number;
  /** Smallest batch a lane takes while other lanes are free too (spreads a burst over the lanes). */
  lingerItems: number;
  /** Stream items every batch carries at least, when any wait, however many single calls wait too. */
  minStreamItemsPerBatch: number;
  /** Stream items queued at most before streams stop reading (all streams together). */
  maxQueuedStreamItems: number;
  /** A lane whose oldest batch has been out this long takes no more batches until it answers. */
  laneStallMs: number;
  /**
   * A contract whose compile took longer than this (timed in its worker) counts as slow work, like
   * one never compiled: it never takes the last lane free of slow work. Quicker ones (most) may
   * spread to any lane.
   */
  slowCompileMs: number;
  /**
   * A batch whose calls ran longer than this in its worker (their contracts' preparation left out: a slow compile is slowCompileMs's) marks their calls slow
   * work, like calls over maxBatchBytes: they travel alone and never take the last lane free of slow
   * work. A pattern RE2 accepts can cost 5 µs a character: 1 MB calls held both lanes 4.5 s, call
   * after call. A marked contract whose batch runs quicker is unmarked (once slowMarkTimes allows). Worker time is wall time, which
   * a loaded machine stretches: far above an ordinary batch's (under 10 ms at p99 in the benches).
   */
  slowCallMs: number;
  /**
   * A contract marked slow (slowCallMs) stays marked for this many times its slow batch's time (a
   * batch that overran maxRunMs counts as maxRunMs),
   * however quickly its batches run meanwhile. Calls of one contract can cost very different amounts
   * at the same size: each quick call alone unmarked a contract whose every tenth call (37 bytes,
   * anyOf nested through $ref) ran 0.9 s, and a stream of them then went in batches of up to 64 to
   * both lanes, holding another schema's calls up to 6.9 s. Relative, not a fixed time: a batch
   * stretched past slowCallMs by a loaded machine marked a busy contract for 2 s of calls one at a
   * time, and svc's p99 under ghz went from 3.4–3.8 to 8.1–9.3 ms.
   */
  slowMarkTimes: number;
  /**
   * A call larger than this counts as slow work while its contract has not yet run a call at least
   * half its size quicker than slowCallMs: what it costs is unknown, and a first call of 300 KB under
   * a slow `pattern` took whichever lane it found for 1.5 s, both lanes when two came.
   */
  slowCallBytes: number;
  /** Longest a batch may run in its worker before the worker is stopped (see the file's comment). */
  maxRunMs: number;
  /**
   * Old-generation heap of a worker thread: a batch that needs more stops the thread, and its calls
   * are dealt with as after an overrun of maxRunMs (they go again alone; the one that needs it fails).
   */
  maxHeapBytes: number;
  /** Request bytes queued or in flight at most; calls beyond it fail with RESOURCE_EXHAUSTED. */
  maxQueuedBytes: number;
  /** Fetches a contract's document when a worker does not hold it yet. */
  loadContract: (ref: VersionRef) => Promise<VersionDocument>;
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
  minStreamItemsPerBatch: 16,
  maxQueuedStreamItems: 512, // 4 full batches per lane of a 2-thread pool
  laneStallMs: 20,
  // A compile recorded at 223 ms, spread to the last lane free of compiles, took about 700 ms there (both
  // lanes compiling on two shared cores) and held every other schema's calls that long: only short ones spread freely.
  slowCompileMs: 50,
  // What another contract's call may wait behind a batch before its contract's calls go alone: the
  // noisy-neighbour goal (≤ 100 ms). A 37-byte body under anyOf nested through $ref ran 0.3 s a call,
  // under the 500 ms this was, and four callers of it held both lanes: others waited up to 1.4 s.
  slowCallMs: 100,
  // Longer than the gaps between the slow calls of such a stream (each quick call alone takes a few
  // ms), short enough that a contract slow once soon batches on every lane again.
  slowMarkTimes: 2,
  slowCallBytes: 64 * 1024, // 64 KiB: 0.3 s at the 5 µs a character a slow pattern costs
  maxRunMs: LIMITS.validationMaxMs,
  maxHeapBytes: LIMITS.validationWorkerMaxHeapBytes,
  maxQueuedBytes: LIMITS.validationMaxQueuedBytes,
  metrics: undefined,
  logger: undefined,
  filename: path.resolve(__dirname, '../workers/validation-worker.js'),
});

/**
 * Replaced threads a lane may have ending at once. A thread inside RE2's native code ends only when
 * that call returns, and the batch its replacement runs must be held to the budget meanwhile (with
 * one, a second overrunning call ran unchecked until the first thread ended, and was answered);
 * beyond this the lane waits for one to end, so stopped threads stay within twice the lanes.
 */
const MAX_ENDING_THREADS_PER_LANE = 2;

/** Contracts remembered as slow at most (a set of content hashes). */
const MAX_SLOW_CONTRACTS = 10_000;
/**
 * How often the lanes are checked for a batch over maxRunMs or without callers, at most (a tenth of
 * maxRunMs when that is shorter): a batch whose callers have gone is stopped within this of slowCallMs.
 */
const STUCK_THREAD_CHECK_MS = 250;

interface PendingCall {
  operation: ValidationOperation;
  message: Uint8Array;
  contract: VersionRef;
  streamed: boolean;
  isCancelled: (() => boolean) | undefined;
  caller: (() => string) | undefined;
  /** It was in a batch that overran maxRunMs or maxHeapBytes with other calls: overrunning again, it fails. */
  overran: boolean;
  /** When it was queued (performance.now()): slow work kept off the last lane free of it waits a bounded time for other contracts' slow work (#waitedForLastLane). */
  queuedAt: number;
  resolve: (answer: ValidationAnswer) => void;
  reject: (error: SvcError) => void;
}

/** Calls of one contract that must compile (or be compiled for a lane): sent alone, with the document. */
interface CompileGroup {
  hash: string;
  calls: PendingCall[];
  /** Undefined while the document is being fetched. */
  documentJson: string | undefined;
  /** The lane that reported the calls `cold` holds the contract: it compiles them cheapest. */
  preferredLane: Lane | undefined;
  /** Who sent its first call: compiles go in turns by caller. */
  caller: string;
  /** When its first call joined it (performance.now()): a compile kept off the last lane waits a bounded time (#waitedForLastLane). */
  since: number;
}

/** A batch sent to a lane and not yet answered. */
interface SentBatch {
  /** Its ValidationBatch.sequence. */
  sequence: number;
  startedAt: number;
  calls: PendingCall[];
  /** Content hash → index in the batch's contract list. */
  contracts: ReadonlyMap<string, number>;
  /** Its lane's thread was replaced (#replaceThread), or died while this batch waited behind another: its calls were dealt with then, and its answer is ignored. */
  abandoned: boolean;
}

interface Lane {
  index: number;
  piscina: Piscina<ValidationBatch, BatchResult>;
  /** The sequence of the batch its thread last started (shared with that thread, and with Piscina's replacement of it). */
  startMark: BatchStartMark;
  /** The batches in flight, oldest first. */
  inFlight: SentBatch[];
  /** When the oldest batch in flight began to run: when it was sent, or when the one before it answered. */
  runningSince: number;
  /**
   * Threads this lane replaced (#replaceThread) that have not ended yet (inside native code they
   * run on). At MAX_ENDING_THREADS_PER_LANE the lane is not replaced again until one ends.
   */
  endingThreads: number;
  /** A compile batch is out: nothing else is sent to this lane until it answers. */
  compiling: boolean;
  /** Whose compile that is (CompileGroup.caller). */
  compilingFor: string;
  /** That compile is of a contract not compiled before, or one whose compiles were slow: it counts as slow work. */
  compilingSlow: boolean;
  /** Heavy batches out (a single call over maxBatchBytes): nothing else is sent to this lane until they answer. */
  heavy: number;
  /** Content hashes of the contracts this lane's worker holds, as far as the main thread knows. */
  known: Set<string>;
}

export class ValidationPool {
  readonly #options: ValidationPoolOptions;
  #lanes: Lane[] = [];
  #starting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  /** Single calls waiting for a lane, oldest first. */
  #queue: PendingCall[] = [];
  /** Stream items waiting for a lane, oldest first: batches take them after single calls. */
  #streamQueue: PendingCall[] = [];
  /** Streams that stopped reading because the stream queue was full, told when it has room. */
  #streamsWaitingForRoom = new Set<() => void>();
  /** Request bytes of the calls queued, compiling or in flight. */
  #pendingBytes = 0;
  /** Contracts waiting for a lane to compile them, oldest first; at most one group per hash. */
  #compileGroups: CompileGroup[] = [];
  /** Hashes with a compile batch out, and the lane it is on. */
  readonly #compilingOn = new Map<string, Lane>();
  /** Contracts whose calls ran slow (slowCallMs), with until when they stay marked (slowMarkTimes): their calls are slow work. Oldest out past MAX_SLOW_CONTRACTS. */
  readonly #slowContracts = new Map<string, number>();
  /**
   * Of each contract whose calls ran slow, what its slow batches showed (oldest out past MAX_SLOW_CONTRACTS):
   * - `bytes`: the size of the largest call in such a batch (the smallest such size seen). Once a
   *   quicker batch unmarks the contract, its calls of more than half that size still count as slow
   *   work, like calls over slowCallBytes, until one as large runs quickly. A stream whose every tenth
   *   call (60 KB) cost 0.35 s was unmarked by each small call alone, then sent in batches of 64 to
   *   both lanes: another schema's calls waited up to 7 s.
   * - `ms`: the slowest such batch's time (at most maxRunMs), which bounds how long its slow work
   *   waits for other contracts' (#mayTakeLastLaneAfterWaiting).
   */
  readonly #slowCalls = new Map<string, { bytes: number; ms: number }>();
  /** The largest call of each contract seen in a batch quicker than slowCallMs, when over half the size from which its calls count as large (bounded). */
  readonly #quickCallBytes = new LruCache<string, number>(LIMITS.contractCacheMaxEntries * 4);
  /** How long each contract's longest compile batch took (bounded: least recently compiled out). */
  readonly #compileMs = new LruCache<string, number>(LIMITS.contractCacheMaxEntries * 4);
  /** When each caller's last compile started (#compilesStarted then), the most recent callers only. */
  readonly #compileServedAt = new LruCache<string, number>(REMEMBERED_COMPILE_CALLERS);
  #compilesStarted = 0;
  /**
   * The flush set for when work kept off the last lane free of slow work may go (#waitedForLastLane), and when.
   */
  #waitEndTimer: NodeJS.Timeout | undefined;
  #waitEndDue: number | undefined;
  /** The last ValidationBatch.sequence given. */
  #batchSequence = 0;
  #flushScheduled = false;
  #stuckThreadCheck: NodeJS.Timeout | undefined;
  readonly #loading = new Map<string, Promise<VersionDocument>>();
  readonly #cacheByThread = new Map<number, CacheReport>();

  constructor(options: Partial<ValidationPoolOptions> & Pick<ValidationPoolOptions, 'loadContract'>) {
    const merged = { ...DEFAULT_POOL_OPTIONS, ...withoutUndefined(options) } as ValidationPoolOptions;
    for (const name of ['threads', 'concurrentTasksPerWorker', 'maxBatchItems', 'maxBatchBytes', 'lingerItems', 'minStreamItemsPerBatch', 'maxQueuedStreamItems', 'laneStallMs', 'slowCompileMs', 'slowCallMs', 'slowMarkTimes', 'slowCallBytes', 'maxRunMs', 'maxHeapBytes', 'maxQueuedBytes'] as const) {
      const value = merged[name];
      const min = name === 'threads' ? 0 : 1;
      if (!Number.isSafeInteger(value) || value < min) throw new TypeError(`options.${name} must be an integer of at least ${min}`);
    }
    if (merged.threads === 0) merged.threads = os.availableParallelism();
    this.#options = merged;
  }

  get threads(): number {
    return this.#options.threads;
  }

  /** The live worker threads (diagnostics, and fault tests that stop one on purpose). */
  get workers(): readonly Worker[] {
    return this.#lanes.flatMap((lane) => lane.piscina.threads);
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

  /** Whether a stream may read another item now (the stream queue is under maxQueuedStreamItems). */
  hasStreamRoom(): boolean {
    return this.#streamQueue.length < this.#options.maxQueuedStreamItems;
  }

  /** Runs `resume` once, when the stream queue has room again (or the pool closes). */
  whenStreamRoom(resume: () => void): void {
    this.#streamsWaitingForRoom.add(resume);
  }

  /** Validates one call; rejects with an SvcError only when the call could not be validated at all. */
  validate(task: ValidationTask): Promise<ValidationAnswer> {
    if (this.#closing) return Promise.reject(unavailable('the validation pool is closed'));
    if (this.#lanes.length === 0) return Promise.reject(new SvcError(ErrorCode.INTERNAL, 'the validation pool is not started'));
    const bytes = task.message.byteLength;
    if (this.#pendingBytes + bytes > this.#options.maxQueuedBytes && this.#pendingBytes > 0) {
      this.#options.metrics?.validationShed.inc();
      return Promise.reject(new SvcError(
        ErrorCode.OVERLOADED,
        `the server is validating ${formatBytes(this.#pendingBytes)} of requests, at its limit of ${formatBytes(this.#options.maxQueuedBytes)} (validationMaxQueuedBytes); retry shortly`,
      ));
    }
    return new Promise((resolve, reject) => {
      this.#pendingBytes += bytes;
      const settle = <T>(finish: (value: T) => void) => (value: T) => {
        this.#pendingBytes -= bytes;
        finish(value);
      };
      const streamed = task.streamed === true;
      const call: PendingCall = {
        operation: task.operation, message: task.message, contract: task.contract, streamed, isCancelled: task.isCancelled, caller: task.caller, overran: false,
        queuedAt: performance.now(), resolve: settle(resolve), reject: settle(reject),
      };
      (streamed ? this.#streamQueue : this.#queue).push(call);
      this.#scheduleFlush();
    });
  }

  async #start(): Promise<void> {
    const { threads, logger } = this.#options;
    const lanes: Lane[] = [];
    for (let index = 0; index < threads; index++) {
      const lane = { index, inFlight: [], runningSince: 0, endingThreads: 0, compiling: false, compilingSlow: false, heavy: 0, known: new Set(), compilingFor: '' } as Omit<Lane, 'piscina' | 'startMark'> as Lane;
      this.#startThread(lane);
      lanes.push(lane);
    }
    this.#lanes = lanes;
    const empty = { buffer: new ArrayBuffer(0), tableOffset: 0, itemCount: 0, contracts: [], documents: {}, compile: false, sequence: 0 };
    const probes = await Promise.all(lanes.map((lane) => lane.piscina.run(empty)));
    const failed = probes.find((probe) => !probe.ok);
    if (failed && !failed.ok) throw new Error(`validation worker failed its start check: ${failed.message}`);
    this.#stuckThreadCheck = setInterval(this.#replaceStuckThreads, Math.min(STUCK_THREAD_CHECK_MS, Math.ceil(this.#options.maxRunMs / 10))).unref();
    logger?.debug({ caller: 'pool', threads }, 'validation pool started');
  }

  /** Gives `lane` a Piscina of one thread (which replaces a thread that dies), and memory shared with it. */
  #startThread(lane: Lane): void {
    const { concurrentTasksPerWorker, filename, logger, maxHeapBytes } = this.#options;
    const startMark = newBatchStartMark();
    const piscina = new Piscina<ValidationBatch, BatchResult>({
      filename,
      minThreads: 1,
      maxThreads: 1,
      concurrentTasksPerWorker,
      idleTimeout: Number.POSITIVE_INFINITY,
      recordTiming: false,
      resourceLimits: heapLimits(maxHeapBytes),
      workerData: { startMark },
    });
    // Without a listener an 'error' event (a worker failing while idle) would end the process.
    piscina.on('error', (error: unknown) => logger?.error({ caller: 'pool', lane: lane.index, err: error }, 'validation worker failed'));
    piscina.on('workerDestroy', () => {
      if (lane.piscina !== piscina) return; // a thread replaced by #replaceThread, ending late
      lane.known.clear(); // its replacement starts with an empty cache
      this.#publishCacheGauges();
    });
    lane.piscina = piscina;
    lane.startMark = startMark;
  }

  async #close(): Promise<void> {
    clearInterval(this.#stuckThreadCheck);
    clearTimeout(this.#waitEndTimer);
    const queued = [...this.#queue, ...this.#streamQueue, ...this.#compileGroups.flatMap((group) => group.calls)];
    this.#queue = [];
    this.#streamQueue = [];
    this.#compileGroups = [];
    for (const call of queued) call.reject(unavailable('the validation pool is closed'));
    await this.#starting?.catch(() => undefined);
    await Promise.all(this.#lanes.map((lane) => lane.piscina.destroy()));
  }

  /** Gives a new thread to each lane whose running batch is over maxRunMs, or over slowCallMs with every caller gone. */
  readonly #replaceStuckThreads = (): void => {
    if (this.#closing) return;
    const now = performance.now();
    for (const lane of this.#lanes) {
      if (lane.inFlight.length === 0 || lane.endingThreads >= MAX_ENDING_THREADS_PER_LANE) continue;
      // The thread has started a later batch: the oldest answered, and runningSince moves on when that answer is read.
      if (runningBatch(lane.inFlight, lane.startMark) !== lane.inFlight[0]) continue;
      const ranMs = now - lane.runningSince;
      const overran = ranMs > this.#options.maxRunMs;
      if (overran || (ranMs > this.#options.slowCallMs && lane.inFlight[0]!.calls.every(isCancelled))) this.#replaceThread(lane, ranMs, overran);
    }
  };

  /**
   * Starts a new thread for `lane`, stops the old one, and deals with the batches it held: those
   * of a running batch whose callers have gone fail CANCELLED, those of an overrunning one go again
   * one by one (#retryOverrun), and those waiting behind it go again as they were.
   * Their answers, if the old thread ever sends them, are ignored.
   */
  #replaceThread(lane: Lane, ranMs: number, overran: boolean): void {
    this.#options.logger?.warn(
      { caller: 'pool', lane: lane.index, ranMs: Math.round(ranMs) },
      overran ? 'a validation batch ran over validationMaxMs; its thread is replaced' : 'every caller of a slow validation batch has gone; its thread is replaced',
    );
    const held = lane.inFlight.splice(0);
    const running = runningBatch(held, lane.startMark);
    const stopped = lane.piscina;
    this.#startThread(lane);
    lane.endingThreads++;
    void stopped.destroy().finally(() => {
      lane.endingThreads--;
    });
    lane.runningSince = performance.now();
    lane.heavy = 0;
    lane.compiling = false;
    lane.compilingSlow = false;
    lane.known.clear();
    for (const [hash, holder] of this.#compilingOn) {
      if (holder !== lane) continue;
      this.#compilingOn.delete(hash);
      this.#compileMs.set(hash, ranMs);
    }
    this.#requeueNeverStarted(held.filter((batch) => batch !== running));
    if (running) {
      running.abandoned = true;
      if (overran) {
        this.#retryOverrun(running.calls, running.contracts, 'time');
      } else {
        this.#noteCallTime(running.calls, running.contracts, ranMs);
        for (const call of running.calls) call.reject(callerGone('it was not validated'));
      }
    }
    this.#publishCacheGauges();
    this.#scheduleFlush();
  }

  /**
   * Batches that waited in a thread that is gone, behind the one it was running: they never started.
   * Their answers, should any come, are ignored, and their calls go back ahead of the queues, in order.
   */
  #requeueNeverStarted(batches: readonly SentBatch[]): void {
    for (const batch of batches) batch.abandoned = true;
    this.#requeue(batches.flatMap((batch) => batch.calls), 'front');
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#flushScheduled = false;
    this.#dispatch();
    if (this.#streamsWaitingForRoom.size > 0 && (this.hasStreamRoom() || this.#closing)) {
      const waiting = [...this.#streamsWaitingForRoom];
      this.#streamsWaitingForRoom.clear();
      for (const resume of waiting) resume();
    }
  };

  /** Whether `lane` can take a batch now: free, or pipelining behind a young shared batch. */
  #canTake(lane: Lane, now: number): boolean {
    if (lane.compiling || lane.heavy > 0) return false;
    if (lane.inFlight.length === 0) return true;
    const { concurrentTasksPerWorker, laneStallMs, maxBatchItems } = this.#options;
    if (lane.inFlight.length >= concurrentTasksPerWorker || now - lane.inFlight[0]!.startedAt >= laneStallMs) return false;
    // Pipelining only with a full batch waiting: every batch costs the main thread a wake-up of the
    // worker and one back (under a stream the main thread is the bottleneck), so smaller ones wait
    // for the lane to answer and leave larger.
    return this.#queuedCount() >= maxBatchItems;
  }

  #queuedCount(): number {
    return this.#queue.length + this.#streamQueue.length;
  }

  /** Compile groups first (their calls waited already), then shared batches, while lanes can take them. */
  #dispatch(): void {
    if (this.#closing) return;
    const now = performance.now();
    // Calls that overran go after the other contracts' compiles: first in line, six calls that each
    // overran 10 s held another caller's first call of a new schema 58.5 s, one overrun after another.
    // A compile needs a lane with nothing in flight (#compileLaneFor): without one, no group is looked at.
    const compileLaneIdle = this.#compileGroups.length > 0 && this.#lanes.some((lane) => lane.inFlight.length === 0);
    for (const afterOverrun of compileLaneIdle ? [false, true] : []) {
      for (const group of this.#compileGroupsInTurns()) {
        const overran = group.calls.some((call) => call.overran);
        const lane = overran !== afterOverrun || group.documentJson === undefined || this.#compilingOn.has(group.hash) ? undefined : this.#compileLaneFor(group, now);
        if (lane === undefined) continue;
        const at = this.#compileGroups.indexOf(group);
        this.#compileGroups.splice(at, 1);
        // Callers that gave up while it waited (behind other compiles) are not compiled for: run,
        // such a compile had its thread replaced once it passed slowCallMs, the lane's cache lost.
        const waiting: PendingCall[] = [];
        for (const call of group.calls) {
          if (isCancelled(call)) call.reject(callerGone('it was not validated'));
          else waiting.push(call);
        }
        group.calls = waiting;
        if (waiting.length === 0) continue;
        if (group.calls.length > 1 && overran) {
          // After an overrun a compile carries one call; the rest wait for it (#runCompile sends them
          // on), so one call that overruns again does not take the others with it.
          this.#compileGroups.splice(at, 0, { ...group, calls: group.calls.slice(1) });
          group.calls = group.calls.slice(0, 1);
        }
        this.#runCompile(lane, group);
      }
    }
    // A compile that could run waits for an idle lane: stop pipelining so one drains, or under steady
    // load no lane would ever be idle and the compile would wait without end.
    const compileWaiting = this.#compileGroups.some((group) => group.documentJson !== undefined && !this.#compilingOn.has(group.hash)
      && this.#mayCompileOnLastLane(group, now));
    for (;;) {
      const lanes = this.#lanes.filter((lane) => this.#canTake(lane, now) && !(compileWaiting && lane.inFlight.length > 0));
      if (lanes.length === 0 || this.#queuedCount() === 0) return;
      // Free lanes share a burst: the first takes about its share, the rest go to the others.
      const target = Math.min(this.#options.maxBatchItems, Math.max(this.#options.lingerItems, Math.ceil(this.#queuedCount() / lanes.length)));
      let sent = false;
      for (const lane of lanes) {
        const calls = this.#takeBatch(lane, target, lanes, now);
        if (calls.length > 0) {
          this.#runShared(lane, calls);
          sent = true;
        }
        if (this.#queuedCount() === 0) return;
      }
      if (!sent) return;
    }
  }

  /**
   * Slow work: a call over maxBatchBytes, a call of a contract whose calls ran slow (slowCallMs) while
   * its mark lasts, or a call over slowCallBytes whose contract has not yet run one at least half as
   * large quickly. A mark that has ended no longer counts, though the contract stays listed until a
   * batch of it runs quickly: checked only then, a mark of 0.3 s (one batch stretched by a loaded
   * machine) kept the contract's calls off the last lane free of slow work for all of another
   * schema's 1 s compile on the other lane.
   */
  #isSlowCall(call: PendingCall, now: number): boolean {
    const bytes = call.message.byteLength;
    const hash = call.contract.hash;
    if (bytes > this.#options.maxBatchBytes) return true;
    const markedUntil = this.#slowContracts.size === 0 ? undefined : this.#slowContracts.get(hash);
    if (markedUntil !== undefined && now < markedUntil) return true;
    return bytes > this.#largeCallBytes(hash) && bytes > 2 * (this.#quickCallBytes.get(hash) ?? 0);
  }

  /** Calls of a contract larger than this count as large: slowCallBytes, or half the size of a call that ran in a slow batch of it. */
  #largeCallBytes(hash: string): number {
    const slow = this.#slowCalls.size === 0 ? undefined : this.#slowCalls.get(hash);
    return slow === undefined ? this.#options.slowCallBytes : Math.min(this.#options.slowCallBytes, slow.bytes / 2);
  }

  /**
   * Marks the contracts of a batch whose calls ran longer than slowCallMs (their contracts'
   * preparation left out; one of them was slow, and each travels alone until its own time tells), and
   * unmarks a marked contract whose batch ran quicker; a quick batch also records how large a call of
   * each contract has run quickly.
   */
  #noteCallTime(calls: readonly PendingCall[], contracts: ReadonlyMap<string, number>, callMs: number): void {
    const slow = callMs > this.#options.slowCallMs;
    const now = performance.now();
    const marked = this.#slowContracts.size;
    // An overrun counts as maxRunMs: as Infinity it marked the contract for good,
    // and every call of it went alone from then on (2,989 calls/s and p99 7.9 ms before one overrun,
    // 787 and 50.9 ms after).
    const markMs = this.#options.slowMarkTimes * Math.min(callMs, this.#options.maxRunMs);
    for (const hash of contracts.keys()) {
      if (slow) {
        // Set again at the end: the oldest mark goes first.
        const markedUntil = Math.max(this.#slowContracts.get(hash) ?? 0, now + markMs);
        this.#slowContracts.delete(hash);
        if (this.#slowContracts.size >= MAX_SLOW_CONTRACTS) this.#slowContracts.delete(this.#slowContracts.keys().next().value!);
        this.#slowContracts.set(hash, markedUntil);
      } else if (contracts.size === 1 && now >= (this.#slowContracts.get(hash) ?? -Infinity)) {
        this.#slowContracts.delete(hash);
      }
    }
    if (this.#slowContracts.size !== marked) this.#options.metrics?.validationSlowContracts.set(this.#slowContracts.size);
    if (slow) {
      this.#noteSlowBatch(calls, Math.min(callMs, this.#options.maxRunMs));
      return;
    }
    for (const call of calls) {
      const bytes = call.message.byteLength;
      const hash = call.contract.hash;
      if (bytes <= this.#largeCallBytes(hash) / 2) continue;
      if (bytes > (this.#quickCallBytes.get(hash) ?? 0)) this.#quickCallBytes.set(hash, bytes);
    }
  }

  /**
   * Keeps, for each contract of a slow batch, the size of its largest call there (the smallest such
   * size seen) and the batch's time (the longest seen).
   */
  #noteSlowBatch(calls: readonly PendingCall[], callMs: number): void {
    const largest = new Map<string, number>();
    for (const call of calls) {
      const hash = call.contract.hash;
      largest.set(hash, Math.max(largest.get(hash) ?? 0, call.message.byteLength));
    }
    for (const [hash, bytes] of largest) {
      const known = this.#slowCalls.get(hash);
      if (known !== undefined) {
        known.bytes = Math.min(known.bytes, bytes);
        known.ms = Math.max(known.ms, callMs);
        continue;
      }
      if (this.#slowCalls.size >= MAX_SLOW_CONTRACTS) this.#slowCalls.delete(this.#slowCalls.keys().next().value!);
      this.#slowCalls.set(hash, { bytes, ms: callMs });
    }
  }

  /**
   * Whether one more lane may take slow work (a compile, or a call over maxBatchBytes): never the
   * last lane that has none, so calls of other contracts always find a lane (one thread: always).
   */
  #mayTakeSlowWork(): boolean {
    let slow = 0;
    for (const lane of this.#lanes) if (lane.compilingSlow || lane.heavy > 0) slow++;
    return this.#lanes.length < 2 || slow < this.#lanes.length - 1;
  }

  /**
   * A lane with nothing in flight for a compile: the one that holds the contract if it is free, else
   * the idle lane holding the fewest contracts. A compile on a lane makes the contracts it holds
   * spread to other lanes meanwhile, and one whose own compile was slow may not spread to the last
   * lane free of slow work (#mayCompileOnLastLane): it would wait for the whole compile.
   */
  #compileLaneFor(group: CompileGroup, now: number): Lane | undefined {
    if (!this.#mayCompileOnLastLane(group, now)) return undefined;
    const idle = this.#lanes.filter((lane) => lane.inFlight.length === 0);
    if (idle.length === 0) return undefined;
    if (group.preferredLane && idle.includes(group.preferredLane)) return group.preferredLane;
    const holder = idle.find((lane) => lane.known.has(group.hash));
    if (holder !== undefined) return holder;
    return idle.reduce((fewest, lane) => (lane.known.size < fewest.known.size ? lane : fewest));
  }

  /**
   * Takes queued calls for `lane`, up to `target`: single calls first, then stream items, which
   * always get `minStreamItemsPerBatch` of the batch when they wait; single calls fill what stream
   * items leave.
   */
  #takeBatch(lane: Lane, target: number, takers: readonly Lane[], now: number): PendingCall[] {
    const taken: PendingCall[] = [];
    const streamShare = this.#streamQueue.length === 0 ? 0 : Math.min(this.#options.minStreamItemsPerBatch, target - 1);
    this.#queue = this.#takeFrom(this.#queue, lane, target - streamShare, takers, taken, now);
    this.#streamQueue = this.#takeFrom(this.#streamQueue, lane, target, takers, taken, now);
    // Single calls held back for the stream items' share take what those left.
    if (streamShare > 0 && taken.length < target && this.#queue.length > 0) this.#queue = this.#takeFrom(this.#queue, lane, target, takers, taken, now);
    return taken;
  }

  /**
   * Moves calls of `queue` into `taken` (up to `target` in all) for `lane`, and returns what stays
   * queued: first calls of contracts it holds; calls of a contract no lane holds (or one being
   * compiled) go to a compile group instead; calls of contracts only other lanes hold are taken last,
   * to keep this lane busy (the worker answers `missing` and compiles them), and only when none of
   * those lanes can take them now (`takers`): a contract spreads to another worker when its own are
   * busy, not whenever a free lane looks at the queue first.
   */
  #takeFrom(queue: PendingCall[], lane: Lane, target: number, takers: readonly Lane[], taken: PendingCall[], now: number): PendingCall[] {
    const { maxBatchBytes } = this.#options;
    const others: number[] = [];
    let bytes = 0;
    for (const call of taken) bytes += call.message.byteLength;
    let kept = 0;
    for (let i = 0; i < queue.length; i++) {
      const call = queue[i]!;
      if (isCancelled(call)) {
        call.reject(callerGone('it was not validated'));
        continue;
      }
      const hash = call.contract.hash;
      const slow = this.#isSlowCall(call, now);
      // Slow work travels alone, on an idle lane, while another lane stays free of slow work (or
      // once it has waited long enough for other contracts' slow work).
      if (slow && (taken.length > 0 || lane.inFlight.length > 0 || (!this.#mayTakeSlowWork() && !this.#mayTakeLastLaneAfterWaiting(call, now)))) {
        queue[kept++] = call;
        continue;
      }
      if (taken.length < target && lane.known.has(hash) && (taken.length === 0 || bytes + call.message.byteLength <= maxBatchBytes)) {
        taken.push(call);
        bytes += call.message.byteLength;
        if (slow) {
          // Alone: the lane takes nothing more with it.
          for (let rest = i + 1; rest < queue.length; rest++) queue[kept++] = queue[rest]!;
          queue.length = kept;
          return queue;
        }
      } else if (this.#compilingOn.has(hash) || !anyHolds(this.#lanes, hash)) {
        this.#addToCompileGroup(call, undefined);
      } else {
        if (!lane.known.has(hash) && !anyHolds(takers, hash, lane)) others.push(kept);
        queue[kept++] = call;
      }
    }
    queue.length = kept;
    // Spill: calls held by busy lanes, when this lane would otherwise carry less than it could.
    if (taken.length < target && others.length > 0) {
      const spilled = new Set<number>();
      for (const index of others) {
        if (taken.length >= target) break;
        const call = queue[index]!;
        if (this.#isSlowCall(call, now)) continue;
        if (taken.length > 0 && bytes + call.message.byteLength > maxBatchBytes) break;
        taken.push(call);
        bytes += call.message.byteLength;
        spilled.add(index);
      }
      return queue.filter((_, index) => !spilled.has(index));
    }
    return queue;
  }

  #runShared(lane: Lane, calls: PendingCall[]): void {
    this.#run(lane, calls, {}, false).then((result) => {
      if (!result) return;
      const retry = this.#settle(calls, result);
      // This lane compiles them: a busy contract thus spreads to the lanes that take its calls.
      for (const call of [...retry.missing, ...retry.cold]) this.#addToCompileGroup(call, lane);
    });
  }

  /**
   * Whether `group` may compile even on the last lane free of slow work: its compile is quick, a lane
   * stays free of slow work anyway, or its calls have waited out the time its compile took
   * (#waitedForLastLane). Kept off it without end, a contract whose compile was timed
   * at 68-119 ms (under load) waited for another schema's 4 s call on the other lane. One never
   * compiled may take seconds: it waits for a lane free of slow work. A group kept off has a flush
   * set for when it may go.
   */
  #mayCompileOnLastLane(group: CompileGroup, now: number): boolean {
    if (!this.#isSlowCompile(group.hash) || this.#mayTakeSlowWork()) return true;
    const compileMs = this.#compileMs.get(group.hash);
    return compileMs !== undefined && this.#waitedForLastLane(group.since, compileMs, now);
  }

  /**
   * Whether a call counted as slow work may take the last lane free of it anyway: the slow work out
   * is all of other contracts, and the call has waited out its contract's slowest batch
   * (#waitedForLastLane). For its own contract's slow work it waits, as a stream's calls do
   * one after another; one with no slow batch of its own seen (a first large call) waits too, its
   * cost unknown. Without end, a contract marked by one batch that a loaded machine stretched waited
   * for all of another schema's 1-2 s compile on the other lane.
   */
  #mayTakeLastLaneAfterWaiting(call: PendingCall, now: number): boolean {
    const hash = call.contract.hash;
    const slow = this.#slowCalls.size === 0 ? undefined : this.#slowCalls.get(hash);
    if (slow === undefined) return false;
    for (const lane of this.#lanes) {
      if ((lane.compilingSlow || lane.heavy > 0) && lane.inFlight.some((batch) => batch.contracts.has(hash))) return false;
    }
    return this.#waitedForLastLane(call.queuedAt, slow.ms, now);
  }

  /**
   * Whether work kept off the last lane free of slow work since `since` has waited LAST_LANE_WAIT_TIMES
   * its known cost (at least slowCallMs), and may take it; if not, a flush is set for when it may.
   */
  #waitedForLastLane(since: number, costMs: number, now: number): boolean {
    const due = since + Math.max(this.#options.slowCallMs, LAST_LANE_WAIT_TIMES * costMs);
    if (now >= due) return true;
    if (this.#waitEndDue !== undefined && this.#waitEndDue <= due) return false;
    clearTimeout(this.#waitEndTimer);
    this.#waitEndDue = due;
    this.#waitEndTimer = setTimeout(() => {
      this.#waitEndDue = undefined;
      this.#scheduleFlush();
    }, due - now).unref();
    return false;
  }

  /**
   * Whether compiling `hash` may take long: a contract never compiled here, or one whose compile took
   * longer than slowCompileMs. Spreading a contract that compiled quickly to another lane does not count.
   */
  #isSlowCompile(hash: string): boolean {
    const ms = this.#compileMs.get(hash);
    return ms === undefined || ms > this.#options.slowCompileMs;
  }

  /**
   * The compile groups in turns by caller: each caller's oldest group, then each one's second, and
   * so on; within a turn, the caller whose last compile started longest ago (or never) first, then
   * arrival order. A caller's compiles already running count as turns taken.
   */
  #compileGroupsInTurns(): CompileGroup[] {
    if (this.#compileGroups.length < 2) return [...this.#compileGroups];
    const taken = new Map<string, number>();
    for (const lane of this.#lanes) if (lane.compiling) taken.set(lane.compilingFor, (taken.get(lane.compilingFor) ?? 0) + 1);
    const turns = this.#compileGroups.map((group, index) => {
      const turn = taken.get(group.caller) ?? 0;
      taken.set(group.caller, turn + 1);
      return { group, turn, servedAt: this.#compileServedAt.get(group.caller) ?? 0, index };
    });
    return turns.sort((a, b) => a.turn - b.turn || a.servedAt - b.servedAt || a.index - b.index).map(({ group }) => group);
  }

  #runCompile(lane: Lane, group: CompileGroup): void {
    lane.compiling = true;
    lane.compilingFor = group.caller;
    this.#compileServedAt.set(group.caller, ++this.#compilesStarted);
    lane.compilingSlow = this.#isSlowCompile(group.hash);
    this.#compilingOn.set(group.hash, lane);
    const started = performance.now();
    this.#run(lane, group.calls, { [group.hash]: group.documentJson! }, true).then((result) => {
      lane.compiling = false;
      lane.compilingSlow = false;
      // The worker's own time when it answered: the round trip adds the hops and this thread's delays.
      const compileMs = result?.ok ? result.workerMs : performance.now() - started;
      this.#compileMs.set(group.hash, Math.max(compileMs, this.#compileMs.get(group.hash) ?? 0));
      this.#compilingOn.delete(group.hash);
      // Calls that arrived during the compile go back to the shared queue: a lane holds the contract now.
      const arrived = this.#compileGroups.findIndex((waiting) => waiting.hash === group.hash);
      if (arrived >= 0 && result) this.#requeue(this.#compileGroups.splice(arrived, 1)[0]!.calls, 'front');
      if (!result) return;
      const retry = this.#settle(group.calls, result);
      lane.known.add(group.hash);
      for (const call of [...retry.missing, ...retry.cold]) {
        call.reject(new SvcError(ErrorCode.INTERNAL, 'a validation worker did not compile the contract it was sent'));
      }
    });
  }

  /**
   * Sends one batch to a lane; resolves with its result, or undefined when its calls were failed. A
   * batch abandoned meanwhile (its thread replaced, or dead while it waited behind another) never
   * settles: its calls were dealt with then, and the lane's state belongs to the new thread.
   */
  #run(lane: Lane, calls: PendingCall[], documents: Record<string, string>, compile: boolean): Promise<BatchResult | undefined> {
    this.#batchSequence = (this.#batchSequence % 0x7fffffff) + 1;
    const { batch, contractIndex } = encodeBatch(calls, documents, compile, this.#batchSequence);
    const sent: SentBatch = { sequence: batch.sequence, startedAt: performance.now(), calls, contracts: contractIndex, abandoned: false };
    if (lane.inFlight.length === 0) lane.runningSince = sent.startedAt;
    lane.inFlight.push(sent);
    // Slow work travels alone (#takeFrom), so a batch holding one is that call alone.
    const heavy = !compile && calls.some((call) => this.#isSlowCall(call, sent.startedAt));
    if (heavy) lane.heavy++;
    const done = () => {
      if (heavy) lane.heavy--;
      lane.inFlight.splice(lane.inFlight.indexOf(sent), 1);
      // The worker runs its batches in order: the next one starts now.
      lane.runningSince = performance.now();
      this.#scheduleFlush();
    };
    return lane.piscina.run(batch, { transferList: [batch.buffer] }).then(
      (result) => {
        if (sent.abandoned) return never();
        done();
        if (result.ok) {
          for (const hash of result.cache.evicted) lane.known.delete(hash);
          const { workerMs, prepareMs } = result;
          // The calls' own cost: a slow compile is judged by slowCompileMs (#isSlowCompile), which keeps
          // the contract's compiles off the last lane; counted here, it made its cheap calls slow work too.
          this.#noteCallTime(calls, contractIndex, workerMs - prepareMs);
        }
        return result;
      },
      (error: unknown) => {
        if (sent.abandoned) return never();
        done();
        lane.known.clear();
        if (this.#closing) {
          for (const call of calls) call.reject(unavailable('the validation pool is closed'));
          return undefined;
        }
        // The thread is gone, and Piscina fails every batch it held: the one it was running is
        // dealt with here, and the others go again as they were.
        const held = [sent, ...lane.inFlight.splice(0)];
        const running = runningBatch(held, lane.startMark)!;
        this.#requeueNeverStarted(held.filter((batch) => batch !== running));
        running.abandoned = true;
        if (isOutOfHeap(error)) {
          this.#retryOverrun(running.calls, running.contracts, 'memory');
        } else {
          const reason = unavailable(`the validation worker holding this call stopped (${errorMessage(error)}); it was not validated, retry it`);
          for (const call of running.calls) call.reject(reason);
        }
        return running === sent ? undefined : never();
      },
    );
  }

  /**
   * The calls of a batch that ran over maxRunMs, or needed more than maxHeapBytes: its contracts count
   * as slow whatever slowCallMs is, the calls go again one by one, as slow work, and one that had
   * overrun before (or alone) fails.
   */
  #retryOverrun(calls: PendingCall[], contracts: ReadonlyMap<string, number>, limit: 'time' | 'memory'): void {
    this.#noteCallTime(calls, contracts, Number.POSITIVE_INFINITY);
    const again: PendingCall[] = [];
    for (const call of calls) {
      if (call.overran || calls.length === 1) {
        const overrun = limit === 'time'
          ? `validating this call took longer than ${this.#options.maxRunMs / 1000} s and was stopped (validationMaxMs)`
          : `validating this call needed more than ${formatBytes(this.#options.maxHeapBytes)} of memory and its worker was stopped (validationWorkerMaxHeapBytes)`;
        call.reject(limitExceeded(
          `${overrun}; it was not validated. The schema costs far more than usual on this body `
            + '(a pattern over a long text, an enum of objects over a long list, anyOf or oneOf branches nested through $ref): send a smaller body or simplify the schema',
        ));
        continue;
      }
      call.overran = true;
      again.push(call);
    }
    // Suspects, each going alone: behind the calls already waiting.
    this.#requeue(again, 'back');
  }

  /** Puts calls back in their queues (single calls and stream items apart): at the front, or behind those waiting. */
  #requeue(calls: readonly PendingCall[], place: 'front' | 'back'): void {
    const single = calls.filter((call) => !call.streamed);
    const streamed = calls.filter((call) => call.streamed);
    if (place === 'front') {
      this.#queue.unshift(...single);
      this.#streamQueue.unshift(...streamed);
    } else {
      this.#queue.push(...single);
      this.#streamQueue.push(...streamed);
    }
  }

  /** Answers the calls the worker validated; returns those it sent back (`missing`, `cold`). */
  #settle(calls: PendingCall[], result: BatchResult): { missing: PendingCall[]; cold: PendingCall[] } {
    const retry = { missing: [] as PendingCall[], cold: [] as PendingCall[] };
    if (!result.ok) {
      const error = new SvcError(result.code, result.message);
      for (const call of calls) call.reject(error);
      return retry;
    }
    this.#recordCache(result.cache);
    const results = Buffer.from(result.results);
    const outcomes = new Int32Array(result.outcomes);
    let failure = 0;
    let start = 0;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const outcome = i * OUTCOME_FIELDS;
      switch (outcomes[outcome + OutcomeField.STATUS]) {
        case OutcomeStatus.DONE: {
          const end = outcomes[outcome + OutcomeField.END]!;
          const category = ERROR_CATEGORIES[outcomes[outcome + OutcomeField.CATEGORY]!] ?? '';
          call.resolve({ valid: outcomes[outcome + OutcomeField.VALID] === 1, category, result: results.subarray(start, end) });
          start = end;
          break;
        }
        case OutcomeStatus.MISSING:
          retry.missing.push(call);
          break;
        case OutcomeStatus.COLD:
          retry.cold.push(call);
          break;
        default: {
          const { code, message } = result.failures[failure++]!;
          call.reject(new SvcError(code, message));
        }
      }
    }
    return retry;
  }

  /** Puts a call into its contract's compile group, fetching the document once per group. */
  #addToCompileGroup(call: PendingCall, preferredLane: Lane | undefined): void {
    const hash = call.contract.hash;
    const waiting = this.#compileGroups.find((group) => group.hash === hash);
    if (waiting) {
      waiting.calls.push(call);
      waiting.preferredLane ??= preferredLane;
      return;
    }
    const group: CompileGroup = { hash, calls: [call], documentJson: undefined, preferredLane, caller: call.caller?.() ?? '', since: performance.now() };
    this.#compileGroups.push(group);
    this.#documentFor(call.contract).then(
      ({ ref, documentJson }) => {
        if (ref.hash !== hash) {
          // Re-registered meanwhile: the calls follow the version's new content.
          for (const pending of group.calls) pending.contract = ref;
          group.hash = ref.hash;
        }
        group.documentJson = documentJson;
        this.#scheduleFlush();
      },
      (error: unknown) => {
        this.#compileGroups.splice(this.#compileGroups.indexOf(group), 1);
        const failure = error instanceof SvcError ? error : new SvcError(ErrorCode.INTERNAL, errorMessage(error));
        for (const pending of group.calls) pending.reject(failure);
      },
    );
  }

  #documentFor(ref: VersionRef): Promise<VersionDocument> {
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

/**
 * How long work kept off the last lane free of slow work waits, in times its known cost (a slow
 * compile's time, or a contract's slowest batch), before it may take that lane anyway (#waitedForLastLane).
 */
const LAST_LANE_WAIT_TIMES = 2;

/** Callers whose last compile's start the pool remembers (for turns): beyond them, the least recent count as never served. */
const REMEMBERED_COMPILE_CALLERS = 1_024;

/** Whether a lane of `lanes` other than `except` holds the contract `hash` (a loop: this runs per queued call). */
function anyHolds(lanes: readonly Lane[], hash: string, except?: Lane): boolean {
  for (const other of lanes) if (other !== except && other.known.has(hash)) return true;
  return false;
}

function isCancelled(call: PendingCall): boolean {
  return call.isCancelled?.() === true;
}

/**
 * Of the batches a thread held, oldest first, the one it was running: the one it marked as started
 * (an earlier batch may have answered without the answer being read yet), else the oldest.
 */
function runningBatch(held: readonly SentBatch[], startMark: BatchStartMark): SentBatch | undefined {
  const mark = Atomics.load(startMark, 0);
  return held.find((batch) => batch.sequence === mark) ?? held[0];
}

/**
 * The answer of a batch whose thread is gone: its calls went again elsewhere, nothing waits for this
 * one. A new promise each time: one shared promise would keep every chain that adopted it, with its
 * batch's calls and their messages, for the life of the process.
 */
function never(): Promise<never> {
  return new Promise(() => {});
}

function unavailable(message: string): SvcError {
  return new SvcError(ErrorCode.UNAVAILABLE, message);
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
