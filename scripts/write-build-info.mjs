#!/usr/bin/env node
// Records the version, commit and build time printed by `svc version` (dist/build-info.json).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
let commit = process.env.SVC_COMMIT ?? '';
if (!commit) {
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString().trim();
  } catch {
    commit = 'unknown';
  }
}
mkdirSync(`${root}dist`, { recursive: true });
writeFileSync(`${root}dist/build-info.json`, `${JSON.stringify({ version, commit, built: new Date().toISOString() }, null, 2)}\n`);
