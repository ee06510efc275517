/**
 * compare: the breaking-change engine on GitHub Enterprise's REST description (ghes-3.17 → 3.18
 * and 3.18 → 3.19, about 1,000 operations and 11 MB each), and CanIDeploy over gRPC with 100
 * consumers across 10 environments.
 * - compareDocuments is timed alone (both documents loaded first), first run and median of the
 *   next ones; its floor is one JSON.stringify of both documents (a walk of every node, once).
 *   Goal: under 1 s.
 * - CanIDeploy: latencies of sequential calls from a client, one environment after another, after
 *   a first call (reported apart) has filled the comparison cache. Goal: p95 under 100 ms.
 */
import { compareDocuments } from '../src/shared/compare';
import { loadSchema } from '../src/shared/openapi/load-document';
import { listOperations } from '../src/shared/openapi/operations';
import type { OpenApiDocument } from '../src/shared/openapi/document';
import { corpusText, ensureCorpora } from './corpora';
import { ceilingRow, machineNote, percentile, ratioRow, type BenchRow, type BenchSuite, type Progress, type SuiteResult } from './harness';
import { callUnary, registerBenchSchema, startBenchServer } from './servers';

const COMPARE_GOAL_MS = 1_000;
const COMPARE_REPEATS = 5;
const PAIRS = Object.freeze([['3.17', '3.18'], ['3.18', '3.19']] as const);

const DEPLOY_GOAL_P95_MS = 100;
const DEPLOY_CONSUMERS = 100;
const DEPLOY_ENVIRONMENTS = 10;
const DEPLOY_ENDPOINTS_PER_CONSUMER = 8;
const DEPLOY_CALLS = 200;

export const compareSuite: BenchSuite = {
  name: 'compare',
  description: 'breaking changes: compareDocuments on GitHub Enterprise 3.17→3.18→3.19; CanIDeploy p95 with 100 consumers in 10 environments',
  run: (progress) => benchCompare(progress),
};

export async function benchCompare(progress: Progress = () => {}): Promise<SuiteResult> {
  ensureCorpora(progress);
  const rows: BenchRow[] = [];
  const notes = [machineNote()];
  const documents = new Map<string, OpenApiDocument>();
  const texts = new Map<string, string>();
  for (const version of new Set(PAIRS.flat())) {
    progress(`loading ghes-${version}`);
    const text = corpusText(`@octokit/openapi/generated/ghes-${version}.json`);
    texts.set(version, text);
    documents.set(version, (await loadSchema(text)).document);
  }

  for (const [from, to] of PAIRS) {
    const oldDocument = documents.get(from)!;
    const newDocument = documents.get(to)!;
    progress(`compareDocuments ghes-${from} → ghes-${to}`);
    const timings: number[] = [];
    let changes = 0;
    for (let run = 0; run <= COMPARE_REPEATS; run++) {
      const started = performance.now();
      changes = compareDocuments(oldDocument, newDocument).length;
      timings.push(performance.now() - started);
    }
    const [first, ...rest] = timings;
    const median = [...rest].sort((a, b) => a - b)[Math.floor(rest.length / 2)]!;
    const floor = measureWalkFloor(oldDocument, newDocument);
    rows.push(ceilingRow(`ghes-${from} → ${to}: compareDocuments, first run`, round(first!), 'ms', COMPARE_GOAL_MS));
    rows.push(ratioRow(`ghes-${from} → ${to}: compareDocuments, median of ${COMPARE_REPEATS}`, round(median), 'ms', { name: 'JSON.stringify of both', value: round(floor) }));
    notes.push(`ghes-${from} → ${to}: ${changes} breaking changes, ${listOperations(oldDocument).length} → ${listOperations(newDocument).length} operations`);
  }

  rows.push(...(await benchCanIDeploy(texts.get('3.17')!, texts.get('3.18')!, documents.get('3.17')!, progress)));
  notes.push(
    `CanIDeploy: ${DEPLOY_CONSUMERS} consumers (${DEPLOY_ENDPOINTS_PER_CONSUMER} endpoints each) in ${DEPLOY_ENVIRONMENTS} environments, ` +
    `half tested against 1.1.0 (the previous version) and half against 1.0.0 (an older copy of ghes-3.17, judged from its own version), ` +
    `deploying ghes-3.18 as 2.0.0; ${DEPLOY_CALLS} sequential calls over loopback gRPC to a server process`,
  );
  return { suite: 'compare', rows, notes };
}

function measureWalkFloor(oldDocument: OpenApiDocument, newDocument: OpenApiDocument): number {
  const started = performance.now();
  JSON.stringify(oldDocument);
  JSON.stringify(newDocument);
  return performance.now() - started;
}

async function benchCanIDeploy(oldText: string, newText: string, oldDocument: OpenApiDocument, progress: Progress): Promise<BenchRow[]> {
  progress('CanIDeploy: starting a server and registering ghes-3.17 (as 1.0.0 and 1.1.0) and ghes-3.18 (as 2.0.0)');
  const server = await startBenchServer('svc');
  try {
    // Two older versions so that half the consumers exercise the tested-version correction.
    await registerBenchSchema(server, 'ghes', oldText, '1.0.0');
    await registerBenchSchema(server, 'ghes', oldText, '1.1.0');
    await registerBenchSchema(server, 'ghes', newText, '2.0.0');
    const operations = listOperations(oldDocument);
    progress(`CanIDeploy: registering ${DEPLOY_CONSUMERS} consumers`);
    for (let i = 0; i < DEPLOY_CONSUMERS; i++) {
      const used = Array.from({ length: DEPLOY_ENDPOINTS_PER_CONSUMER }, (_, k) => operations[(i * 37 + k * 101) % operations.length]!);
      const response = await callUnary(server.client, 'RegisterConsumer', {
        consumer_id: `consumer-${i}`, consumer_version: '1.0.0', schema_id: 'ghes', schema_version: i % 2 === 0 ? '1.1.0' : '1.0.0',
        environment: `env-${i % DEPLOY_ENVIRONMENTS}`,
        used_endpoints: used.map(({ method, path }) => ({ method, path, used_fields: [] })),
      });
      if (!response.success) throw new Error(`RegisterConsumer failed: ${response.message}`);
    }
    const ask = (i: number) => callUnary(server.client, 'CanIDeploy', { schema_id: 'ghes', new_version: '2.0.0', environment: `env-${i % DEPLOY_ENVIRONMENTS}` });
    let started = performance.now();
    await ask(0);
    const firstMs = performance.now() - started;
    progress(`CanIDeploy: ${DEPLOY_CALLS} calls`);
    const latencies: number[] = [];
    for (let i = 0; i < DEPLOY_CALLS; i++) {
      started = performance.now();
      await ask(i);
      latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);
    return [
      ceilingRow('CanIDeploy p95 (100 consumers, 10 environments, ghes 11 MB)', round(percentile(latencies, 0.95)), 'ms', DEPLOY_GOAL_P95_MS),
      { name: 'CanIDeploy p50', value: round(percentile(latencies, 0.5)), unit: 'ms' },
      { name: 'CanIDeploy first call (comparisons not cached yet)', value: round(firstMs), unit: 'ms' },
    ];
  } finally {
    await server.stop();
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
