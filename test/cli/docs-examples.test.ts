/**
 * Every example marked `<!-- runnable: exit N -->` in docs/cli.md runs as written, in document order,
 * in a folder holding the example files, against a real server whose address replaces
 * `localhost:9550`; each block must end with the exit code it is marked with.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { SVC_BIN, cliFixture } from './run-svc';

const DOC = path.join(REPO_ROOT, 'docs', 'cli.md');
/** Example file name → fixture it is a copy of. */
const EXAMPLE_FILES: Record<string, string> = {
  'users-v1.yaml': 'users-v1.yaml',
  'users-v2.json': 'users-v2.json',
  'orders-v1.yaml': 'orders-v1.yaml',
  'orders-v2.yaml': 'orders-v2.yaml',
  'interaction.json': 'interaction-valid.json',
  'svc-ignore.yaml': 'ignore-accepted.yaml',
};
const BLOCK_TIMEOUT_MS = 30_000;

interface RunnableBlock {
  exitCode: number;
  script: string;
  line: number;
}

function runnableBlocks(markdown: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  for (const match of markdown.matchAll(/<!-- runnable: exit (\d+) -->\n```sh\n([\s\S]*?)```/g)) {
    blocks.push({ exitCode: Number(match[1]), script: match[2]!, line: markdown.slice(0, match.index).split('\n').length });
  }
  return blocks;
}

let server: TestServer;
let dir: string;

before(async () => {
  server = await startTestServer();
  dir = makeTempDir('svc-docs-');
  for (const [name, fixture] of Object.entries(EXAMPLE_FILES)) fs.copyFileSync(cliFixture(fixture), path.join(dir, name));
  // The validate example asks for users 1.0.0 before the register-schema example registers it.
  const response = await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8') });
  assert.equal(response.success, true, response.message);
});

after(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function runBlock(script: string): Promise<{ code: number | null; output: string }> {
  const prelude = `set -e\nsvc() { "${process.execPath}" "${SVC_BIN}" "$@"; }\n`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', prelude + script.replaceAll('localhost:9550', server.address)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test('every runnable example of docs/cli.md ends with the exit code it is marked with', async () => {
  const blocks = runnableBlocks(fs.readFileSync(DOC, 'utf8'));
  assert.ok(blocks.length >= 10, `found ${blocks.length} runnable blocks`);
  for (const block of blocks) {
    const { code, output } = await runBlock(block.script);
    assert.equal(code, block.exitCode, `docs/cli.md line ${block.line}:\n${block.script}\n--- output ---\n${output}`);
  }
});
