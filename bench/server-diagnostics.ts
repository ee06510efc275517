/**
 * Where a bench server's time goes, for the latency-tail suite: installed in a bench server process
 * started with `--diagnostics` (bench/server-process.ts). It records, between two snapshots:
 * - the main thread's event-loop delay (perf_hooks.monitorEventLoopDelay) and utilisation;
 * - garbage collection pauses on the main thread and in the validation workers ('gc' entries), and
 *   what the main thread's young-generation collections promoted to the old generation
 *   (v8.GCProfiler: the old space's growth across each scavenge). Objects that outlive a few
 *   scavenges fill the old generation and bring full collections, which hold every call;
  * - every call's time inside the validation pool (ValidationPool.validate to its answer);
 * - every batch's hops: main thread to worker start (the message hop, plus waiting behind the
 *   lane's other batch), the batch in the worker, and worker end back to the main thread (the
 *   return hop, plus however long the main thread was busy with something else);
 * - every unary call's time in its handler (grpc-js hands it over → its answer), on both servers:
 *   the client's latency minus this is what the calls spent outside the handlers (reading and
 *   writing, waiting for the event loop or for a core);
 * - the CPU the whole process used (every thread).
 * It wraps the pool's public entry points from outside, so the server runs its own code unchanged;
 * the workers run bench/diagnostic-validation-worker.ts, the real batch function with timestamps.
 */
