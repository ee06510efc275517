/**
 * Threads for one-off, CPU-heavy work on whole documents: intake of a registered text, breaking-change
 * comparisons, fixture generation, operation listings; and on recorded interactions with large bodies.
 * None of it runs on the main thread, so no call waits behind another caller's large document, and
 * none of it shares the validation lanes. Each task has a time budget
 * and the threads a heap limit: a task over either is stopped (its thread is replaced) and fails with
 * LIMIT_EXCEEDED, so one caller's pathological document costs that caller alone.
 *
 * Tasks wait here, not in Piscina, and are handed over only when a thread is free:
 * - a task's budget counts from the moment it starts, so a task that waited behind slow ones is
 *   never stopped for their time;
 * - one caller's tasks never hold more than `threadsPerCaller` threads (all but one by default): on a
 *   server shared by many teams, one caller's slow intakes or comparisons leave another caller a
 *   thread unless several others are busy too;
 * - a thread nobody else may take is lent: when no waiting task may start, the caller whose turn it
 *   is may start an intake or a comparison beyond its share (a registration does not wait for its
 *   own caller's slow fixtures while a thread is idle). The loan ends as soon as another caller has
 *   a task that may start and no thread is free: the lent task is stopped, its thread replaced, and
 *   it waits again at the head of its caller's tasks (its budget counts afresh when it starts again);
 * - fixtures never take the last free thread (`fixtureThreads`): registrations and the deploy gate's
 *   comparisons find one, however many slow fixtures are asked for (unless their own caller already
 *   holds its share);
 * - when a thread frees, callers take turns: of the callers with a task that may start, the one whose
 *   last start is longest ago starts its oldest task. A caller arriving behind two busy ones waits
 *   for one task, not for their queues;
 * - at most `maxQueuedPerCaller` tasks of one caller, and `maxQueued` in all, wait; more are refused
 *   with RESOURCE_EXHAUSTED;
 * - a task whose asker has gone (its call cancelled or past its deadline) is dropped while it waits, and
 *   stopped while it runs (looked at every `goneCheckMs`): six fixtures whose callers' 1 s deadlines
 *   had passed kept the fixture thread for a minute, and every other caller's fixture waited 8–9 s.
 * Who a caller is (API key name, else client host) is decided by the service (auth/principal.ts).
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Piscina from 'piscina';
import type { DocumentTask, DocumentTaskAnswer, DocumentTaskResult } from '../shared/document-task-protocol';
import { ErrorCode, SvcError, callerGone, errorMessage } from '../shared/errors';
import { LIMITS, formatBytes } from '../shared/limits';
import type { Logger } from './logger';
import { heapLimits, isOutOfHeap } from './worker-heap';

type TaskKind = DocumentTask['kind'];

export interface DocumentTaskPoolOptions {
  /** Tasks that run at once, one thread each. */
  threads: number;
  /** Fixtures that run at once (default: all threads but one, so other tasks always find a thread). */
  fixtureThreads: number | undefined;
  /** Tasks of one caller that run at once (default: all threads but one, so other callers always find a thread). */
  threadsPerCaller: number | undefined;
  /** Tasks waiting for a thread at most, all callers together; more are refused with RESOURCE_EXHAUSTED. */
  maxQueued: number;
  /** Tasks of one caller waiting for a thread at most; more from that caller are refused with RESOURCE_EXHAUSTED. */
  maxQueuedPerCaller: number;
  /** A thread left without work this long stops (the next task starts one again, in tens of ms). */
  idleTimeoutMs: number;
  /** Longest a task may run, from its start, before it is stopped, by kind. */
  budgetMs: Readonly<Record<TaskKind, number>>;
  /** Old-generation heap of a thread; a task that needs more is stopped. */
  maxHeapBytes: number;
  /** How often running tasks are looked at for askers that have gone (their threads are then freed). */
  goneCheckMs: number;
  /** The worker entry (compiled JavaScript). */
  filename: string;
  logger: Logger | undefined;
}

