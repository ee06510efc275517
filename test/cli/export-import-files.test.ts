/**
 * svc export and svc import name what they cannot read or write, in one line, before touching a
 * store: a missing output folder or archive file ended in a Node.js stack trace (an unhandled
 * 'error' event), and export from a data folder with no registry created an empty database and
 * reported an empty backup as a success.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../helpers/server';
import { runSvc } from './run-svc';

test('export to a folder that is not there: one line, exit 1, no store created', async () => {
  const dataDir = makeTempDir('svc-export-');
  const result = await runSvc(['export', '--data-dir', dataDir, '--output', path.join(dataDir, 'missing', 'registry.jsonl')]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^svc export: cannot write archive file ".*registry\.jsonl": no such file\n$/);
  assert.deepEqual(fs.readdirSync(dataDir), []);
});

test('export from a data folder with no registry: one line, exit 1, nothing created there', async () => {
  const dataDir = makeTempDir('svc-export-');
  const archive = path.join(dataDir, 'registry.jsonl');
  const result = await runSvc(['export', '--data-dir', path.join(dataDir, 'typo'), '--output', archive]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^svc export: no registry in ".*typo": svc\.sqlite is not there \(give the data folder of the server with --data-dir\)\n$/);
  assert.equal(fs.existsSync(path.join(dataDir, 'typo')), false, 'no empty database was made');
});

test('import of an archive that is not there: one line, exit 1, no store created', async () => {
  const dataDir = makeTempDir('svc-import-');
  const result = await runSvc(['import', path.join(dataDir, 'nope.jsonl'), '--data-dir', path.join(dataDir, 'store')]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^svc import: cannot read archive file ".*nope\.jsonl": no such file\n$/);
  assert.equal(fs.existsSync(path.join(dataDir, 'store')), false);
});