import path from 'node:path';
import v8 from 'node:v8';
import { PerformanceObserver, constants, monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import Piscina from 'piscina';
import { ValidationPool } from '../src/main/validation-pool';
import type { ValidationBatch } from '../src/shared/pool-protocol/batches';
import type { WorkerBatchTiming } from './diagnostic-validation-worker';

/** A distribution in milliseconds (or items, for batch sizes). */
export interface Distribution {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  sum: number;
}

export interface ServerDiagnostics {
  /** Wall-clock milliseconds the snapshot covers. */
  windowMs: number;
  /** CPU time of the whole process (all threads) over the window, in cores (1 = one core busy). */
  cpuCores: number;
  mainEventLoopDelayMs: Omit<Distribution, 'sum'> & { mean: number };
  mainEventLoopUtilization: number;
  mainGc: GcSummary;
  /** Bytes per second the main thread's young-generation collections moved to the old generation. */
  mainPromotedBytesPerSecond: number;
  /** Unary calls, handler entry → its callback (both servers). */
  handlerMs: Distribution;
  /** Only when the process runs the validation pool. */
  pool?: {
    callMs: Distribution;
    /**
     * Validate() → the call's batch handed to a worker: waiting in the pool's queue. Calls are
     * matched to batches in arrival order, which is exact while one contract is validated and
     * compiles nothing (the latency-tail suite after its warm-up) and approximate otherwise.
     */
    queuedMs: Distribution;
    batchItems: Distribution;
    compileBatches: number;
    /** Main thread hands the batch over → the worker starts it. */
    toWorkerMs: Distribution;
    /** The batch in the worker. */
    inWorkerMs: Distribution;
    /** Calls in the batches inWorkerMs timed. */
    inWorkerItems: number;
    /** The worker ends the batch → the main thread has its answer. */
    fromWorkerMs: Distribution;
    workerGc: GcSummary;
  };
}

export interface GcSummary {
  count: number;
  totalMs: number;
  maxMs: number;
  /** Pauses of 5 ms or more. */
  over5Ms: number;
  /** Full (mark-sweep-compact) collections among them, and their time. */
  major?: { count: number; totalMs: number; maxMs: number };
}

const DIAGNOSTIC_WORKER = path.join(__dirname, 'diagnostic-validation-worker.js');
const LONG_GC_MS = 5;
/** The arrival list drops the entries already matched to batches once this many have piled up. */
const ARRIVALS_COMPACT_AT = 4096;

class Samples {
  #values: number[] = [];
  #sum = 0;
  add(value: number): void {
    this.#values.push(value);
    this.#sum += value;
  }
  summary(): Distribution {
    const sorted = this.#values.sort((a, b) => a - b);
    const at = (fraction: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!);
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: sorted[sorted.length - 1] ?? 0, sum: this.#sum };
  }
}

class GcTally {
  count = 0;
  totalMs = 0;
  maxMs = 0;
  over5Ms = 0;
  readonly major = { count: 0, totalMs: 0, maxMs: 0 };
  add(count: number, totalMs: number, maxMs: number, isMajor = false): void {
    this.count += count;
    this.totalMs += totalMs;
    this.maxMs = Math.max(this.maxMs, maxMs);
    if (maxMs >= LONG_GC_MS) this.over5Ms++;
    if (isMajor) {
      this.major.count += count;
      this.major.totalMs += totalMs;
      this.major.maxMs = Math.max(this.major.maxMs, maxMs);
    }
  }
  summary(): GcSummary {
    const major = { count: this.major.count, totalMs: round(this.major.totalMs), maxMs: round(this.major.maxMs) };
    return { count: this.count, totalMs: round(this.totalMs), maxMs: round(this.maxMs), over5Ms: this.over5Ms, major };
  }
}

interface Window {
  startedAt: number;
  gcProfiler: v8.GCProfiler;
  cpu: NodeJS.CpuUsage;
  elu: EventLoopUtilization;
  mainGc: GcTally;
  workerGc: GcTally;
  handlerMs: Samples;
  callMs: Samples;
  queuedMs: Samples;
  batchItems: Samples;
  compileBatches: number;
  toWorkerMs: Samples;
  inWorkerMs: Samples;
  inWorkerItems: number;
  fromWorkerMs: Samples;
}

/** Starts recording; `snapshot()` returns what was recorded since the previous snapshot and starts afresh. */
export function installServerDiagnostics(withPool: boolean): { snapshot(): ServerDiagnostics } {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const fresh = (): Window => ({
    startedAt: performance.now(), gcProfiler: startedGcProfiler(), cpu: process.cpuUsage(), elu: performance.eventLoopUtilization(),
    mainGc: new GcTally(), workerGc: new GcTally(), handlerMs: new Samples(), callMs: new Samples(), queuedMs: new Samples(), batchItems: new Samples(), compileBatches: 0,
    toWorkerMs: new Samples(), inWorkerMs: new Samples(), inWorkerItems: 0, fromWorkerMs: new Samples(),
  });
  let window = fresh();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.mainGc.add(1, entry.duration, entry.duration, (entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    }
  }).observe({ entryTypes: ['gc'] });
  instrumentUnaryHandlers(() => window);
  if (withPool) instrumentPool(() => window);
  return {
    snapshot() {
      const ended = window;
      const windowMs = performance.now() - ended.startedAt;
      const cpu = process.cpuUsage(ended.cpu);
      const ms = (ns: number) => round(ns / 1e6);
      const result: ServerDiagnostics = {
        windowMs: round(windowMs),
        cpuCores: round((cpu.user + cpu.system) / 1000 / windowMs),
        mainEventLoopDelayMs: {
          count: delay.count, p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), p999: ms(delay.percentile(99.9)),
          max: ms(delay.max), mean: ms(delay.mean),
        },
        mainEventLoopUtilization: round(performance.eventLoopUtilization(ended.elu).utilization),
        mainGc: ended.mainGc.summary(),
        mainPromotedBytesPerSecond: Math.round(promotedBytes(ended.gcProfiler) / (windowMs / 1000)),
        handlerMs: ended.handlerMs.summary(),
        ...(withPool ? {
          pool: {
            callMs: ended.callMs.summary(), queuedMs: ended.queuedMs.summary(), batchItems: ended.batchItems.summary(), compileBatches: ended.compileBatches,
            toWorkerMs: ended.toWorkerMs.summary(), inWorkerMs: ended.inWorkerMs.summary(), inWorkerItems: ended.inWorkerItems, fromWorkerMs: ended.fromWorkerMs.summary(),
            workerGc: ended.workerGc.summary(),
          },
        } : {}),
      };
      delay.reset();
      window = fresh();
      return result;
    },
  };
}

function startedGcProfiler(): v8.GCProfiler {
  const profiler = new v8.GCProfiler();
  profiler.start();
  return profiler;
}

type SpaceSizes = Array<{ spaceName: string; spaceUsedSize: number }>;
type GcStatistics = Array<{ gcType: string; beforeGC: { heapSpaceStatistics: SpaceSizes }; afterGC: { heapSpaceStatistics: SpaceSizes } }>;

