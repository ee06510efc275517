/**
 * e2e: unary ValidateInteraction calls per second against the real server, and against a no-op
 * grpc-js server with the same proto, from the same client in the same run (each server in its
 * own process). The no-op server is the floor: the ratio says what validation costs on top of
 * gRPC. Then latency percentiles at a fixed rate well below saturation, for both.
 * Goal: ≥ 0.85× the no-op floor.
 */
import { corpusText, ensureCorpora } from './corpora';
import {
  machineNote, measureAsyncRate, measureLatencyAtRate, ratioRow, type BenchRow, type BenchSuite, type Progress,
} from './harness';
import { PETSTORE } from './interactions';
import { callUnary, interactionRequest, registerBenchSchema, startBenchServer, type BenchServer } from './servers';

export const UNARY_CONCURRENCY = 64;
/** Alternating rounds, best of each: the machine is shared, and noise only ever slows a round down. */
const ROUNDS = 3;
const MEASURE_MS = 2_500;
const WARMUP_MS = 500;
const LATENCY_MS = 2_000;
/** Latency is taken at this share of the slower server's throughput (and at most MAX_LATENCY_RATE). */
const LATENCY_LOAD_SHARE = 0.5;
const MAX_LATENCY_RATE = 2_000;
const GOAL_RATIO = 0.85;

export const e2eSuite: BenchSuite = {
  name: 'e2e',
  description: `unary ValidateInteraction calls/s vs a no-op grpc-js server (${UNARY_CONCURRENCY} in flight), p50/p99 at a fixed rate`,
  async run(progress) {
    ensureCorpora(progress);
    const servers = await startPair(progress);
    try {
      const [svc, noop] = servers;
      const request = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const call = (server: BenchServer) => () => callUnary(server.client, 'ValidateInteraction', request);
      const rates = { svc: 0, noop: 0 };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of [noop, svc]) {
          progress(`round ${round}/${ROUNDS}: ${server.mode}, ${MEASURE_MS / 1000} s of unary calls`);
          await measureAsyncRate(call(server), UNARY_CONCURRENCY, WARMUP_MS);
          rates[server.mode] = Math.max(rates[server.mode], await measureAsyncRate(call(server), UNARY_CONCURRENCY, MEASURE_MS));
        }
      }
      const rate = Math.min(MAX_LATENCY_RATE, Math.round(Math.min(rates.svc, rates.noop) * LATENCY_LOAD_SHARE));
      const latency = { svc: { p50Ms: Infinity, p99Ms: Infinity }, noop: { p50Ms: Infinity, p99Ms: Infinity } };
      for (let round = 1; round <= ROUNDS - 1; round++) {
        for (const server of [noop, svc]) {
          progress(`latency round ${round}/${ROUNDS - 1}: ${server.mode} at ${rate} calls/s`);
          const measured = await measureLatencyAtRate(call(server), rate, LATENCY_MS);
          latency[server.mode].p50Ms = Math.min(latency[server.mode].p50Ms, measured.p50Ms);
          latency[server.mode].p99Ms = Math.min(latency[server.mode].p99Ms, measured.p99Ms);
        }
      }
      const rows: BenchRow[] = [
        ratioRow(`unary calls/s, ${UNARY_CONCURRENCY} in flight`, rates.svc, 'calls/s', { name: 'no-op grpc-js', value: rates.noop }, GOAL_RATIO),
        ratioRow(`p50 latency at ${rate} calls/s`, latency.svc.p50Ms, 'ms', { name: 'no-op grpc-js', value: latency.noop.p50Ms }),
        ratioRow(`p99 latency at ${rate} calls/s`, latency.svc.p99Ms, 'ms', { name: 'no-op grpc-js', value: latency.noop.p99Ms }),
      ];
      return {
        suite: 'e2e',
        rows,
        notes: [
          `${machineNote()}; client and servers are separate processes sharing these cores`,
          `interaction: ${PETSTORE.title}, "${PETSTORE.interactions[0]!.name}" (request and response checked); the server uses its default worker threads`,
          `best of ${ROUNDS} alternating rounds for throughput, of ${ROUNDS - 1} for each latency percentile`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/** The real server (schema registered) and the no-op floor, both started; stopped by the caller. */
export async function startPair(progress: Progress): Promise<[BenchServer, BenchServer]> {
  progress('starting the svc server and the no-op server');
  const [svc, noop] = await Promise.all([startBenchServer('svc'), startBenchServer('noop')]);
  try {
    await registerBenchSchema(svc, 'petstore', corpusText(PETSTORE.corpusFile));
  } catch (error) {
    await Promise.all([svc.stop(), noop.stop()]);
    throw error;
  }
  return [svc, noop];
}
