/**
 * Runs the built `svc` command line the two ways the CLI tests need: as a real child process
 * (`node bin/svc.js ...` from the repository root, what CI pipelines run) and in-process with
 * in-memory streams (for option matrices, where a process per case would make the suite slow).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main';
import { REPO_ROOT, fixturePath } from '../helpers/paths';

export interface SvcResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const SVC_BIN = path.join(REPO_ROOT, 'bin', 'svc.js');

export function cliFixture(name: string): string {
  return fixturePath('cli', name);
}

/** The process environment without variables that would change the CLI's behaviour under test. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.SVC_API_KEY;
  return { ...env, ...extra };
}

/** `node bin/svc.js <args>`; killed (and the test failed by the caller's asserts) after `timeoutMs`. */
export function runSvc(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<SvcResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: cleanEnv(options.env ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The same command line through runCli in this process, with in-memory streams and no colours. */
export async function runSvcInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<SvcResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const code = await runCli(args, { env, stdin: process.stdin, stdout, stderr, colorDepth: 1 });
  await new Promise((resolve) => setImmediate(resolve)); // let the streams deliver what was written
  return { code, stdout: out, stderr: err };
}

/** Non-empty lines of a stream's text. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** A loopback port nothing listens on (taken and released at once). */
export async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
