/**
 * Test servers on 127.0.0.1 with an ephemeral port: in-process (fast) or as a child process of the
 * built CLI (for restart, signal and crash tests); their client comes from test-client.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/main/logger';
import { SvcServer, type StartOptions } from '../../src/main/server';
import { REPO_ROOT } from './paths';
import { createTestClient, type TestClient } from './test-client';

export { createTestClient, type TestClient } from './test-client';

export interface TestServer {
  server: SvcServer;
  client: TestClient;
  address: string;
  close(): Promise<void>;
}

/** An in-process server with in-memory storage unless options say otherwise. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const server = await SvcServer.start({
    host: '127.0.0.1',
    port: 0,
    metricsHost: '127.0.0.1',
    metricsPort: 0,
    storage: 'memory',
    logger: createLogger('error'),
    env: {},
    ...options,
  });
  const address = `127.0.0.1:${server.port}`;
  const client = createTestClient(address);
  return {
    server,
    client,
    address,
    async close() {
      client.close();
      await server.close();
    },
  };
}

export function makeTempDir(prefix = 'svc-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A maker of temporary folders, all removed after the test file's tests: call it at the top of the file. */
export function tempDirsRemovedAfter(prefix: string): () => string {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = makeTempDir(prefix);
    dirs.push(dir);
    return dir;
  };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  metricsPort: number;
  address: string;
  /** Every stdout line so far (JSON log lines). */
  output: string[];
  /** Sends the signal and resolves with the exit code (or the signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** `svc serve` as a child process of the built CLI, on ephemeral ports; resolves once it listens. */
export async function spawnServerProcess(options: { dataDir?: string; storage?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ServerProcess> {
  const args = [path.join(REPO_ROOT, 'bin/svc.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--metrics-port', '0',
    ...(options.storage ? ['--storage', options.storage] : []),
    ...(options.dataDir ? ['--data-dir', options.dataDir] : []),
    ...(options.args ?? [])];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, LOG_LEVEL: 'info', SVC_METRICS_HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));

  const listening = await new Promise<{ port: number; metricsPort: number }>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`server did not start within 20 s; stderr: ${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        output.push(line);
        try {
          const entry = JSON.parse(line);
          if (entry.msg === 'svc server listening') {
            clearTimeout(timer);
            resolve({ port: entry.port, metricsPort: entry.metricsPort });
          }
        } catch {
          // not a JSON line
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening; stderr: ${stderr}`));
    });
  });
  return {
    child,
    ...listening,
    address: `127.0.0.1:${listening.port}`,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