export const DEFAULT_DOCUMENT_TASK_POOL_OPTIONS: Readonly<DocumentTaskPoolOptions> = Object.freeze({
  threads: 2,
  fixtureThreads: undefined,
  threadsPerCaller: undefined,
  maxQueued: LIMITS.documentTaskMaxQueued,
  maxQueuedPerCaller: LIMITS.documentTaskMaxQueuedPerCaller,
  idleTimeoutMs: 60_000, // 1 min: a deploy's comparisons (one per consumer version) share a thread
  budgetMs: Object.freeze({
    intake: LIMITS.intakeMaxMs, compare: LIMITS.compareMaxMs, fixture: LIMITS.fixtureMaxMs, operations: LIMITS.operationsMaxMs, observe: LIMITS.observeMaxMs,
  }),
  maxHeapBytes: LIMITS.documentTaskMaxHeapBytes,
  goneCheckMs: 250,
  filename: path.resolve(__dirname, '../workers/document-task.js'),
  logger: undefined,
});

/** What a task of each kind is called in messages (one, several), and what was not done when it stopped. */
const WHAT: Readonly<Record<TaskKind, { worker: string; plural: string; undone: string }>> = Object.freeze({
  intake: { worker: 'schema intake', plural: 'schema intakes', undone: 'the schema was not registered' },
  operations: { worker: 'operation listing', plural: 'operation listings', undone: 'the operations were not listed' },
  compare: { worker: 'comparison', plural: 'comparisons', undone: 'the schemas were not compared' },
  fixture: { worker: 'fixture', plural: 'fixtures', undone: 'no fixture was generated' },
  observe: { worker: 'recorded interaction', plural: 'large recorded interactions', undone: 'the interaction was not recorded' },
});
const TASK_KINDS = Object.keys(WHAT) as TaskKind[];
/** How the waiting tasks are named in a refusal. */
const TASKS_NAMED = `document tasks (${TASK_KINDS.map((kind) => WHAT[kind].plural).join(', ')})`;

/** What one caller has in the pool; forgotten once nothing of it runs or waits. */
interface CallerShare {
  caller: string;
  running: number;
  waiting: number;
  /** When its last task started, as a count of task starts (0: none since it was last forgotten). */
  lastStart: number;
}

interface WaitingTask {
  task: DocumentTask;
  share: CallerShare;
  resolve: (result: DocumentTaskResult) => void;
  reject: (error: unknown) => void;
  /** Whether whoever waits for the answer has gone (cancelled, past its deadline); undefined: it never goes. */
  gone: (() => boolean) | undefined;
}

/** A running task whose asker may go: stopped when it has. */
interface Watched {
  gone: () => boolean;
  /** The task's controller (#start). */
  stop: AbortController;
  /** Stopped because its asker went: the task fails with CANCELLED. */
  dropped: boolean;
}

/** A task running beyond its caller's share, on a thread lent until another caller needs it. */
interface Loan {
  waiting: WaitingTask;
  /** The task's controller (#start). */
  stop: AbortController;
  /** Stopped to give its thread back: the task waits again instead of failing. */
  reclaimed: boolean;
}

/**
 * Failures of tasks stopped by their time budget. The budget is wall-clock time, which a task can
 * overrun once on a loaded host and not on an idle one (wasStoppedByTime).
 */
const stoppedByTime = new WeakSet<SvcError>();

/** Whether `error` is a task stopped by its time budget (…MaxMs), as opposed to one its input decided. */
export function wasStoppedByTime(error: unknown): boolean {
  return error instanceof SvcError && stoppedByTime.has(error);
}

export class DocumentTaskPool {
  readonly #options: DocumentTaskPoolOptions;
  /** How many fixtures may run at once (resolved from `fixtureThreads`). */
  readonly #fixtureThreads: number;
  /** How many tasks of one caller may run at once (resolved from `threadsPerCaller`). */
  readonly #threadsPerCaller: number;
  #piscina: Piscina<DocumentTask, DocumentTaskResult> | undefined;
  #closing: Promise<void> | undefined;
  readonly #waiting: WaitingTask[] = [];
  readonly #running = Object.fromEntries(TASK_KINDS.map((kind) => [kind, 0])) as Record<TaskKind, number>;
  /** Callers with a task running or waiting (at most threads + maxQueued of them). */
  readonly #callers = new Map<string, CallerShare>();
  /** Tasks started so far: the clock callers' turns are kept by. */
  #starts = 0;
  /** Tasks running on lent threads, oldest first. */
  readonly #loans = new Set<Loan>();
  /** Running tasks whose askers may go. */
  readonly #watched = new Set<Watched>();
  /** Looks at #watched and the waiting tasks while any of them has an asker that may go. */
  #goneCheck: NodeJS.Timeout | undefined;

