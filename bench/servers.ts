/**
 * Starts bench servers as child processes (bench/server-process.ts) and gives every suite the same
 * grpc-js client, so a figure and its floor differ only in the server.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../src/shared/limits';
import { loadSvcProto } from '@svc/client/protocol';
import type { ContractValidatorClient } from '@svc/client/protocol';
import type { BenchInteraction } from './interactions';
import type { ServerDiagnostics } from './server-diagnostics';

export type ServerMode = 'svc' | 'noop';

export interface BenchServer {
  mode: ServerMode;
  /** host:port it listens on (loopback), for clients other than `client`. */
  address: string;
  client: ContractValidatorClient;
  /** Whether the server records diagnostics. */
  diagnosing: boolean;
  /** What the server recorded since the previous call (servers started with `diagnostics` only). */
  diagnostics(): Promise<ServerDiagnostics>;
  stop(): Promise<void>;
}

export interface BenchServerOptions {
  /** Worker threads of the svc server (its default when left out). */
  workerThreads?: number;
  /** Node.js/V8 flags for the server process (`--max-semi-space-size=32`), to compare runtime settings. */
  nodeOptions?: readonly string[];
  /** Record where the server's time goes (bench/server-diagnostics.ts); default: BENCH_DIAGNOSTICS=1 in the environment. */
  diagnostics?: boolean;
  /**
   * Each line the server writes on stdout besides its own (what `--trace-gc-nvp` prints, for one);
   * default: shown on stderr.
   */
  onOutputLine?: (line: string) => void;
}

/** `BENCH_DIAGNOSTICS=1 npm run bench -- <suite>`: every bench server records diagnostics, and suites that read them print them. */
export const DIAGNOSTICS_BY_DEFAULT = process.env.BENCH_DIAGNOSTICS === '1';

/**
 * `BENCH_SERVER_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench -- <suite>`: Node.js
 * flags for every bench server process, after a suite's own (NODE_OPTIONS refuses `--cpu-prof`, and
 * would reach the bench client too). With `--cpu-prof` each thread of a server writes its own profile.
 */
