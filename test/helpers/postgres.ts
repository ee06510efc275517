/**
 * A throw-away PostgreSQL cluster for tests: `initdb` + `pg_ctl` in a temporary folder, on a free
 * loopback port, removed afterwards. PostgreSQL refuses to run as root, so under root the server
 * runs as a dedicated system user (created when missing). Without server binaries the suites that
 * need one skip, saying why (`POSTGRES_SKIP_REASON`).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian/Ubuntu packages put the server binaries; `SVC_TEST_POSTGRES_BIN` overrides. */
const BINARY_ROOT = '/usr/lib/postgresql';
/** The user the server runs as when the tests run as root. */
const SERVER_USER = 'postgres';
const SUPERUSER = 'svc';
const START_TIMEOUT_S = 30;

/** The folder holding initdb, pg_ctl and postgres, newest version first; undefined when none. */
export function findPostgresBinDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates: string[] = [];
  if (env.SVC_TEST_POSTGRES_BIN) candidates.push(env.SVC_TEST_POSTGRES_BIN);
  if (fs.existsSync(BINARY_ROOT)) {
    const versions = fs.readdirSync(BINARY_ROOT).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(BINARY_ROOT, version, 'bin')));
  }
  candidates.push(...(env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find((dir) => ['initdb', 'pg_ctl', 'postgres'].every((name) => fs.existsSync(path.join(dir, name))));
}

/** Why PostgreSQL tests skip on this machine, or false when they can run. */
export const POSTGRES_SKIP_REASON: string | false = findPostgresBinDir() === undefined
  ? `PostgreSQL server binaries (initdb, pg_ctl, postgres) not found under ${BINARY_ROOT}/*/bin, SVC_TEST_POSTGRES_BIN or PATH: install postgresql to run these tests`
  : false;

export interface PostgresCluster {
  port: number;
  /** URL of the `postgres` database as the superuser (no password: trust on loopback). */
  url: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Fast shutdown (active connections are cut), as an operator's restart would. */
  stop(): Promise<void>;
  /** Starts again on the same port with the same data. */
  start(): Promise<void>;
  /** SIGSTOP to the server and its processes: connections stay open and nothing answers, as a hung host. */
  pause(): void;
  /** SIGCONT after pause(); destroy() resumes too. */
  resume(): void;
  /** Stops the server and removes its folder; idempotent. */
  destroy(): Promise<void>;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const binDir = findPostgresBinDir();
  if (!binDir) throw new Error(POSTGRES_SKIP_REASON || 'no PostgreSQL binaries');
  const asUser = serverUserPrefix();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asUser.length > 0) execFileSync('chown', [SERVER_USER, dir]);
  const exec = (name: string, args: string[]) => {
    const [command, ...prefix] = [...asUser, path.join(binDir, name)];
    return run(command!, [...prefix, ...args], { timeout: START_TIMEOUT_S * 1000 });
  };
  await exec('initdb', ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync']);
  const port = await freePort();
  const serverOptions = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c full_page_writes=off', '-c max_connections=200'].join(' ');
  const start = () => exec('pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-o', serverOptions, '-w', '-t', String(START_TIMEOUT_S), 'start']);
  const stop = (mode: 'fast' | 'immediate') => exec('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);

  /** Processes stopped by pause(). */
  let paused: number[] = [];
  const signalServer = (signal: NodeJS.Signals, pids: number[]) => {
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // exited meanwhile
      }
    }
  };
  const resume = () => {
    signalServer('SIGCONT', paused);
    paused = [];
  };

  // A test process that dies must not leave a server behind.
  const stopOnExit = () => {
    resume();
    try {
      const [command, ...prefix] = [...asUser, path.join(binDir, 'pg_ctl')];
      execFileSync(command!, [...prefix, '-D', dataDir, '-m', 'immediate', 'stop'], { stdio: 'ignore' });
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);

  await start();
  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  let destroyed = false;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://${SUPERUSER}@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
    async stop() {
      await stop('fast');
    },
    pause() {
      const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)]).toString().trim().split(/\s+/).map(Number);
      paused = [postmaster, ...children];
      signalServer('SIGSTOP', paused);
    },
    resume,
    async start() {
      await start();
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      resume();
      process.off('exit', stopOnExit);
      await stop('immediate').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `runuser -u postgres --` under root (creating the user when missing); nothing otherwise. */
function serverUserPrefix(): string[] {
  if (process.getuid?.() !== 0) return [];
  try {
    execFileSync('id', ['-u', SERVER_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_USER], { stdio: 'ignore' });
  }
  return ['runuser', '-u', SERVER_USER, '--'];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
