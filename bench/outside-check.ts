/**
 * outside-check: the e2e measures again, taken by a load generator that is not ours: ghz, a gRPC
 * load tool written in Go (https://ghz.sh), installed on first use with `go install` into
 * .cache/bin. The same two servers as e2e (svc and the no-op grpc-js floor, each in its own
 * process) and the same interaction; ghz sends unary calls with 64 in flight for throughput, and at a
 * fixed schedule (`--async --rps`: every call leaves when due, whatever the answers do) for latency.
 * Why a second client: e2e's sender keeps about one core busy (see measureLatencyAtRate), which on
 * a 2-core machine leaves the server one: the floor (one thread) needs no more, svc (a main thread
 * and its workers) does. Latency counts from each call's departure (ghz's own measure); the send lag
 * says how late departures were. Goals: e2e's (E2E_GOALS).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SERVICE_NAME } from '@svc/client/protocol';
import { PETSTORE } from './interactions';
import { describeRounds, E2E_GOALS, FLOOR, LATENCY_MS, LATENCY_RATE, latencyRows, ROUNDS, startPair, UNARY_CONCURRENCY } from './e2e';
import { ensureCorpora } from './corpora';
import { REPO_ROOT, latencyProfileOf, machineNote, median, ratioRow, type BenchSuite, type LatencyProfile, type Progress } from './harness';
import { interactionRequest, type BenchServer } from './servers';

/** The ghz release the suite installs; pinned, so that runs compare. */
const GHZ_MODULE = 'github.com/bojand/ghz/cmd/ghz@v0.120.0';
const GHZ_BIN_DIR = path.join(REPO_ROOT, '.cache', 'bin');
const PROTO_FILE = path.join(REPO_ROOT, 'proto', 'svc.proto');
const CALL = `${SERVICE_NAME}.ValidateInteraction`;

/** Calls per throughput round: about 2 s at the rates these servers reach on two cores. */
const THROUGHPUT_CALLS = 20_000;
/** Calls per latency round: e2e's round, LATENCY_MS at LATENCY_RATE. */
const LATENCY_CALLS = (LATENCY_RATE * LATENCY_MS) / 1000;
const WARMUP_CALLS = LATENCY_RATE;
/** How long one ghz run may take before the suite gives up on it. */
const GHZ_TIMEOUT_MS = 120_000;

/** What ghz's JSON report (`--format json`) holds that the suite reads. */
interface GhzReport {
  rps: number;
  statusCodeDistribution: Record<string, number>;
  errorDistribution?: Record<string, number>;
  /** One entry per call: when it left (RFC 3339, nanoseconds) and its latency (ns). */
  details: Array<{ timestamp: string; latency: number }>;
}

