/**
 * Breaking-change comparisons off the main thread. An uncached comparison of large descriptions
 * takes up to a second of CPU: on the main thread it stalled every call for that long. It runs on
 * threads of its own rather than on the validation workers, because a validation worker holding a
 * comparison would hold every batch queued behind it too. The threads start on the first
 * comparison and stop when idle: comparisons come with registrations and deploys, not with traffic.
 * Identical comparisons in flight (same pair of content hashes) share one task. A thread that dies
 * fails the comparison it held with UNAVAILABLE; the next comparison starts a new thread.
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Piscina from 'piscina';
import type { BreakingChangeRecord } from '../../shared/compare';
import type { CompareTask, CompareTaskResult } from '../../shared/compare/compare-task-protocol';
import { ErrorCode, SvcError, errorMessage } from '../../shared/errors';
import type { Logger } from '../logger';

/** One side of a comparison: a registered version's content hash and bundled document (`ResolvedSchema` fits). */
export interface ComparedDocument {
  hash: string;
  documentJson: string;
}

export interface ComparisonPoolOptions {
  /** Comparisons that run at once, one thread each. */
  threads: number;
  /** A thread left without work this long stops (the next comparison starts one again, in tens of ms). */
  idleTimeoutMs: number;
  /** The worker entry (compiled JavaScript). */
  filename: string;
  logger: Logger | undefined;
}

export const DEFAULT_COMPARISON_POOL_OPTIONS = Object.freeze({
  threads: 1,
  idleTimeoutMs: 60_000, // 1 min: a deploy's comparisons (one per consumer version) share a thread
  filename: path.resolve(__dirname, '../../workers/compare-task.js'),
  logger: undefined,
});

export class ComparisonPool {
  readonly #options: ComparisonPoolOptions;
  #piscina: Piscina<CompareTask, CompareTaskResult> | undefined;
  #closing: Promise<void> | undefined;
  /** Comparisons running, by `<old hash>><new hash>`. */
  readonly #running = new Map<string, Promise<BreakingChangeRecord[]>>();

  constructor(options: Partial<ComparisonPoolOptions> = {}) {
    const merged: ComparisonPoolOptions = { ...DEFAULT_COMPARISON_POOL_OPTIONS, ...options };
    for (const name of ['threads', 'idleTimeoutMs'] as const) {
      if (!Number.isSafeInteger(merged[name]) || merged[name] < 1) throw new TypeError(`options.${name} must be a positive integer`);
    }
    this.#options = merged;
  }

  /** The live comparison threads (none until the first comparison, and again once idle). */
  get workers(): readonly Worker[] {
    return this.#piscina?.threads ?? [];
  }

  /**
   * The breaking changes from `oldDocument` to `newDocument`. Rejects with the engine's SvcError
   * (LIMIT_EXCEEDED), or UNAVAILABLE when the thread running it stopped or the pool is closed.
   */
  compare(oldDocument: ComparedDocument, newDocument: ComparedDocument): Promise<BreakingChangeRecord[]> {
    if (this.#closing) return Promise.reject(unavailable('the comparison pool is closed'));
    const key = `${oldDocument.hash}>${newDocument.hash}`;
    let running = this.#running.get(key);
    if (!running) {
      running = this.#run({ oldDocumentJson: oldDocument.documentJson, newDocumentJson: newDocument.documentJson });
      this.#running.set(key, running);
      const forget = () => this.#running.delete(key);
      running.then(forget, forget);
    }
    return running;
  }

  /** Stops the threads; comparisons still running fail with UNAVAILABLE. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#piscina?.destroy() ?? Promise.resolve();
    return this.#closing;
  }

  async #run(task: CompareTask): Promise<BreakingChangeRecord[]> {
    let result: CompareTaskResult;
    try {
      result = await this.#threads().run(task);
    } catch (error) {
      throw this.#closing
        ? unavailable('the comparison pool is closed')
        : unavailable(`the comparison worker stopped (${errorMessage(error)}); the schemas were not compared, retry`);
    }
    if (!result.ok) throw new SvcError(result.code, result.message);
    return result.changes;
  }

  #threads(): Piscina<CompareTask, CompareTaskResult> {
    if (this.#piscina) return this.#piscina;
    const { threads, idleTimeoutMs, filename, logger } = this.#options;
    const piscina = new Piscina<CompareTask, CompareTaskResult>({
      filename,
      minThreads: 0,
      maxThreads: threads,
      // A comparison is long and CPU-bound: a second one on the same thread would only wait.
      concurrentTasksPerWorker: 1,
      idleTimeout: idleTimeoutMs,
      recordTiming: false,
    });
    // Without a listener an 'error' event (a thread failing while idle) would end the process.
    piscina.on('error', (error: unknown) => logger?.error({ caller: 'comparison-pool', err: error }, 'comparison worker failed'));
    this.#piscina = piscina;
    return piscina;
  }
}

function unavailable(message: string): SvcError {
  return new SvcError(ErrorCode.UNAVAILABLE, message);
}
