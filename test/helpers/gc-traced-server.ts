/**
 * A server in a process of its own, for tests that read its garbage collector's trace: run it as
 * `node --trace-gc-nvp dist/test/helpers/gc-traced-server.js`. Prints `{"port":N}` on stdout once
 * listening (the trace's lines follow on the same stdout); ends when its stdin closes.
 */
import { SvcServer } from '../../src/main/server';
import { createLogger } from '../../src/main/logger';

async function main(): Promise<void> {
  const server = await SvcServer.start({
    host: '127.0.0.1', port: 0, metricsPort: -1, storage: 'memory', logger: createLogger('error'), env: {}, workerThreads: 2,
  });
  process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`gc-traced-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
