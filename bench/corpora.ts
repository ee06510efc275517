/**
 * The large documents and the peer library the benches compare with. They are not dependencies
 * (GitHub's description alone is hundreds of MB unpacked): installed on first use into
 * .cache/corpora (ignored by git) and loaded from there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT, type Progress } from './harness';

const CORPORA_DIR = path.join(REPO_ROOT, '.cache', 'corpora');
const PACKAGES = Object.freeze(['@octokit/openapi@23.0.2', '@readme/oas-examples@8.2.2', 'openapi-backend@5.21.2']);

let installed = false;

/** Installs the corpora once when any of them is missing. */
export function ensureCorpora(progress: Progress): void {
  if (installed) return;
  const missing = PACKAGES.filter((spec) => !fs.existsSync(path.join(CORPORA_DIR, 'node_modules', packageName(spec), 'package.json')));
  if (missing.length > 0) {
    progress(`installing ${missing.join(', ')} into .cache/corpora (first run only)`);
    fs.mkdirSync(CORPORA_DIR, { recursive: true });
    const result = spawnSync('npm', ['install', '--prefix', CORPORA_DIR, '--no-save', ...PACKAGES], { stdio: ['ignore', 2, 2] });
    if (result.status !== 0) throw new Error(`npm install of the bench corpora failed (exit ${result.status ?? result.signal})`);
  }
  installed = true;
}

/** `require` rooted in .cache/corpora. */
export const corpusRequire = createRequire(path.join(CORPORA_DIR, 'node_modules', '.bench-require.js'));

/** A JSON file of an installed corpus package, as text (`@octokit/openapi/generated/api.github.com.json`). */
export function corpusText(request: string): string {
  return fs.readFileSync(corpusRequire.resolve(request), 'utf8');
}

function packageName(spec: string): string {
  return spec.slice(0, spec.lastIndexOf('@'));
}
