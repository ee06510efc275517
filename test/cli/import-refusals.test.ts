/**
 * `svc import` into a real SQLite store refuses an archive it cannot import whole, names why, exits 1
 * and writes nothing: other content for a stored version when versions are immutable (the server's
 * --immutable-versions or SVC_IMMUTABLE_VERSIONS, which import ignored), and an archive edited by
 * hand. Standard input, or a pipe named as a file, read twice by the import's two passes, is kept in
 * a file meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/main';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { archiveOf, storeSchemaVersion } from '../helpers/registry-archive';
import { makeTempDir } from '../helpers/server';
import { runSvc } from './run-svc';

async function archiveFile(folder: string, name: string, title: string): Promise<string> {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0', { title });
  const file = path.join(folder, name);
  fs.writeFileSync(file, await archiveOf(source));
  return file;
}

test('with immutable versions, an archive that changes a stored version is refused: exit 1, the store as it was', async () => {
  const folder = makeTempDir('svc-import-');
  const dataDir = path.join(folder, 'data');
  const original = await archiveFile(folder, 'original.jsonl', 'Minimal');
  const changed = await archiveFile(folder, 'changed.jsonl', 'Changed');
  assert.equal((await runSvc(['import', original, '--data-dir', dataDir])).code, 0);
  const exportedBefore = path.join(folder, 'before.jsonl');
  assert.equal((await runSvc(['export', '--data-dir', dataDir, '-o', exportedBefore])).code, 0);

  for (const [args, env] of [[['--immutable-versions'], {}], [[], { SVC_IMMUTABLE_VERSIONS: 'true' }]] as const) {
    const refused = await runSvc(['import', changed, '--data-dir', dataDir, ...args], { env });
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^svc import: line 2: schema users version 1\.0\.0 is stored with other content \(hash [0-9a-f]{12}, in the archive [0-9a-f]{12}\) and versions are immutable \(--immutable-versions\); it cannot be replaced\nsvc import: nothing imported: 1 problem\(s\) in the archive\n$/);
  }
  const exportedAfter = path.join(folder, 'after.jsonl');
  assert.equal((await runSvc(['export', '--data-dir', dataDir, '-o', exportedAfter])).code, 0);
  const schemaLine = (file: string) => fs.readFileSync(file, 'utf8').split('\n')[1];
  assert.equal(schemaLine(exportedAfter), schemaLine(exportedBefore));

  // The same archive edited by hand (the version made read-only) is refused as edited.
  const edited = path.join(folder, 'edited.jsonl');
  fs.writeFileSync(edited, fs.readFileSync(changed, 'utf8').replace('"readOnly":false', '"readOnly":true'));
  const refused = await runSvc(['import', edited, '--data-dir', path.join(folder, 'empty')]);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /line 3: the lines do not match the sha256 of the end line .*: the archive was edited or damaged after it was exported\n/);
  fs.rmSync(folder, { recursive: true, force: true });
});

test('an archive on standard input imports, read twice from a file kept meanwhile', async () => {
  const folder = makeTempDir('svc-import-');
  const text = fs.readFileSync(await archiveFile(folder, 'a.jsonl', 'Minimal'), 'utf8');
  const outcomes: string[] = [];
  for (let i = 0; i < 2; i++) {
    const stdout = new PassThrough().setEncoding('utf8');
    const stderr = new PassThrough().setEncoding('utf8');
    const code = await runCli(['import', '-', '--data-dir', path.join(folder, 'data')], { env: {}, stdin: Readable.from([text]) as unknown as NodeJS.ReadStream, stdout, stderr, colorDepth: 1 });
    outcomes.push(`${code} ${String(stdout.read() ?? '').split(';')[0]}${String(stderr.read() ?? '')}`);
  }
  assert.deepEqual(outcomes, ['0 imported schema versions: 1 created, 0 updated, 0 unchanged', '0 imported schema versions: 0 created, 0 updated, 1 unchanged']);
  fs.rmSync(folder, { recursive: true, force: true });
});

test('an archive in a pipe named as a file (/dev/stdin, <(…), a FIFO) imports, kept in a file as standard input is', async () => {
  const folder = makeTempDir('svc-import-');
  const text = fs.readFileSync(await archiveFile(folder, 'a.jsonl', 'Minimal'), 'utf8');
  const fifo = path.join(folder, 'archive.pipe');
  execFileSync('mkfifo', [fifo]);
  const outcomes: string[] = [];
  for (let i = 0; i < 2; i++) {
    const run = runSvc(['import', fifo, '--data-dir', path.join(folder, 'data')]);
    await fs.promises.writeFile(fifo, text);
    const { code, stdout, stderr } = await run;
    outcomes.push(`${code} ${stdout.split(';')[0]}${stderr}`);
  }
  // It was read once and then found empty: "the archive file is shorter than when it was checked".
  assert.deepEqual(outcomes, ['0 imported schema versions: 1 created, 0 updated, 0 unchanged', '0 imported schema versions: 0 created, 0 updated, 1 unchanged']);
  fs.rmSync(folder, { recursive: true, force: true });
});
