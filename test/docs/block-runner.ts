/**
 * Runs the examples of a documentation page against a real server (see markdown-blocks.ts for the
 * convention). Commands run the repository's own command line (`node bin/svc.js`, or $SVC_BIN):
 * `svc` and `npx svc` are bash functions that call it, with the documented default address
 * `localhost:9550` replaced by the test server's address (and added to the client commands that
 * rely on the default). Scripts run in a scratch folder where `docs/`, `test/` and `proto/` are the
 * repository's, so examples name repository files by the paths a reader of a checkout uses.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { createCli } from '../../src/cli/main';
import { REPO_ROOT } from '../helpers/paths';
import { consoleCommands, type FencedBlock } from './markdown-blocks';

/** The address examples are written against: the server's and the client's default. */
export const DOCUMENTED_ADDRESS = 'localhost:9550';
/** The metrics endpoint's documented address. */
export const DOCUMENTED_METRICS_ADDRESS = 'localhost:9551';
/** Longest a block may run (every command or script in it together). */
export const BLOCK_TIMEOUT_MS = 60_000;
/** Programs a command in a console or sh block may start; anything else must be marked `not run`. */
export const RUNNABLE_PROGRAMS: ReadonlySet<string> = new Set(['svc', 'npx', 'echo']);
/** Repository folders a scratch folder links to. */
const LINKED_FOLDERS = ['docs', 'test', 'proto'];

export const CONSOLE_LANGUAGES: ReadonlySet<string> = new Set(['console']);
export const SCRIPT_LANGUAGES: ReadonlySet<string> = new Set(['sh', 'bash', 'shell']);
export const JS_LANGUAGES: ReadonlySet<string> = new Set(['js', 'javascript']);
export const DATA_LANGUAGES: ReadonlySet<string> = new Set(['json', 'yaml']);
export const TEXT_LANGUAGES: ReadonlySet<string> = new Set(['text']);

/** The `svc` build examples run: $SVC_BIN when set (a path of a bin/svc.js), else this repository's. */
export function svcBin(): string {
  return process.env.SVC_BIN ? path.resolve(process.env.SVC_BIN) : path.join(REPO_ROOT, 'bin', 'svc.js');
}

/** Command paths (`can-i-deploy`, `schemas/list`) whose options include `--server`. */
export function clientCommandPaths(): string[] {
  return createCli()
    .definitions()
    .filter((definition) => definition.options.some((option) => /(^|,)--server\b/.test(option.definition)))
    .map((definition) => definition.path.split(' ').slice(1).join('/'));
}

export interface ExampleContext {
  /** host:port of the server the examples talk to. */
  address: string;
  /** host:port of its metrics endpoint. */
  metricsAddress: string;
  /** Scratch folder the examples run in. */
  workDir: string;
  clientCommands: readonly string[];
}

/** A scratch folder with the repository's docs/, test/ and proto/ linked in; removed by the caller. */
export function makeWorkDir(): string {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-docs-'));
  for (const folder of LINKED_FOLDERS) fs.symlinkSync(path.join(REPO_ROOT, folder), path.join(workDir, folder), 'dir');
  return workDir;
}

export async function runBlock(block: FencedBlock, context: ExampleContext): Promise<void> {
  if (CONSOLE_LANGUAGES.has(block.language)) return runConsoleBlock(block, context);
  if (SCRIPT_LANGUAGES.has(block.language)) return runScriptBlock(block, context);
  if (JS_LANGUAGES.has(block.language)) return runJsBlock(block, context);
  if (block.language === 'json') {
    assert.doesNotThrow(() => JSON.parse(block.content), `the json block does not parse`);
    return;
  }
  if (block.language === 'yaml') {
    assert.doesNotThrow(() => YAML.parse(block.content), `the yaml block does not parse`);
    return;
  }
  if (TEXT_LANGUAGES.has(block.language)) return;
  assert.fail(block.language === ''
    ? 'the block names no language: use console, sh, js, json, yaml or text, or mark it <!-- not run: reason -->'
    : `a "${block.language}" block cannot be run: mark it <!-- not run: reason -->`);
}

