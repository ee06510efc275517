/**
 * e2e: unary ValidateInteraction calls per second against the real server, and against a no-op
 * grpc-js server with the same proto, from the same client in the same run (each server in its
 * own process). The no-op server is the floor: the ratio says what validation costs on top of
 * gRPC. Then latency percentiles under an open-loop load (calls leave on a fixed schedule at
 * LATENCY_RATE, so a server that falls behind queues them and the queueing shows), for both.
 * Goals: ≥ 0.95× the floor's calls/s; p99 ≤ 1.5× the floor's p99 at the same rate; p99.9 ≤ 3×.
 * outside-check takes the same measures with a client of another kind (see measureLatencyAtRate).
 */
import { corpusText, ensureCorpora } from './corpora';
import {
  machineNote, measureAsyncRate, measureLatencyAtRate, median, ratioCeilingRow, ratioRow,
  type BenchRow, type BenchSuite, type LatencyProfile, type Progress,
} from './harness';
import { PETSTORE } from './interactions';
import { callUnary, interactionRequest, registerBenchSchema, startSvcAndFloor, type BenchServer } from './servers';

export const UNARY_CONCURRENCY = 64;
/** Alternating rounds, median of each: the machine is shared, and its load drifts over a run. */
export const ROUNDS = 5;
const MEASURE_MS = 2_500;
const WARMUP_MS = 500;
/** The open-loop rate of the latency rounds (calls/s), the same for both servers. */
export const LATENCY_RATE = 2_000;
/** Long enough for a p99.9 from 10 calls: 10,000 calls per round at LATENCY_RATE. */
export const LATENCY_MS = 5_000;
const LATENCY_ROUNDS = 5;
/** What every measure is compared with. */
export const FLOOR = 'no-op grpc-js';
export const E2E_GOALS = Object.freeze({ throughputRatio: 0.95, p99Ratio: 1.5, p999Ratio: 3 });

export const e2eSuite: BenchSuite = {
  name: 'e2e',
  description: `unary ValidateInteraction calls/s vs a no-op grpc-js server (${UNARY_CONCURRENCY} in flight); p50/p99/p99.9 open loop at ${LATENCY_RATE} calls/s`,
  async run(progress) {
    ensureCorpora(progress);
    const servers = await startPair(progress);
    try {
      const [svc, noop] = servers;
      const request = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const call = (server: BenchServer) => () => callUnary(server.client, 'ValidateInteraction', request);
      const rounds: Record<BenchServer['mode'], number[]> = { svc: [], noop: [] };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of [noop, svc]) {
          progress(`round ${round}/${ROUNDS}: ${server.mode}, ${MEASURE_MS / 1000} s of unary calls`);
          await measureAsyncRate(call(server), UNARY_CONCURRENCY, WARMUP_MS);
          rounds[server.mode].push(await measureAsyncRate(call(server), UNARY_CONCURRENCY, MEASURE_MS));
        }
      }
      const rates = { svc: median(rounds.svc), noop: median(rounds.noop) };
      const latency = await latencyRounds([svc, noop], (server) => call(server), progress);
      const rows: BenchRow[] = [
        ratioRow(`unary calls/s, ${UNARY_CONCURRENCY} in flight`, rates.svc, 'calls/s', { name: FLOOR, value: rates.noop }, E2E_GOALS.throughputRatio),
        ...latencyRows(`at ${LATENCY_RATE} calls/s`, latency, FLOOR),
      ];
      return {
        suite: 'e2e',
        rows,
        notes: [
          `${machineNote()}; client and servers are separate processes sharing these cores`,
          `interaction: ${PETSTORE.title}, "${PETSTORE.interactions[0]!.name}" (request and response checked); the server uses its default worker threads`,
          `throughput: median of ${ROUNDS} alternating rounds (svc ${rounds.svc.map(Math.round).join(', ')}; no-op ${rounds.noop.map(Math.round).join(', ')} calls/s); latency: open loop at ${LATENCY_RATE} calls/s, ${LATENCY_MS / 1000} s per round, `
            + `median of ${LATENCY_ROUNDS} alternating rounds, latency counted from each call's scheduled start`,
          `latency rounds: svc ${describeRounds(latency.svc)}; no-op ${describeRounds(latency.noop)}`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/** Latency profiles of both servers: LATENCY_ROUNDS alternating open-loop rounds at LATENCY_RATE, after a warm-up each. */
export async function latencyRounds(
  servers: readonly BenchServer[],
  callOf: (server: BenchServer) => (i: number) => Promise<unknown>,
  progress: Progress,
): Promise<Record<BenchServer['mode'], LatencyProfile[]>> {
  const rounds: Record<BenchServer['mode'], LatencyProfile[]> = { svc: [], noop: [] };
  for (const server of servers) await measureLatencyAtRate(callOf(server), LATENCY_RATE, WARMUP_MS);
  for (let round = 1; round <= LATENCY_ROUNDS; round++) {
    for (const server of servers) {
      progress(`latency round ${round}/${LATENCY_ROUNDS}: ${server.mode}, open loop at ${LATENCY_RATE} calls/s for ${LATENCY_MS / 1000} s`);
      rounds[server.mode].push(await measureLatencyAtRate(callOf(server), LATENCY_RATE, LATENCY_MS));
    }
  }
  return rounds;
}

/** p50, p99 and p99.9 of svc against the floor, each the median of its rounds. */
export function latencyRows(label: string, rounds: Record<BenchServer['mode'], LatencyProfile[]>, floor: string): BenchRow[] {
  const of = (mode: BenchServer['mode'], key: 'p50Ms' | 'p99Ms' | 'p999Ms') => median(rounds[mode].map((profile) => profile[key]));
  return [
    ratioCeilingRow(`p50 latency ${label}`, of('svc', 'p50Ms'), 'ms', { name: floor, value: of('noop', 'p50Ms') }),
    ratioCeilingRow(`p99 latency ${label}`, of('svc', 'p99Ms'), 'ms', { name: floor, value: of('noop', 'p99Ms') }, E2E_GOALS.p99Ratio),
    ratioCeilingRow(`p99.9 latency ${label}`, of('svc', 'p999Ms'), 'ms', { name: floor, value: of('noop', 'p999Ms') }, E2E_GOALS.p999Ratio),
  ];
}

/** Each round's p99 / p99.9 (ms) and the sender's lateness, so a reader sees the spread behind a median. */
export function describeRounds(profiles: readonly LatencyProfile[]): string {
  return profiles.map((p) => `${p.p99Ms.toFixed(1)}/${p.p999Ms.toFixed(1)} (send lag p99 ${p.sendLagP99Ms.toFixed(1)})`).join(', ');
}

/** The real server (schema registered) and the no-op floor, both started; stopped by the caller. */
export async function startPair(progress: Progress): Promise<[BenchServer, BenchServer]> {
  progress('starting the svc server and the no-op server');
  const [svc, noop] = await startSvcAndFloor();
  try {
    await registerBenchSchema(svc, 'petstore', corpusText(PETSTORE.corpusFile));
  } catch (error) {
    await Promise.all([svc.stop(), noop.stop()]);
    throw error;
  }
  return [svc, noop];
}
