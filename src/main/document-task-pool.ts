/**
 * Threads for one-off, CPU-heavy work on whole documents: intake of a registered text, breaking-change
 * comparisons, fixture generation. None of it runs on the main thread, so no call waits behind another
 * caller's large document, and none of it shares the validation lanes. Each task has a time budget
 * and the threads a heap limit: a task over either is stopped (its thread is replaced) and fails with
 * LIMIT_EXCEEDED, so one caller's pathological document costs that caller alone.
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Piscina from 'piscina';
import type { DocumentTask, DocumentTaskAnswer, DocumentTaskResult } from '../shared/document-task-protocol';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import { LIMITS, formatBytes } from '../shared/limits';
import type { Logger } from './logger';

export interface DocumentTaskPoolOptions {
  /** Tasks that run at once, one thread each. */
  threads: number;
  /** A thread left without work this long stops (the next task starts one again, in tens of ms). */
  idleTimeoutMs: number;
  /** Longest a task may run before it is stopped, by kind. */
  budgetMs: Readonly<Record<DocumentTask['kind'], number>>;
  /** Old-generation heap of a thread; a task that needs more is stopped. */
  maxHeapBytes: number;
  /** The worker entry (compiled JavaScript). */
  filename: string;
  logger: Logger | undefined;
}

export const DEFAULT_DOCUMENT_TASK_POOL_OPTIONS: Readonly<DocumentTaskPoolOptions> = Object.freeze({
  threads: 2,
  idleTimeoutMs: 60_000, // 1 min: a deploy's comparisons (one per consumer version) share a thread
  budgetMs: Object.freeze({ intake: LIMITS.intakeMaxMs, compare: LIMITS.compareMaxMs, fixture: LIMITS.fixtureMaxMs }),
  maxHeapBytes: LIMITS.documentTaskMaxHeapBytes,
  filename: path.resolve(__dirname, '../workers/document-task.js'),
  logger: undefined,
});

/** What a task of each kind is called in messages, and what was not done when it stopped. */
const WHAT = Object.freeze({
  intake: { worker: 'schema intake', undone: 'the schema was not registered' },
  compare: { worker: 'comparison', undone: 'the schemas were not compared' },
  fixture: { worker: 'fixture', undone: 'no fixture was generated' },
});

export class DocumentTaskPool {
  readonly #options: DocumentTaskPoolOptions;
  #piscina: Piscina<DocumentTask, DocumentTaskResult> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: Partial<DocumentTaskPoolOptions> = {}) {
    const merged: DocumentTaskPoolOptions = { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS, ...options };
    for (const name of ['threads', 'idleTimeoutMs', 'maxHeapBytes'] as const) {
      if (!Number.isSafeInteger(merged[name]) || merged[name] < 1) throw new TypeError(`options.${name} must be a positive integer`);
    }
    this.#options = merged;
  }

  /** The live threads (none until the first task, and again once idle). */
  get workers(): readonly Worker[] {
    return this.#piscina?.threads ?? [];
  }

  /**
   * Runs one task off the main thread. Rejects with the engine's SvcError, LIMIT_EXCEEDED when the task
   * ran over its time budget or the heap limit, or UNAVAILABLE when its thread stopped or the pool is closed.
   */
  async run<K extends DocumentTaskAnswer['kind']>(task: DocumentTask): Promise<Extract<DocumentTaskAnswer, { kind: K }>> {
    if (this.#closing) throw unavailable('the document task pool is closed');
    const budgetMs = this.#options.budgetMs[task.kind];
    const what = WHAT[task.kind];
    let result: DocumentTaskResult;
    try {
      result = await this.#threads().run(task, { signal: AbortSignal.timeout(budgetMs) });
    } catch (error) {
      if (this.#closing) throw unavailable('the document task pool is closed');
      if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') {
        throw new SvcError(ErrorCode.LIMIT_EXCEEDED, `the ${what.worker} took longer than ${budgetMs / 1000} s and was stopped (${task.kind}MaxMs); ${what.undone}`);
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new SvcError(ErrorCode.LIMIT_EXCEEDED, `the ${what.worker} needed more than ${formatBytes(this.#options.maxHeapBytes)} of memory and was stopped (documentTaskMaxHeapBytes); ${what.undone}`);
      }
      throw unavailable(`the ${what.worker} worker stopped (${errorMessage(error)}); ${what.undone}, retry`);
    }
    if (!result.ok) throw new SvcError(result.code, result.message);
    const { ok: _ok, ...answer } = result;
    return answer as Extract<DocumentTaskAnswer, { kind: K }>;
  }

  /** Stops the threads; tasks still running fail with UNAVAILABLE. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#piscina?.destroy() ?? Promise.resolve();
    return this.#closing;
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
      resourceLimits: { maxOldGenerationSizeMb: Math.ceil(maxHeapBytes / (1024 * 1024)) },
    });
    // Without a listener an 'error' event (a thread failing while idle) would end the process.
    piscina.on('error', (error: unknown) => logger?.error({ caller: 'document-tasks', err: error }, 'document task worker failed'));
    this.#piscina = piscina;
    return piscina;
  }
}

function unavailable(message: string): SvcError {
  return new SvcError(ErrorCode.UNAVAILABLE, message);
}