/** Stops `profiler`; what its scavenges added to the old space. */
function promotedBytes(profiler: v8.GCProfiler): number {
  const { statistics } = profiler.stop() as unknown as { statistics: GcStatistics };
  const oldSpace = (spaces: SpaceSizes) => spaces.find((space) => space.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  let promoted = 0;
  for (const gc of statistics) {
    if (gc.gcType === 'Scavenge') promoted += Math.max(0, oldSpace(gc.afterGC.heapSpaceStatistics) - oldSpace(gc.beforeGC.heapSpaceStatistics));
  }
  return promoted;
}

/** Times every unary handler of every service added from now on, from its call to its callback. */
function instrumentUnaryHandlers(current: () => Window): void {
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function timedAddService(this: grpc.Server, service: grpc.ServiceDefinition, implementation: grpc.UntypedServiceImplementation) {
    const timed: grpc.UntypedServiceImplementation = { ...implementation };
    for (const [name, method] of Object.entries(service)) {
      const handler = implementation[name] ?? implementation[method.originalName ?? ''];
      if (method.requestStream || method.responseStream || typeof handler !== 'function') continue;
      const unary = handler as grpc.handleUnaryCall<unknown, unknown>;
      timed[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const started = performance.now();
        unary(call, (...answer: Parameters<grpc.sendUnaryData<unknown>>) => {
          current().handlerMs.add(performance.now() - started);
          callback(...answer);
        });
      };
    }
    return addService.call(this, service, timed);
  };
}

function instrumentPool(current: () => Window): void {
  /** Arrival times of the calls not yet in a batch, oldest first, since the window began. */
  const arrivals: number[] = [];
  let firstArrival = 0;
  // A call that starts a compile never travels in a shared batch, so its arrival would shift every
  // later match by one (a call interval too many, for good): the list starts afresh with each window,
  // which the suites take between rounds, with no call in flight.
  let arrivalsWindow: Window | undefined;
  const followWindow = (): void => {
    const window = current();
    if (window !== arrivalsWindow) {
      arrivalsWindow = window;
      arrivals.length = 0;
      firstArrival = 0;
    }
  };
  const validate = ValidationPool.prototype.validate;
  ValidationPool.prototype.validate = function timedValidate(this: ValidationPool, task) {
    const started = performance.now();
    followWindow();
    arrivals.push(started);
    const answer = validate.call(this, task);
    const record = () => current().callMs.add(performance.now() - started);
    answer.then(record, record);
    return answer;
  };
  const run = Piscina.prototype.run;
  Piscina.prototype.run = function timedRun(this: Piscina, task: unknown, options?: Parameters<Piscina['run']>[1]) {
    if (!isValidationBatch(task) || task.itemCount === 0) return run.call(this, task, options);
    const now = performance.now();
    const sentAt = performance.timeOrigin + now;
    if (!task.compile) {
      const window = current();
      followWindow();
      for (let i = 0; i < task.itemCount && firstArrival < arrivals.length; i++) window.queuedMs.add(now - arrivals[firstArrival++]!);
      if (firstArrival > ARRIVALS_COMPACT_AT) {
        arrivals.splice(0, firstArrival);
        firstArrival = 0;
      }
    }
    return run.call(this, task, { ...options, filename: DIAGNOSTIC_WORKER }).then((result: { timing?: WorkerBatchTiming }) => {
      const receivedAt = performance.timeOrigin + performance.now();
      const timing = result.timing;
      const window = current();
      window.batchItems.add(task.itemCount);
      if (task.compile) window.compileBatches++;
      if (timing) {
        window.toWorkerMs.add(timing.startedAt - sentAt);
        window.inWorkerMs.add(timing.endedAt - timing.startedAt);
        window.inWorkerItems += task.itemCount;
        window.fromWorkerMs.add(receivedAt - timing.endedAt);
        window.workerGc.add(timing.gcCount, timing.gcMs, timing.gcMaxMs);
      }
      return result;
    });
  } as Piscina['run'];
}

function isValidationBatch(task: unknown): task is ValidationBatch {
  return typeof task === 'object' && task !== null && 'itemCount' in task && 'contracts' in task && Array.isArray((task as ValidationBatch).contracts);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
