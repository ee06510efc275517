/**
 * What every bench suite shares: the result shape (a figure, the peer or floor it is compared
 * with, the ratio, the goal), progress lines on stderr, and loops bounded in both count and time.
 */
import os from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export interface BenchRow {
  /** What was measured (`large: CompiledContract vs openapi-backend`). */
  name: string;
  value: number;
  unit: string;
  /** The peer or floor measured in the same run. */
  baseline?: { name: string; value: number };
  /** value / baseline.value, or the figure the goal is about. */
  ratio?: number;
  /** The goal, as text, and whether this run met it. */
  goal?: { text: string; met: boolean };
}

export interface SuiteResult {
  suite: string;
  rows: BenchRow[];
  /** Context a reader needs: machine limits, what the figure includes, why a goal is missed. */
  notes: string[];
}

export interface BenchSuite {
  name: string;
  description: string;
  /** Runs only when named (`npm run bench -- <name>`): a diagnostic, not a figure of the default run. */
  onDemand?: boolean;
  run(progress: Progress): Promise<SuiteResult>;
}

export type Progress = (message: string) => void;

export function createProgress(suite: string): Progress {
  const started = Date.now();
  return (message) => process.stderr.write(`[${suite} +${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
}

/** A row comparing `value` with a baseline, with a goal on the ratio (at least `minRatio`). */
export function ratioRow(name: string, value: number, unit: string, baseline: { name: string; value: number }, minRatio?: number): BenchRow {
  const ratio = baseline.value > 0 ? value / baseline.value : 0;
  return {
    name,
    value,
    unit,
    baseline,
    ratio,
    ...(minRatio === undefined ? {} : { goal: { text: `≥ ${minRatio}×`, met: ratio >= minRatio } }),
  };
}

/** A row with a goal on the value itself (at most `max`). */
export function ceilingRow(name: string, value: number, unit: string, max: number): BenchRow {
  return { name, value, unit, goal: { text: `≤ ${max} ${unit}`, met: value <= max } };
}

/**
 * Runs `step` (synchronous, one unit of work per call) for about `durationMs`, never more than
 * `maxIterations` times; returns units per second.
 */
export function measureSyncRate(step: (i: number) => void, durationMs: number, maxIterations = 10_000_000): number {
  const started = performance.now();
  const deadline = started + durationMs;
  let done = 0;
  // Check the clock every few iterations only: reading it costs as much as a small validation.
  while (done < maxIterations) {
    for (let i = 0; i < 16 && done < maxIterations; i++) step(done++);
    if (performance.now() >= deadline) break;
  }
  return (done * 1000) / (performance.now() - started);
}

/**
 * Keeps `concurrency` asynchronous calls in flight for about `durationMs` (at most
 * `maxCalls`); returns completed calls per second. A failed call fails the measurement.
 */
export async function measureAsyncRate(
  call: (i: number) => Promise<unknown>,
  concurrency: number,
  durationMs: number,
  maxCalls = 10_000_000,
): Promise<number> {
  const started = performance.now();
  const deadline = started + durationMs;
  let issued = 0;
  let completed = 0;
  const lane = async () => {
    while (issued < maxCalls && performance.now() < deadline) {
      await call(issued++);
      completed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return (completed * 1000) / (performance.now() - started);
}

export interface LatencyProfile {
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
  calls: number;
  /** The sender's own lateness (how far behind its schedule calls left), p99: a loaded client shows here. */
  sendLagP99Ms: number;
}

/**
 * Latency percentiles of calls started on a fixed schedule (open loop) for `durationMs`: calls
 * leave when they are due whatever the answers do, so a server that falls behind builds a queue
 * and the queueing shows. Each latency is counted from the moment the call was due, not from when
 * it left (a late sender would otherwise hide the wait: coordinated omission). A failed call fails
 * the measurement. A call due within a millisecond is waited for on setImmediate, since timers fire
 * milliseconds late on a busy machine: at 2,000 calls/s the sender keeps about one core busy.
 */
export async function measureLatencyAtRate(
  call: (i: number) => Promise<unknown>,
  ratePerSecond: number,
  durationMs: number,
): Promise<LatencyProfile> {
  const total = Math.max(1, Math.floor((ratePerSecond * durationMs) / 1000));
  const intervalMs = 1000 / ratePerSecond;
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let next = 0;
  while (next < total) {
    // Every call that is due leaves now; then sleep until the next one is due.
    const now = performance.now();
    while (next < total && started + next * intervalMs <= now) {
      const index = next++;
      const due = started + index * intervalMs;
      lags[index] = now - due;
      pending.push(call(index).then(() => { latencies[index] = performance.now() - due; }));
    }
    if (next < total) {
      const wait = started + next * intervalMs - performance.now();
      await new Promise((resolve) => (wait >= 1 ? setTimeout(resolve, wait) : setImmediate(resolve)));
    }
  }
  await Promise.all(pending);
  return latencyProfileOf(latencies, lags);
}

/** The profile of calls' latencies and their senders' lateness (ms, any order). */
export function latencyProfileOf(latencies: ArrayLike<number>, lags: ArrayLike<number>): LatencyProfile {
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const sortedLags = Array.from(lags).sort((a, b) => a - b);
  return {
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    p999Ms: percentile(sorted, 0.999),
    maxMs: sorted[sorted.length - 1]!,
    calls: sorted.length,
    sendLagP99Ms: percentile(sortedLags, 0.99),
  };
}

/** The median of a few figures (rounds of one measurement). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A row with a goal on its ratio to the baseline (at most `maxRatio`): for latencies, lower is better. */
export function ratioCeilingRow(name: string, value: number, unit: string, baseline: { name: string; value: number }, maxRatio?: number): BenchRow {
  const ratio = baseline.value > 0 ? value / baseline.value : Number.POSITIVE_INFINITY;
  return {
    name,
    value,
    unit,
    baseline,
    ratio,
    ...(maxRatio === undefined ? {} : { goal: { text: `≤ ${maxRatio}×`, met: ratio <= maxRatio } }),
  };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export function machineNote(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.availableParallelism()} cores (${cpu}), Node ${process.versions.node}`;
}
