/**
 * latency-tail: where the latency tail of unary validation calls comes from. The same open-loop
 * load as e2e (LATENCY_RATE calls/s, petstore "get pet") against the svc server and the no-op
 * floor, both started with diagnostics (bench/server-diagnostics.ts), and the bench client's own
 * event loop and garbage collection watched too: every process here shares the same cores.
 * Per round it reports, beside the client-side percentiles, the time each call spent in the server's
 * handler, the server main thread's event-loop delay and garbage collection, the time calls spend in
 * the validation pool, each batch's hops (to the worker, in it, back), the workers' garbage
 * collection and the CPU each process used.
 * Figures only, no goals: this suite explains the e2e latency rows (docs/latency.md), and runs only
 * when named (`npm run bench -- latency-tail`).
 * The diagnostics wrap the pool and run the workers through a timing entry, which costs a little:
 * the e2e suite, without them, is the measure of record.
 */
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import { corpusText, ensureCorpora } from './corpora';
import { LATENCY_RATE } from './e2e';
import { machineNote, measureLatencyAtRate, median, type BenchRow, type BenchSuite, type LatencyProfile } from './harness';
import { PETSTORE } from './interactions';
import type { ServerDiagnostics } from './server-diagnostics';
import { callUnary, interactionRequest, registerBenchSchema, startSvcAndFloor, type BenchServer } from './servers';

const ROUNDS = 3;
const ROUND_MS = 5_000;
const WARMUP_MS = 1_000;

interface Round {
  client: LatencyProfile;
  clientDelayP99Ms: number;
  clientDelayMaxMs: number;
  clientGcMaxMs: number;
  /** Cores the bench client's process used (its sender's share: see measureLatencyAtRate). */
  clientCpuCores: number;
  server: ServerDiagnostics;
}

export const latencyTailSuite: BenchSuite = {
  name: 'latency-tail',
  description: `where the tail comes from: open loop at ${LATENCY_RATE} calls/s with event-loop, GC and pool-hop timings on both sides`,
  onDemand: true,
  async run(progress) {
    ensureCorpora(progress);
    progress('starting the svc server and the no-op server, with diagnostics');
    const servers = await startSvcAndFloor({ diagnostics: true });
    try {
      const [svc] = servers;
      await registerBenchSchema(svc, 'petstore', corpusText(PETSTORE.corpusFile));
      const request = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const callOf = (server: BenchServer) => () => callUnary(server.client, 'ValidateInteraction', request);
      const rounds: Record<BenchServer['mode'], Round[]> = { svc: [], noop: [] };
      for (const server of servers) await measureLatencyAtRate(callOf(server), LATENCY_RATE, WARMUP_MS);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of servers) {
          progress(`round ${round}/${ROUNDS}: ${server.mode}, open loop at ${LATENCY_RATE} calls/s for ${ROUND_MS / 1000} s`);
          rounds[server.mode].push(await observedRound(server, callOf(server)));
        }
      }
      return { suite: 'latency-tail', rows: [...rowsOf('svc', rounds.svc), ...rowsOf('no-op', rounds.noop)], notes: notesOf(rounds) };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/** One open-loop round with the client's event loop and GC watched, and the server's diagnostics for exactly that round. */
async function observedRound(server: BenchServer, call: () => Promise<unknown>): Promise<Round> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let clientGcMaxMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) clientGcMaxMs = Math.max(clientGcMaxMs, entry.duration);
  });
  await server.diagnostics(); // starts the server's window afresh
  delay.enable();
  gc.observe({ entryTypes: ['gc'] });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const client = await measureLatencyAtRate(call, LATENCY_RATE, ROUND_MS);
  const cpu = process.cpuUsage(cpuBefore);
  const clientCpuCores = (cpu.user + cpu.system) / 1000 / (performance.now() - started);
  delay.disable();
  gc.disconnect();
  const diagnostics = await server.diagnostics();
  return { client, clientDelayP99Ms: delay.percentile(99) / 1e6, clientDelayMaxMs: delay.max / 1e6, clientGcMaxMs, clientCpuCores, server: diagnostics };
}

function rowsOf(label: string, rounds: readonly Round[]): BenchRow[] {
  const row = (name: string, pick: (round: Round) => number | undefined, unit = 'ms'): BenchRow[] => {
    const values = rounds.map(pick).filter((value): value is number => value !== undefined);
    return values.length === 0 ? [] : [{ name: `${label}: ${name}`, value: median(values), unit }];
  };
  return [
    ...row('client-side p99', (r) => r.client.p99Ms),
    ...row('client-side p99.9', (r) => r.client.p999Ms),
    ...row('client event-loop delay p99', (r) => r.clientDelayP99Ms),
    ...row('client CPU (its process)', (r) => r.clientCpuCores, 'cores'),
    ...row('server main event-loop delay p99', (r) => r.server.mainEventLoopDelayMs.p99),
    ...row('server main event-loop delay max', (r) => r.server.mainEventLoopDelayMs.max),
    ...row('server main event-loop utilisation', (r) => r.server.mainEventLoopUtilization, 'share'),
    ...row('server main-thread GC pause max', (r) => r.server.mainGc.maxMs),
    ...row('server main-thread GC total', (r) => r.server.mainGc.totalMs),
    ...row('server main-thread full GCs', (r) => r.server.mainGc.major?.count, 'count'),
    ...row('server main-thread promoted to old generation', (r) => r.server.mainPromotedBytesPerSecond / 1e6, 'MB/s'),
    ...row('server CPU (all threads)', (r) => r.server.cpuCores, 'cores'),
    ...row('server handler time p99', (r) => r.server.handlerMs.p99),
    ...row('server handler time p99.9', (r) => r.server.handlerMs.p999),
    ...row('time in pool p50', (r) => r.server.pool?.callMs.p50),
    ...row('time in pool p99', (r) => r.server.pool?.callMs.p99),
    ...row('time in pool p99.9', (r) => r.server.pool?.callMs.p999),
    ...row('queued in pool before a batch p99', (r) => r.server.pool?.queuedMs.p99),
    ...row('batch size p50', (r) => r.server.pool?.batchItems.p50, 'calls'),
    ...row('hop to worker p99', (r) => r.server.pool?.toWorkerMs.p99),
    ...row('batch in worker p99', (r) => r.server.pool?.inWorkerMs.p99),
    ...row('hop back from worker p99', (r) => r.server.pool?.fromWorkerMs.p99),
    ...row('worker GC pause max', (r) => r.server.pool?.workerGc.maxMs),
  ];
}

function notesOf(rounds: Record<BenchServer['mode'], Round[]>): string[] {
  const describe = (round: Round) => JSON.stringify(round);
  return [
    `${machineNote()}; client, svc server (main thread + workers) and no-op server share these cores`,
    `medians of ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s; every round in full below (ms unless named)`,
    ...rounds.svc.map((round, i) => `svc round ${i + 1}: ${describe(round)}`),
    ...rounds.noop.map((round, i) => `no-op round ${i + 1}: ${describe(round)}`),
  ];
}
