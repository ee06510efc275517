/**
 * The svc server the conformance cases run against, started the way clients/conformance/README.md
 * says: `node bin/svc.js serve` of this repository (or the `bin/svc.js` named by SVC_BIN) on
 * 127.0.0.1 with ephemeral ports and in-memory storage; the port is read from the JSON log line
 * `svc server listening`.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';

export const SVC_SERVER_LIMITS = Object.freeze({
  /** How long a server may take to log that it listens. */
  startTimeoutMs: 20_000,
  /** How long a stopped server may take to exit before it is killed. */
  stopTimeoutMs: 5_000,
});

export interface SvcServerProcess {
  /** `127.0.0.1:<port>` */
  address: string;
  stop(): Promise<void>;
}

export function svcBinPath(): string {
  return process.env.SVC_BIN || path.join(REPO_ROOT, 'bin', 'svc.js');
}

export async function startSvcServer(options: { apiKeys?: readonly string[] } = {}): Promise<SvcServerProcess> {
  const args = [svcBinPath(), 'serve', '--host', '127.0.0.1', '--port', '0', '--metrics-port', '0', '--storage', 'memory'];
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', SVC_METRICS_HOST: '127.0.0.1' };
  delete env.SVC_API_KEYS;
  if (options.apiKeys) {
    args.push('--api-key-auth');
    env.SVC_API_KEYS = options.apiKeys.join(',');
  }
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), SVC_SERVER_LIMITS.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`svc server did not listen within ${SVC_SERVER_LIMITS.startTimeoutMs} ms; stderr: ${stderr}`)),
        SVC_SERVER_LIMITS.startTimeoutMs);
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const port = listeningPort(line);
          if (port !== undefined) {
            clearTimeout(timer);
            resolve(port);
          }
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`svc server (${args[0]}) exited before listening; stderr: ${stderr}`));
      });
    });
    // Keep reading stdout so that a chatty server never blocks on a full pipe.
    child.stdout.resume();
    return { address: `127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function listeningPort(line: string): number | undefined {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; port?: unknown };
    return entry.msg === 'svc server listening' && typeof entry.port === 'number' ? entry.port : undefined;
  } catch {
    return undefined;
  }
}

/** A loopback address where nothing listens: a port the system handed out, then closed again. */
export async function unusedLoopbackAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}
