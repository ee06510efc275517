/**
 * What users install: the packed tarballs. The client package is small, holds no tests or
 * benchmarks, has no native module, installs into an empty project and works against a real server;
 * the server package holds its build and nothing of the repository's tests or benchmarks.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/paths';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { USERS_V1_YAML } from '../helpers/client-fixtures';

const run = promisify(execFile);
const CLIENT_DIR = path.join(REPO_ROOT, 'clients', 'node');
/** Bounds that a regression (a bundled dependency, tests in the tarball) would cross. */
const MAX_CLIENT_TARBALL_BYTES = 150 * 1024;
const MAX_SERVER_TARBALL_BYTES = 600 * 1024;
const NOT_SHIPPED = /(^|\/)(test|tests|bench|__tests__|fixtures)\/|\.test\.(js|ts)$|\.map$|\.tsbuildinfo$/;

interface PackedFile { path: string }
interface PackReport { filename: string; size: number; files: PackedFile[] }

async function pack(directory: string, destination?: string): Promise<PackReport> {
  // --ignore-scripts: the build already ran (npm test builds first); prepack would rebuild.
  const args = ['pack', '--json', '--ignore-scripts', ...(destination ? ['--pack-destination', destination] : ['--dry-run'])];
  const { stdout } = await run('npm', args, { cwd: directory, maxBuffer: 16 * 1024 * 1024 });
  return (JSON.parse(stdout) as PackReport[])[0]!;
}

let server: TestServer;
let workDir: string;
before(async () => {
  server = await startTestServer();
  workDir = makeTempDir('svc-pack-');
});
after(async () => {
  await server.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

test('the client tarball is small and holds the build, the proto file and nothing of tests or benchmarks', async () => {
  const report = await pack(CLIENT_DIR);
  const files = report.files.map((file) => file.path);
  assert.ok(report.size < MAX_CLIENT_TARBALL_BYTES, `${report.size} bytes`);
  for (const expected of ['package.json', 'README.md', 'proto/svc.proto', 'dist/index.js', 'dist/index.d.ts', 'dist/protocol/index.js']) {
    assert.ok(files.includes(expected), `${expected} is missing`);
  }
  assert.deepEqual(files.filter((file) => NOT_SHIPPED.test(file)), []);
  const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8'));
  assert.deepEqual(Object.keys(manifest.dependencies).sort(), ['@grpc/grpc-js', '@grpc/proto-loader']);
});

test('the server tarball holds the build and the CLI, not the tests, benchmarks or sources', async () => {
  const report = await pack(REPO_ROOT);
  const files = report.files.map((file) => file.path);
  assert.ok(report.size < MAX_SERVER_TARBALL_BYTES, `${report.size} bytes`);
  assert.ok(files.includes('bin/svc.js'));
  assert.ok(files.includes('dist/src/cli/main.js'));
  assert.ok(files.includes('dist/src/workers/validation-worker.js'));
  assert.deepEqual(files.filter((file) => NOT_SHIPPED.test(file) || file.startsWith('src/') || file.startsWith('clients/')), []);
});

test('the client installs into an empty project without native modules and works against a server', async () => {
  const tarballs = makeTempDir('svc-tarball-');
  try {
    const report = await pack(CLIENT_DIR, tarballs);
    const project = path.join(workDir, 'consumer-app');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(tarballs, report.filename)], {
      cwd: project,
      timeout: 120_000,
    });
    const installed = fs.readdirSync(path.join(project, 'node_modules'), { recursive: true }) as string[];
    assert.deepEqual(installed.filter((file) => file.endsWith('binding.gyp') || file.endsWith('.node')), [], 'no native module');
    const script = `
      const { ContractValidator } = require('@svc/client');
      (async () => {
        const validator = new ContractValidator(process.env.SVC_ADDRESS);
        await validator.registerSchema('packed-users', process.env.SCHEMA);
        const ok = await validator.validate({ method: 'GET', path: '/users/42' },
          { statusCode: 200, headers: { 'content-type': 'application/json' }, body: { id: 42, name: 'Ada', email: 'ada@example.com' } });
        const bad = await validator.validate({ method: 'GET', path: '/users/abc' }, { statusCode: 200, body: {} });
        validator.close();
        process.stdout.write(JSON.stringify({ ok: ok.valid, bad: bad.valid, errors: bad.errors.length }));
      })().catch((error) => { console.error(error); process.exit(1); });
    `;
    const { stdout } = await run(process.execPath, ['-e', script], {
      cwd: project,
      env: { ...process.env, SVC_ADDRESS: server.address, SCHEMA: USERS_V1_YAML },
      timeout: 30_000,
    });
    const answer = JSON.parse(stdout) as { ok: boolean; bad: boolean; errors: number };
    assert.equal(answer.bad, false);
    assert.ok(answer.errors > 0);
    assert.equal(answer.ok, true, stdout);
  } finally {
    fs.rmSync(tarballs, { recursive: true, force: true });
  }
});