export const outsideCheckSuite: BenchSuite = {
  name: 'outside-check',
  description: `e2e's throughput and open-loop latency (${LATENCY_RATE} calls/s) taken by ghz, a gRPC load tool in Go (installed on first use with go install)`,
  onDemand: true,
  async run(progress) {
    ensureCorpora(progress);
    const ghz = ensureGhz(progress);
    const servers = await startPair(progress);
    try {
      const request = JSON.stringify(interactionRequest('petstore', PETSTORE.interactions[0]!));
      const run = (server: BenchServer, args: readonly string[]) => runGhz(ghz, [...args, '-d', request, server.address]);
      /** Every call leaves when due, whatever the answers do. */
      const openLoop = (calls: number) => ['--async', '--rps', String(LATENCY_RATE), '-n', String(calls)];
      const rates: Record<BenchServer['mode'], number[]> = { svc: [], noop: [] };
      const latency: Record<BenchServer['mode'], LatencyProfile[]> = { svc: [], noop: [] };
      for (const server of servers) {
        progress(`warm-up: ${server.mode}`);
        await run(server, openLoop(WARMUP_CALLS));
      }
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of servers) {
          progress(`round ${round}/${ROUNDS}: ${server.mode}, ${THROUGHPUT_CALLS} calls with ${UNARY_CONCURRENCY} in flight, then ${LATENCY_CALLS} at ${LATENCY_RATE} calls/s`);
          rates[server.mode].push((await run(server, ['-c', String(UNARY_CONCURRENCY), '-n', String(THROUGHPUT_CALLS)])).rps);
          latency[server.mode].push(latencyProfile(await run(server, openLoop(LATENCY_CALLS)), LATENCY_RATE));
        }
      }
      return {
        suite: 'outside-check',
        rows: [
          ratioRow(`ghz: unary calls/s, ${UNARY_CONCURRENCY} in flight`, median(rates.svc), 'calls/s', { name: FLOOR, value: median(rates.noop) }, E2E_GOALS.throughputRatio),
          ...latencyRows(`at ${LATENCY_RATE} calls/s (ghz)`, latency, FLOOR),
        ],
        notes: [
          `${machineNote()}; ghz ${GHZ_MODULE.split('@')[1]} and both servers are separate processes sharing these cores`,
          `interaction: ${PETSTORE.title}, "${PETSTORE.interactions[0]!.name}"; medians of ${ROUNDS} alternating rounds; latency from each call's departure (ghz --async sends on schedule; its lateness is the send lag)`,
          `throughput rounds: svc ${rates.svc.map(Math.round).join(', ')}; no-op ${rates.noop.map(Math.round).join(', ')} calls/s`,
          `latency rounds (p99/p99.9 ms): svc ${describeRounds(latency.svc)}; no-op ${describeRounds(latency.noop)}`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/** The pinned ghz in .cache/bin, built there with `go install` on first use. */
function ensureGhz(progress: Progress): string {
  const binary = path.join(GHZ_BIN_DIR, 'ghz');
  if (fs.existsSync(binary)) return binary;
  progress(`installing ${GHZ_MODULE} into .cache/bin (first run only; needs Go and the Go module proxy)`);
  fs.mkdirSync(GHZ_BIN_DIR, { recursive: true });
  const result = spawnSync('go', ['install', GHZ_MODULE], { stdio: ['ignore', 2, 2], env: { ...process.env, GOBIN: GHZ_BIN_DIR } });
  if (result.error) throw new Error(`the outside check needs Go to install ghz: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`go install ${GHZ_MODULE} failed (exit ${result.status ?? result.signal})`);
  return binary;
}

/** One ghz run against the ValidateInteraction call; every call must answer OK. */
async function runGhz(ghz: string, args: readonly string[]): Promise<GhzReport> {
  const child = spawn(ghz, ['--insecure', '--proto', PROTO_FILE, '--call', CALL, '--format', 'json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), GHZ_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`ghz ${args.join(' ')} exited ${code ?? 'on a signal'}: ${Buffer.concat(stderr).toString('utf8').trim()}`);
  const report = JSON.parse(Buffer.concat(stdout).toString('utf8')) as GhzReport;
  const failed = Object.entries(report.statusCodeDistribution).filter(([status]) => status !== 'OK');
  if (failed.length > 0) throw new Error(`ghz saw calls fail: ${JSON.stringify(report.errorDistribution ?? Object.fromEntries(failed))}`);
  return report;
}

/**
 * Percentiles of a run at a fixed rate; the send lag is how far each departure fell behind the
 * schedule that starts with the first (the i-th call was due i intervals after it).
 */
function latencyProfile(report: GhzReport, ratePerSecond: number): LatencyProfile {
  const departures = report.details.map((call) => departureMs(call.timestamp)).sort((a, b) => a - b);
  const intervalMs = 1000 / ratePerSecond;
  const lags = departures.map((at, i) => Math.max(0, at - (departures[0]! + i * intervalMs)));
  return latencyProfileOf(report.details.map((call) => call.latency / 1e6), lags);
}

/** Milliseconds of an RFC 3339 timestamp with up to nanoseconds (Date.parse keeps only milliseconds). */
function departureMs(timestamp: string): number {
  const fraction = /\.(\d+)/.exec(timestamp)?.[1] ?? '';
  const whole = Date.parse(timestamp.replace(/\.\d+/, ''));
  return whole + Number(`0.${fraction || '0'}`) * 1000;
}
