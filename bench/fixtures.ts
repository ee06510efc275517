/**
 * fixtures: GenerateFixture's engine over every operation of the GitHub REST API description
 * (@octokit/openapi, about 1,200 operations, loaded once through the real intake). Each operation
 * is timed once cold (its first generation: the flat forms of its schemas are built and cached on
 * the document, as they are for the first GenerateFixture call on a registered schema), then
 * RUNS_PER_OPERATION times warm; the warm figure is the median of those, so one garbage-collection
 * pause does not pass for the operation's cost. Goal: every operation under 50 ms.
 */
import { errorMessage } from '../src/shared/errors';
import { generateFixture } from '../src/shared/fixture-generator';
import { loadSchema } from '../src/shared/openapi/load-document';
import { listOperations } from '../src/shared/openapi/operations';
import { corpusText, ensureCorpora } from './corpora';
import { ceilingRow, createProgress, machineNote, type BenchSuite, type Progress, type SuiteResult } from './harness';
import { GITHUB } from './interactions';

const RUNS_PER_OPERATION = 3;
const GOAL_MS = 50;

interface OperationTiming {
  operation: string;
  firstMs: number;
  medianMs: number;
  maxMs: number;
  bodyBytes: number;
}

export async function benchFixtures(progress: Progress = createProgress('fixtures')): Promise<SuiteResult> {
  ensureCorpora(progress);
  progress('loading the GitHub REST API description');
  const { document } = await loadSchema(corpusText(GITHUB.corpusFile));
  const operations = listOperations(document);
  progress(`generating fixtures for ${operations.length} operations, ${RUNS_PER_OPERATION} timed runs each`);

  const timings: OperationTiming[] = [];
  const refusals: string[] = [];
  for (const [index, { method, path }] of operations.entries()) {
    if (index > 0 && index % 200 === 0) progress(`${index}/${operations.length} operations`);
    const spec = { method, path };
    let bodyBytes = 0;
    const firstStarted = performance.now();
    try {
      const fixture = generateFixture(document, spec);
      bodyBytes = fixture.request.body.length + fixture.response.body.length;
    } catch (error) {
      refusals.push(`${method} ${path}: ${errorMessage(error)}`);
      continue;
    }
    const firstMs = performance.now() - firstStarted;
    const runs: number[] = [];
    for (let run = 0; run < RUNS_PER_OPERATION; run++) {
      const started = performance.now();
      generateFixture(document, spec);
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    timings.push({ operation: `${method} ${path}`, firstMs, medianMs: runs[Math.floor(runs.length / 2)]!, maxMs: runs.at(-1)!, bodyBytes });
  }

  const percentile = (values: number[], p: number) => values[Math.min(values.length - 1, Math.floor(p * values.length))]!;
  const first = timings.map((t) => t.firstMs).sort((a, b) => a - b);
  const slowestFirst = timings.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
  timings.sort((a, b) => a.medianMs - b.medianMs);
  const slowest = timings.at(-1)!;
  const warm = timings.map((t) => t.medianMs);
  const meanBytes = timings.reduce((sum, t) => sum + t.bodyBytes, 0) / timings.length;
  return {
    suite: 'fixtures',
    rows: [
      ceilingRow(`first generation, slowest operation (${slowestFirst.operation})`, slowestFirst.firstMs, 'ms', GOAL_MS),
      ceilingRow('first generation, p99 over operations', percentile(first, 0.99), 'ms', GOAL_MS),
      { name: 'first generation, p50 over operations', value: percentile(first, 0.5), unit: 'ms' },
      ceilingRow(`warm, slowest operation (${slowest.operation})`, slowest.medianMs, 'ms', GOAL_MS),
      { name: 'warm, p99 over operations', value: percentile(warm, 0.99), unit: 'ms' },
      { name: 'warm, p50 over operations', value: percentile(warm, 0.5), unit: 'ms' },
      { name: 'warm, slowest single run (GC pauses included)', value: Math.max(...timings.map((t) => t.maxMs)), unit: 'ms' },
    ],
    notes: [
      machineNote(),
      `${timings.length} of ${operations.length} operations generated (request and response, no examples); mean body size ${Math.round(meanBytes)} bytes`,
      `warm: the median of ${RUNS_PER_OPERATION} runs after the first; the 5 slowest: ${timings
        .slice(-5)
        .reverse()
        .map((t) => `${t.operation} ${t.medianMs.toFixed(1)} ms`)
        .join(', ')}`,
      ...(refusals.length > 0 ? [`refused (${refusals.length}): ${refusals.slice(0, 5).join(' | ')}`] : []),
    ],
  };
}

export const fixturesSuite: BenchSuite = {
  name: 'fixtures',
  description: 'GenerateFixture over every operation of the GitHub REST API description',
  run: benchFixtures,
};