/** Every `$ ` command runs in one bash session, in order; its output (stdout and stderr as a terminal shows them) must match. */
async function runConsoleBlock(block: FencedBlock, context: ExampleContext): Promise<void> {
  const commands = consoleCommands(block.content);
  commands.forEach(({ command }) => assertRunnable(command));
  const token = randomUUID();
  // Markers around each command's output; `$?` is restored after each marker, so `echo $?` shows the command's status.
  const script = ['docs_status=0', ...commands.map(({ command }, index) => [
    `printf '%s\\n' '${token} start ${index}'`,
    '(exit "$docs_status")',
    command,
    'docs_status=$?',
    `printf '\\n%s %d\\n' '${token} exit' "$docs_status"`,
  ].join('\n'))].join('\n');
  const { output } = await runBash(script, context);
  const results = splitByCommand(output, token, commands.length);
  commands.forEach(({ command, expectedOutput }, index) => {
    const result = results[index];
    assert.ok(result, `\`${command}\` did not run to its end; the session printed:\n${output}`);
    const actual = normalise(result.output, context.address);
    const expected = normalise(expectedOutput.join('\n'), context.address);
    assert.ok(linesMatch(expected, actual), `\`${command}\` printed:\n${actual.join('\n')}\n\nbut the page shows:\n${expected.join('\n')}`);
    const next = commands[index + 1]?.command.trim();
    if (result.status !== 0 && next !== 'echo $?') {
      assert.fail(`\`${command}\` exited ${result.status}: a command that fails must be followed by \`$ echo $?\` showing its exit code`);
    }
  });
}

/** The lines of a sh block run as one script that stops at the first failure; their output is not compared. */
async function runScriptBlock(block: FencedBlock, context: ExampleContext): Promise<void> {
  for (const line of logicalLines(block.content)) assertRunnable(line);
  const { output, status } = await runBash(`set -e -o pipefail\n${block.content}`, context);
  assert.equal(status, 0, `the script failed (exit ${status}):\n${output}`);
}

/** A CommonJS script in the scratch folder, wrapped in an async function so that it may `await` at the top level. */
async function runJsBlock(block: FencedBlock, context: ExampleContext): Promise<void> {
  const file = path.join(context.workDir, `example-line-${block.line}.js`);
  const source = block.content.replaceAll(DOCUMENTED_ADDRESS, context.address).replaceAll(DOCUMENTED_METRICS_ADDRESS, context.metricsAddress);
  fs.writeFileSync(file, `(async () => {\n${source}})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`);
  const { output, status } = await runBash('node "$DOCS_EXAMPLE"', context, { DOCS_EXAMPLE: file, NODE_PATH: path.join(REPO_ROOT, 'node_modules') });
  assert.equal(status, 0, `the script failed (exit ${status}):\n${output}`);
}

/** `svc` and `npx svc` as bash functions: the repository's command line, pointed at the test server. */
const BASH_FUNCTIONS = [
  'svc() {',
  '  local args=() arg has_server=0',
  '  for arg in "$@"; do',
  '    arg="${arg//$DOCS_DOCUMENTED_ADDRESS/$DOCS_SVC_ADDRESS}"',
  '    arg="${arg//$DOCS_DOCUMENTED_METRICS_ADDRESS/$DOCS_METRICS_ADDRESS}"',
  '    case "$arg" in -S|--server|--server=*) has_server=1 ;; esac',
  '    args+=("$arg")',
  '  done',
  '  if [ "$has_server" = 0 ]; then',
  '    case " $DOCS_CLIENT_COMMANDS " in',
  '      *" ${args[0]:-} "*|*" ${args[0]:-}/${args[1]:-} "*) args+=(--server "$DOCS_SVC_ADDRESS") ;;',
  '    esac',
  '  fi',
  '  node "$DOCS_SVC_BIN" "${args[@]}"',
  '}',
  'npx() {',
  '  if [ "$1" = svc ]; then shift; svc "$@"; else echo "npx $1: only npx svc runs in documentation examples" >&2; return 127; fi',
  '}',
  'exec 2>&1',
].join('\n');

