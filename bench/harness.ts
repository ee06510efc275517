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

/** Latency percentiles of calls started at a fixed rate (open loop), for `durationMs` at most. */
export async function measureLatencyAtRate(
  call: (i: number) => Promise<unknown>,
  ratePerSecond: number,
  durationMs: number,
): Promise<{ p50Ms: number; p99Ms: number; calls: number }> {
  const latencies: number[] = [];
  const total = Math.max(1, Math.floor((ratePerSecond * durationMs) / 1000));
  const intervalMs = 1000 / ratePerSecond;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    pending.push(call(i).then(() => { latencies.push(performance.now() - sent); }));
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return { p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), calls: latencies.length };
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

export function machineNote(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.availableParallelism()} cores (${cpu}), Node ${process.versions.node}`;
}