const EXTRA_SERVER_NODE_OPTIONS = (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter((option) => option !== '');

const START_TIMEOUT_MS = 30_000;
const DIAGNOSTICS_TIMEOUT_MS = 10_000;

export async function startBenchServer(
  mode: ServerMode,
  {
    workerThreads, nodeOptions = [], diagnostics = DIAGNOSTICS_BY_DEFAULT,
    onOutputLine = (line) => process.stderr.write(`[${mode} server stdout] ${line}\n`),
  }: BenchServerOptions = {},
): Promise<BenchServer> {
  const script = path.join(__dirname, 'server-process.js');
  const args = [...nodeOptions, ...EXTRA_SERVER_NODE_OPTIONS, script, mode, ...(workerThreads ? [String(workerThreads)] : []), ...(diagnostics ? ['--diagnostics'] : [])];
  // stdin stays open while this process lives: the server exits when it closes (a bench that crashed leaves no server behind).
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitingForDiagnostics: Array<(snapshot: ServerDiagnostics) => void> = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode} bench server did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    let buffered = '';
    // One JSON object per line: the port first, then diagnostics snapshots when asked for.
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const line = parseLine(text);
        if (line === undefined) {
          onOutputLine(text); // not ours: not parsed
          continue;
        }
        if (line.port !== undefined) {
          clearTimeout(timer);
          resolve(line.port);
        } else if (line.diagnostics) {
          waitingForDiagnostics.shift()?.(line.diagnostics);
        }
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${mode} bench server exited before listening`));
    });
  });
  const Client = loadSvcProto().proto.svc.ContractValidator;
  const address = `127.0.0.1:${port}`;
  const client = new Client(address, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
    'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
  });
  return {
    mode,
    address,
    client,
    diagnosing: diagnostics,
    diagnostics() {
      if (!diagnostics) return Promise.reject(new Error(`the ${mode} bench server was started without diagnostics`));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the ${mode} bench server sent no diagnostics within ${DIAGNOSTICS_TIMEOUT_MS} ms`)), DIAGNOSTICS_TIMEOUT_MS);
        waitingForDiagnostics.push((snapshot) => {
          clearTimeout(timer);
          resolve(snapshot);
        });
        child.kill('SIGUSR2');
      });
    },
    async stop() {
      client.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The svc server and the no-op floor, started at once. When one fails to start, the other is stopped
 * before the error is thrown: its process would otherwise keep the bench running after the suite failed.
 */
export async function startSvcAndFloor(options: BenchServerOptions = {}): Promise<[BenchServer, BenchServer]> {
  const [svc, noop] = await Promise.allSettled([startBenchServer('svc', options), startBenchServer('noop', options)]);
  if (svc.status === 'fulfilled' && noop.status === 'fulfilled') return [svc.value, noop.value];
  await Promise.all([svc, noop].map((started) => (started.status === 'fulfilled' ? started.value.stop() : undefined)));
  throw svc.status === 'rejected' ? svc.reason : (noop as PromiseRejectedResult).reason;
}

/** A one-line digest of a diagnostics snapshot, for suite notes. */
export function describeDiagnostics(d: ServerDiagnostics): string {
  const fixed = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(1));
  const parts = [
    `cpu ${d.cpuCores.toFixed(2)} cores`,
    `main loop delay p99 ${fixed(d.mainEventLoopDelayMs.p99)} max ${fixed(d.mainEventLoopDelayMs.max)} ms, busy ${(d.mainEventLoopUtilization * 100).toFixed(0)} %`,
    `main GC ${d.mainGc.count}× ${fixed(d.mainGc.totalMs)} ms (max ${fixed(d.mainGc.maxMs)}), promoted ${fixed(d.mainPromotedBytesPerSecond / 1e6)} MB/s`,
  ];
  if (d.pool) {
    const pool = d.pool;
    parts.push(
      `pool p50/p99 ${fixed(pool.callMs.p50)}/${fixed(pool.callMs.p99)} ms`,
      `${pool.batchItems.count} batches (${pool.compileBatches} compile), size p50 ${pool.batchItems.p50}`,
      `in worker p99 ${fixed(pool.inWorkerMs.p99)} ms, busy ${fixed(pool.inWorkerMs.sum)} ms`
        + (pool.inWorkerItems > 0 ? ` (${fixed((pool.inWorkerMs.sum * 1000) / pool.inWorkerItems)} µs a call, over ${pool.inWorkerItems} calls)` : ''),
      `hops p99 ${fixed(pool.toWorkerMs.p99)}/${fixed(pool.fromWorkerMs.p99)} ms`,
      `worker GC ${pool.workerGc.count}× ${fixed(pool.workerGc.totalMs)} ms`,
    );
  }
  return parts.join('; ');
}

function parseLine(text: string): { port?: number; diagnostics?: ServerDiagnostics } | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as { port?: number; diagnostics?: ServerDiagnostics };
  } catch {
    return undefined;
  }
}

/** Calls a unary operation; resolves with the response, rejects with the gRPC error. */
export function callUnary<R = any>(client: ContractValidatorClient, operation: string, request: object, deadlineMs = 60_000): Promise<R> {
  const fn = (client as unknown as Record<string, Function>)[operation]!;
  return new Promise((resolve, reject) => {
    fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (error: grpc.ServiceError | null, response: R) =>
      (error ? reject(error) : resolve(response)));
  });
}

export async function registerBenchSchema(server: BenchServer, schemaId: string, content: string, version = '1.0.0'): Promise<void> {
  const response = await callUnary(server.client, 'RegisterSchema', { schema_id: schemaId, schema_content: content, schema_version: version });
  if (!response.success) throw new Error(`RegisterSchema ${schemaId} failed: ${response.message}`);
}

/** An interaction of the fixed set as an InteractionRequest message. */
export function interactionRequest(schemaId: string, interaction: BenchInteraction, correlationId = ''): object {
  const { request, response } = interaction;
  return {
    schema_id: schemaId,
    correlation_id: correlationId,
    request: { method: request.method, path: request.path, headers: request.headers, body: request.body },
    response: { status_code: response.statusCode, headers: response.headers, body: response.body },
  };
}