  constructor(options: Partial<DocumentTaskPoolOptions> = {}) {
    const merged: DocumentTaskPoolOptions = { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS, ...options };
    for (const name of ['threads', 'maxQueued', 'maxQueuedPerCaller', 'idleTimeoutMs', 'maxHeapBytes', 'goneCheckMs'] as const) {
      if (!Number.isSafeInteger(merged[name]) || merged[name] < 1) throw new TypeError(`options.${name} must be a positive integer`);
    }
    this.#options = merged;
    this.#fixtureThreads = threadShare(merged, 'fixtureThreads');
    this.#threadsPerCaller = threadShare(merged, 'threadsPerCaller');
  }

  /** The live threads (none until the first task, and again once idle). */
  get workers(): readonly Worker[] {
    return this.#piscina?.threads ?? [];
  }

  /** Tasks waiting for a thread, all callers together. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Runs one task off the main thread, counted against `caller`'s share (auth/principal.ts `callerOf`,
   * or INTERNAL_CALLER). `gone` tells whether the asker has gone (a call cancelled or past its
   * deadline): the task is then dropped, or stopped, and rejects with CANCELLED. Rejects with the
   * engine's SvcError, LIMIT_EXCEEDED when the task ran over its time budget or the heap limit,
   * OVERLOADED when too many tasks of the caller or in all wait, or UNAVAILABLE when its thread
   * stopped or the pool is closed.
   */
  async run<K extends DocumentTaskAnswer['kind']>(task: DocumentTask, caller: string, gone?: () => boolean): Promise<Extract<DocumentTaskAnswer, { kind: K }>> {
    if (this.#closing) throw unavailable('the document task pool is closed');
    // Tasks nobody waits for any more do not count against the limits below.
    this.#dropGoneWaiting();
    const { maxQueued, maxQueuedPerCaller } = this.#options;
    const share = this.#callers.get(caller) ?? { caller, running: 0, waiting: 0, lastStart: 0 };
    if (share.waiting >= maxQueuedPerCaller) {
      throw new SvcError(
        ErrorCode.OVERLOADED,
        `${share.waiting} ${TASKS_NAMED} from ${caller} are waiting for a thread, at the limit of ${maxQueuedPerCaller} per caller (documentTaskMaxQueuedPerCaller); ${WHAT[task.kind].undone}, retry shortly`,
      );
    }
    if (this.#waiting.length >= maxQueued) {
      throw new SvcError(
        ErrorCode.OVERLOADED,
        `${this.#waiting.length} ${TASKS_NAMED} are waiting for a thread, at the limit of ${maxQueued} (documentTaskMaxQueued); ${WHAT[task.kind].undone}, retry shortly`,
      );
    }
    this.#callers.set(caller, share);
    const result = await new Promise<DocumentTaskResult>((resolve, reject) => {
      share.waiting++;
      this.#waiting.push({ task, share, resolve, reject, gone });
      if (gone) this.#goneCheck ??= setInterval(this.#checkGone, this.#options.goneCheckMs).unref();
      this.#startWaiting();
    });
    if (!result.ok) throw new SvcError(result.code, result.message);
    const { ok: _ok, ...answer } = result;
    return answer as Extract<DocumentTaskAnswer, { kind: K }>;
  }

  /** Stops the threads; tasks running or waiting fail with UNAVAILABLE. Idempotent. */
  close(): Promise<void> {
    if (!this.#closing) {
      clearInterval(this.#goneCheck);
      for (const waiting of this.#waiting.splice(0)) waiting.reject(unavailable('the document task pool is closed'));
      this.#callers.clear();
      this.#closing = this.#piscina?.destroy() ?? Promise.resolve();
    }
    return this.#closing;
  }

  /**
   * Starts waiting tasks while threads are free, in the order `#nextToStart` gives, then lends the
   * threads still free (`#nextToLend`); with none free, takes a lent one back for a task that may start.
   */
  #startWaiting(): void {
    const { threads } = this.#options;
    this.#dropGoneWaiting();
    while (!this.#closing && this.#runningCount() < threads) {
      const index = this.#nextToStart();
      const onLoan = index < 0;
      const next = onLoan ? this.#nextToLend() : index;
      if (next < 0) return;
      this.#start(this.#waiting.splice(next, 1)[0]!, onLoan);
    }
    if (!this.#closing && this.#nextToStart() >= 0) this.#reclaimLoan();
  }

  /**
   * The waiting task that may start now (its caller under `threadsPerCaller`, a fixture only while
   * fixtures are under `fixtureThreads`) of the caller whose last start is longest ago, its oldest;
   * -1 when none may.
   */
  #nextToStart(): number {
    let next = -1;
    let nextTurn = Infinity;
    for (let index = 0; index < this.#waiting.length; index++) {
      const { task, share } = this.#waiting[index]!;
      if (share.running >= this.#threadsPerCaller) continue;
      if (task.kind === 'fixture' && this.#running.fixture >= this.#fixtureThreads) continue;
      // Strictly earlier only: of one caller's tasks (one turn), the oldest comes first.
      if (share.lastStart < nextTurn) {
        next = index;
        nextTurn = share.lastStart;
      }
    }
    return next;
  }

  /**
   * The waiting intake or comparison to run on a lent thread, when no task may start: of the caller
   * whose last start is longest ago, its oldest; -1 when none. Fixtures are never lent a thread.
   */
  #nextToLend(): number {
    let next = -1;
    let nextTurn = Infinity;
    for (let index = 0; index < this.#waiting.length; index++) {
      const { task, share } = this.#waiting[index]!;
      if (task.kind !== 'fixture' && share.lastStart < nextTurn) {
        next = index;
        nextTurn = share.lastStart;
      }
    }
    return next;
  }

  /** Stops the latest task on loan so that its thread frees, unless one is being stopped already. */
  #reclaimLoan(): void {
    let latest: Loan | undefined;
    for (const loan of this.#loans) {
      if (loan.reclaimed) return;
      latest = loan;
    }
    if (!latest) return;
    latest.reclaimed = true;
    latest.stop.abort();
  }

  /** Drops the waiting tasks whose askers have gone: nobody reads their answers. */
  #dropGoneWaiting(): void {
    for (let index = this.#waiting.length - 1; index >= 0; index--) {
      const waiting = this.#waiting[index]!;
      if (waiting.gone?.() !== true) continue;
      this.#waiting.splice(index, 1);
      waiting.share.waiting--;
      this.#forgetIfIdle(waiting.share);
      waiting.reject(cancelled(waiting.task));
    }
  }

  /** Stops the running tasks whose askers have gone, and drops such waiting tasks (and the documents they hold). */
  #checkGone = (): void => {
    for (const watched of this.#watched) {
      if (!watched.gone()) continue;
      watched.dropped = true;
      watched.stop.abort();
    }
    this.#dropGoneWaiting();
    if (this.#watched.size === 0 && !this.#waiting.some((waiting) => waiting.gone)) {
      clearInterval(this.#goneCheck);
      this.#goneCheck = undefined;
    }
  };

  #forgetIfIdle(share: CallerShare): void {
    if (share.running === 0 && share.waiting === 0) this.#callers.delete(share.caller);
  }

