/**
 * A server for the end-to-end benches, in its own process so that the bench client and the server
 * do not share a thread: `node dist/bench/server-process.js svc|noop [workerThreads] [--diagnostics]`.
 * - svc: the real server (in-memory storage, no metrics port, errors-only logging);
 * - noop: grpc-js with the same proto, codecs and message limits, answering every validation with
 *   a fixed valid result: the floor no validation server on grpc-js can beat.
 * Prints `{"port":N}` on stdout once listening; exits on SIGTERM or when its stdin closes. With `--diagnostics` it records
 * where its time goes (bench/server-diagnostics.ts) and prints `{"diagnostics":{…}}` on stdout at
 * each SIGUSR2, covering the time since the previous one.
 */
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../src/shared/limits';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { SvcServer } from '../src/main/server';
import { createLogger } from '../src/main/logger';
import { installServerDiagnostics } from './server-diagnostics';

const NOOP_RESULT = Object.freeze({
  valid: true, errors: [], validated_against_version: '1.0.0', validated_against_hash: '0'.repeat(64),
});

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [mode, threads] = args.filter((arg) => !arg.startsWith('--'));
  if (args.includes('--diagnostics')) {
    const diagnostics = installServerDiagnostics(mode === 'svc');
    process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ diagnostics: diagnostics.snapshot() })}\n`));
  }
  let stop: () => Promise<void>;
  let port: number;
  if (mode === 'svc') {
    const server = await SvcServer.start({
      host: '127.0.0.1', port: 0, metricsPort: -1, storage: 'memory', logger: createLogger('error'), env: {},
      ...(threads ? { workerThreads: Number(threads) } : {}),
    });
    port = server.port;
    stop = () => server.close();
  } else if (mode === 'noop') {
    const server = startNoopServer();
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    stop = () => new Promise((resolve) => server.tryShutdown(() => resolve()));
  } else {
    throw new Error(`usage: server-process.js svc|noop [workerThreads] [--diagnostics] (got "${mode}")`);
  }
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
  // The bench holds our stdin open; when it ends, the bench is gone (it crashed or was killed).
  process.stdin.once('end', () => void stop().then(() => process.exit(0)));
  process.stdin.resume();
}

function startNoopServer(): grpc.Server {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
    'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
  });
  server.addService(contractValidatorDefinition(), {
    ValidateInteraction: (call: grpc.ServerUnaryCall<{ correlation_id: string }, unknown>, callback: grpc.sendUnaryData<unknown>) =>
      callback(null, { ...NOOP_RESULT, correlation_id: call.request.correlation_id }),
    ValidateInteractionStream: (call: grpc.ServerDuplexStream<{ correlation_id: string }, unknown>) => {
      call.on('data', (request) => call.write({ ...NOOP_RESULT, correlation_id: request.correlation_id }));
      call.on('end', () => call.end());
    },
  });
  return server;
}

main().catch((error: unknown) => {
  process.stderr.write(`server-process: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