/** A bash script with the functions above; stdout and stderr in one stream (the order a terminal shows), killed after BLOCK_TIMEOUT_MS. */
function runBash(script: string, context: ExampleContext, extraEnv: NodeJS.ProcessEnv = {}): Promise<{ output: string; status: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${BASH_FUNCTIONS}\n${script}`], {
      cwd: context.workDir,
      env: exampleEnv({
        DOCS_DOCUMENTED_ADDRESS: DOCUMENTED_ADDRESS,
        DOCS_SVC_ADDRESS: context.address,
        DOCS_DOCUMENTED_METRICS_ADDRESS: DOCUMENTED_METRICS_ADDRESS,
        DOCS_METRICS_ADDRESS: context.metricsAddress,
        DOCS_SVC_BIN: svcBin(),
        DOCS_CLIENT_COMMANDS: context.clientCommands.join(' '),
        ...extraEnv,
      }),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true, // its own process group, so that a time-out ends every process it started
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    const timer = setTimeout(() => {
      try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    }, BLOCK_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ output, status: code ?? (signal === 'SIGKILL' ? 137 : 128) });
    });
  });
}

/** The test process's environment without what would change a command's behaviour (keys, test-runner context). */
function exampleEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { SVC_API_KEY: _key, NODE_TEST_CONTEXT: _context, NODE_OPTIONS: _options, ...env } = process.env;
  return { ...env, NO_COLOR: '1', ...extra };
}

function splitByCommand(output: string, token: string, count: number): Array<{ output: string; status: number }> {
  const results: Array<{ output: string; status: number }> = [];
  for (let index = 0; index < count; index += 1) {
    const start = output.indexOf(`${token} start ${index}\n`);
    const exit = new RegExp(`\\n${token} exit (\\d+)\\n`).exec(output.slice(start));
    if (start < 0 || !exit) break;
    const from = start + `${token} start ${index}\n`.length;
    results.push({ output: output.slice(from, start + exit.index), status: Number(exit[1]) });
  }
  return results;
}

/**
 * Output as compared: the server's address as documented, loopback ports, times and hashes as
 * placeholders (they change from run to run), trailing spaces and blank lines dropped.
 */
export function normalise(text: string, address: string): string[] {
  const lines = text
    .replaceAll(address, DOCUMENTED_ADDRESS)
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>')
    .replace(/\b[0-9a-f]{4,}…|\b[0-9a-f]{12,}\b/g, '<hash>')
    .split('\n')
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  return lines;
}

/** Line by line; an expected line `...` stands for any number of lines (none included). */
export function linesMatch(expected: readonly string[], actual: readonly string[]): boolean {
  const memo = new Map<string, boolean>();
  const match = (e: number, a: number): boolean => {
    const key = `${e},${a}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (e === expected.length) result = a === actual.length;
    else if (expected[e] === '...') result = match(e + 1, a) || (a < actual.length && match(e, a + 1));
    else result = a < actual.length && expected[e] === actual[a] && match(e + 1, a + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** The commands of a script: comments and blank lines dropped, continuation lines joined. */
function logicalLines(script: string): string[] {
  return script
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Every simple command in `line` starts a program examples may run, and none runs in the background. */
function assertRunnable(line: string): void {
  for (const segment of shellSegments(line)) {
    if (segment.background) assert.fail(`\`${line}\` starts a process in the background: mark the block <!-- not run: reason -->`);
    const words = segment.text.trim().replace(/^(?:[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|\S*)\s*)+/, '').split(/\s+/);
    const program = words[0] ?? '';
    if (program === '' || program.startsWith('#')) continue; // an assignment alone, or a comment
    if (!RUNNABLE_PROGRAMS.has(program) || (program === 'npx' && words[1] !== 'svc')) {
      assert.fail(`\`${line}\` runs \`${program}\`, which documentation examples do not run (only svc, npx svc and echo): mark the block <!-- not run: reason -->`);
    }
  }
}

/** The simple commands of a line, split at `&&`, `||`, `|`, `;` and `&` outside quotes. */
function shellSegments(line: string): Array<{ text: string; background: boolean }> {
  const segments: Array<{ text: string; background: boolean }> = [];
  let current = '';
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      current += char;
    } else if (char === '\'' || char === '"') {
      quote = char;
      current += char;
    } else if (char === '#' && (current === '' || /\s$/.test(current))) {
      break; // a comment to the end of the line
    } else if ('&|;'.includes(char)) {
      const doubled = line[index + 1] === char && char !== ';';
      segments.push({ text: current, background: char === '&' && !doubled });
      current = '';
      if (doubled) index += 1;
    } else {
      current += char;
    }
  }
  segments.push({ text: current, background: false });
  return segments;
}