  #runningCount(): number {
    return TASK_KINDS.reduce((count, kind) => count + this.#running[kind], 0);
  }

  #start(waiting: WaitingTask, onLoan: boolean): void {
    const { task, share, resolve, reject, gone } = waiting;
    // One controller, stopped by the budget's timer, the loan's end or the asker's going. Not
    // AbortSignal.any over AbortSignal.timeout: the timeout can be collected before it fires
    // (nodejs/node#57736), and a lent intake then ran 4.7 s past its 0.5 s budget.
    const stop = new AbortController();
    const budget = setTimeout(() => stop.abort(), this.#options.budgetMs[task.kind]);
    const loan: Loan | undefined = onLoan ? { waiting, stop, reclaimed: false } : undefined;
    if (loan) this.#loans.add(loan);
    const watched: Watched | undefined = gone ? { gone, stop, dropped: false } : undefined;
    if (watched) this.#watched.add(watched);
    this.#running[task.kind]++;
    share.waiting--;
    share.running++;
    share.lastStart = ++this.#starts;
    let running: Promise<DocumentTaskResult>;
    try {
      running = this.#threads().run(task, { signal: stop.signal });
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(resolve, (error: unknown) => {
      if (watched?.dropped && !this.#closing) {
        reject(cancelled(task));
        return;
      }
      if (!loan?.reclaimed || this.#closing) {
        reject(this.#failure(task, error));
        return;
      }
      // Back at the head of its caller's tasks: it starts again on the caller's next turn.
      share.waiting++;
      this.#waiting.unshift(waiting);
    }).finally(() => {
      clearTimeout(budget);
      if (loan) this.#loans.delete(loan);
      if (watched) this.#watched.delete(watched);
      this.#running[task.kind]--;
      share.running--;
      this.#forgetIfIdle(share);
      this.#startWaiting();
    });
  }

  /** Why a task that Piscina did not complete failed, as the caller should read it. */
  #failure(task: DocumentTask, error: unknown): SvcError {
    const what = WHAT[task.kind];
    if (this.#closing) return unavailable('the document task pool is closed');
    if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') {
      const stopped = new SvcError(ErrorCode.LIMIT_EXCEEDED, `the ${what.worker} took longer than ${this.#options.budgetMs[task.kind] / 1000} s and was stopped (${task.kind}MaxMs); ${what.undone}`);
      stoppedByTime.add(stopped);
      return stopped;
    }
    if (isOutOfHeap(error)) {
      return new SvcError(ErrorCode.LIMIT_EXCEEDED, `the ${what.worker} needed more than ${formatBytes(this.#options.maxHeapBytes)} of memory and was stopped (documentTaskMaxHeapBytes); ${what.undone}`);
    }
    return unavailable(`the ${what.worker} worker stopped (${errorMessage(error)}); ${what.undone}, retry`);
  }

  #threads(): Piscina<DocumentTask, DocumentTaskResult> {
    if (this.#piscina) return this.#piscina;
    const { threads, idleTimeoutMs, filename, logger, maxHeapBytes } = this.#options;
    const piscina = new Piscina<DocumentTask, DocumentTaskResult>({
      filename,
      minThreads: 0,
      maxThreads: threads,
      // Tasks are long and CPU-bound: a second one on the same thread would only wait.
      concurrentTasksPerWorker: 1,
      idleTimeout: idleTimeoutMs,
      recordTiming: false,
      resourceLimits: heapLimits(maxHeapBytes),
    });
    // Without a listener an 'error' event (a thread failing while idle) would end the process.
    piscina.on('error', (error: unknown) => logger?.error({ caller: 'document-tasks', err: error }, 'document task worker failed'));
    this.#piscina = piscina;
    return piscina;
  }
}

/** A share of the threads given as an option (default: all but one), checked against `threads`. */
function threadShare(options: DocumentTaskPoolOptions, name: 'fixtureThreads' | 'threadsPerCaller'): number {
  const share = options[name] ?? Math.max(1, options.threads - 1);
  if (!Number.isSafeInteger(share) || share < 1 || share > options.threads) {
    throw new TypeError(`options.${name} must be an integer from 1 to options.threads`);
  }
  return share;
}

function cancelled(task: DocumentTask): SvcError {
  return callerGone(WHAT[task.kind].undone);
}

function unavailable(message: string): SvcError {
  return new SvcError(ErrorCode.UNAVAILABLE, message);
}
