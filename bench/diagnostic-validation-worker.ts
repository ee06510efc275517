/**
 * The validation worker entry with timestamps, used by bench servers started with diagnostics
 * (bench/server-diagnostics.ts): runs the real batch function and adds when the batch started and
 * ended in this thread, and the garbage collection this thread did since its previous batch.
 * Times are epoch milliseconds (timeOrigin + now), comparable across threads.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { runValidationBatch } from '../src/workers/validation-worker';
import type { BatchResult, ValidationBatch } from '../src/shared/pool-protocol/batches';

export interface WorkerBatchTiming {
  startedAt: number;
  endedAt: number;
  /** Garbage collection in this thread since the previous batch answered. */
  gcCount: number;
  gcMs: number;
  gcMaxMs: number;
}

let gc = { count: 0, ms: 0, maxMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gc.count++;
    gc.ms += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

/** Started on a turn of its own, as the real entry is. */
export default async function runTimedValidationBatchNextTurn(batch: ValidationBatch): Promise<BatchResult & { timing: WorkerBatchTiming }> {
  await nextTurn();
  return runTimedValidationBatch(batch);
}

function runTimedValidationBatch(batch: ValidationBatch): BatchResult & { timing: WorkerBatchTiming } {
  const startedAt = performance.timeOrigin + performance.now();
  const result = runValidationBatch(batch);
  const endedAt = performance.timeOrigin + performance.now();
  const timing = { startedAt, endedAt, gcCount: gc.count, gcMs: gc.ms, gcMaxMs: gc.maxMs };
  gc = { count: 0, ms: 0, maxMs: 0 };
  return Object.assign(result, { timing });
}
