/**
 * `npm run bench [-- suite ...]`: runs the named suites (all by default) one after another,
 * progress on stderr, a results table on stdout, everything as JSON in bench/results/latest.json.
 * Each suite measures us and the peer or floor we compare with in the same run, so every figure
 * that matters is a ratio; goals are reported, not asserted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { coldStartSuite } from './cold-start';
import { compareSuite } from './compare';
import { corpusSuite } from './corpus-intake';
import { e2eSuite } from './e2e';
import { engineSuite } from './engine';
import { fixturesSuite } from './fixtures';
import { latencyTailSuite } from './latency-tail';
import { middlewareSuite } from './middleware';
import { noisyNeighbourSuite } from './noisy-neighbour';
import { outsideCheckSuite } from './outside-check';
import { REPO_ROOT, createProgress, type BenchSuite, type SuiteResult } from './harness';
import { poolScalingSuite } from './pool-scaling';
import { postgresSuite } from './postgres';
import { schemaMixSuite } from './schema-mix';
import { recordingSuite } from './recording';
import { streamSuite } from './stream';
import { formatTable } from './table';

/** Every suite, in the order `npm run bench` runs them. */
export const BENCH_SUITES: readonly BenchSuite[] = [
  engineSuite,
  e2eSuite,
  outsideCheckSuite,
  streamSuite,
  latencyTailSuite,
  schemaMixSuite,
  noisyNeighbourSuite,
  coldStartSuite,
  poolScalingSuite,
  compareSuite,
  fixturesSuite,
  middlewareSuite,
  postgresSuite,
  corpusSuite,
  recordingSuite,
];

const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'latest.json');

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`usage: npm run bench [-- suite ...]\n\nsuites:\n${BENCH_SUITES.map((s) => `  ${s.name.padEnd(16)} ${s.onDemand ? '(when named) ' : ''}${s.description}`).join('\n')}\n`);
    return 0;
  }
  const unknown = argv.filter((name) => !BENCH_SUITES.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown suite ${unknown.join(', ')}; suites: ${BENCH_SUITES.map((s) => s.name).join(', ')}\n`);
    return 2;
  }
  const selected = argv.length === 0 ? BENCH_SUITES.filter((suite) => !suite.onDemand) : BENCH_SUITES.filter((suite) => argv.includes(suite.name));
  const results: SuiteResult[] = [];
  const failures: Array<{ suite: string; error: string }> = [];
  for (const suite of selected) {
    const progress = createProgress(suite.name);
    progress(`start: ${suite.description}`);
    const started = performance.now();
    try {
      results.push(await suite.run(progress));
      progress(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      const message = (error as Error).stack ?? String(error);
      failures.push({ suite: suite.name, error: message });
      progress(`FAILED: ${message}`);
    }
  }
  process.stdout.write(`${formatTable(results)}\n`);
  for (const result of results) for (const note of result.notes) process.stdout.write(`  ${result.suite}: ${note}\n`);
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify({
    finishedAt: new Date().toISOString(),
    machine: { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model, node: process.versions.node, platform: `${os.platform()} ${os.release()}` },
    suites: results,
    failures,
  }, null, 2)}\n`);
  process.stderr.write(`results written to ${path.relative(process.cwd(), RESULTS_FILE)}\n`);
  return failures.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
