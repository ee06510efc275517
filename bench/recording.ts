/**
 * recording: what evidence from traffic costs (docs/evidence.md), measured against the same thing
 * without it in the same run.
 * - The p50 latency recording adds to an app whose middleware validates in shadow mode: two node:http
 *   apps side by side, shadow with and without `recordInteractions`, the load (a worker thread, open
 *   loop at a fixed rate) visiting them in turn, latencies pooled per variant. Goal: under 5 % added.
 * - CanIDeploy with replay over 50 observed consumers × 20 recorded interactions each (20 distinct
 *   shapes, so 1,000 samples kept), against the same question with `skip_replay`. Goal: p95 ≤ 250 ms.
 * The svc server runs in its own process (bench/server-process.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractValidator, wrapHttpHandler, type ProducerValidationHandle } from '@svc/client';
import { ceilingRow, createProgress, machineNote, percentile, type BenchRow, type BenchSuite, type Progress, type SuiteResult } from './harness';
import { LoadGenerator } from './load-generator';
import { callUnary, registerBenchSchema, startBenchServer, type BenchServer } from './servers';

const SCHEMA_ID = 'items-api';
const RATE_PER_SECOND = 400;
const SLICE_MS = 400;
const CYCLES = 8;
const WARMUP_MS = 500;
const MAX_ADDED_SHARE = 0.05;
const CONSUMERS = 50;
const INTERACTIONS_PER_CONSUMER = 20;
/** Optional response fields; the subsets of them give the distinct shapes of each consumer's samples. */
const OPTIONAL_FIELDS = ['f0', 'f1', 'f2', 'f3', 'f4'];
const CAN_I_DEPLOY_CALLS = 40;
const CAN_I_DEPLOY_WARMUP = 3;
const MAX_CAN_I_DEPLOY_P95_MS = 250;
/** Longer than the server's usage flush interval (1 s): what was recorded is in the store. */
const SERVER_FLUSH_WAIT_MS = 1_500;

function itemsDocument(version: string, codePattern?: string): string {
  const item = {
    type: 'object',
    required: ['id', 'code'],
    properties: {
      id: { type: 'string' },
      code: { type: 'string', ...(codePattern ? { pattern: codePattern } : {}) },
      ...Object.fromEntries(OPTIONAL_FIELDS.map((field) => [field, { type: 'string' }])),
    },
  };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: SCHEMA_ID, version },
    paths: {
      '/items/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: item } } } },
        },
      },
    },
  });
}

const ITEM = JSON.stringify({ id: '42', code: 'abc', f0: 'x', f1: 'y' });

export async function benchRecording(progress: Progress = createProgress('recording')): Promise<SuiteResult> {
  progress('starting the svc server');
  const server = await startBenchServer('svc');
  const validator = new ContractValidator({ address: server.client.getChannel().getTarget(), schemaId: SCHEMA_ID });
  try {
    await registerBenchSchema(server, SCHEMA_ID, itemsDocument('1.0.0'), '1.0.0');
    const notes = [`${machineNote()}; the svc server is a separate process, the load a worker thread, all sharing these cores`];
    const rows = await benchMiddlewareRecording(validator, progress, notes);
    rows.push(...await benchReplay(server, validator, progress, notes));
    return { suite: 'recording', rows, notes };
  } finally {
    validator.close();
    await server.stop();
  }
}

async function benchMiddlewareRecording(validator: ContractValidator, progress: Progress, notes: string[]): Promise<BenchRow[]> {
  const handler = (_request: http.IncomingMessage, response: http.ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(ITEM);
  };
  // The third app is the first one again: the two give the noise floor (A/A).
  const variants = [
    { label: 'shadow', recordInteractions: false },
    { label: 'shadow + recording', recordInteractions: true },
    { label: 'shadow, A/A', recordInteractions: false },
  ];
  const apps = await Promise.all(variants.map(({ recordInteractions }) => {
    const wrapped = wrapHttpHandler(handler, { schemaId: SCHEMA_ID, validator, mode: 'shadow', recordInteractions: recordInteractions && { environment: 'bench' } });
    return serve(http.createServer(wrapped), wrapped);
  }));
  const load = new LoadGenerator(LOAD_WORKER_SOURCE, RATE_PER_SECOND);
  try {
    for (const app of apps) await load.run(app.url, WARMUP_MS);
    const latencies = variants.map(() => [] as number[]);
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      progress(`middleware: cycle ${cycle + 1}/${CYCLES}`);
      for (const [index, app] of apps.entries()) {
        const slice = await load.run(app.url, SLICE_MS);
        if (slice.errors > 0) throw new Error(`${variants[index]!.label}: ${slice.errors} requests failed`);
        latencies[index]!.push(...slice.latencies);
      }
    }
    for (const app of apps) await app.middleware.flush();
    const recording = apps[1]!.middleware.stats().recording;
    notes.push(`${RATE_PER_SECOND} requests/s of GET /items/42 to each app in turn, ${SLICE_MS} ms slices, ${CYCLES} cycles; recording: ${JSON.stringify(recording)}`);
    const sorted = latencies.map((values) => [...values].sort((a, b) => a - b));
    const baseline = { name: 'shadow without recording', value: percentile(sorted[0]!, 0.5) };
    const value = percentile(sorted[1]!, 0.5);
    const ratio = value / baseline.value;
    const floor = percentile(sorted[2]!, 0.5);
    return [
      { name: 'shadow without recording, A/A p50 (noise floor)', value: floor, unit: 'ms', baseline, ratio: floor / baseline.value },
      { name: 'shadow + recording: p50', value, unit: 'ms', baseline, ratio, goal: { text: `≤ ${1 + MAX_ADDED_SHARE}× (adds < ${MAX_ADDED_SHARE * 100} %)`, met: ratio <= 1 + MAX_ADDED_SHARE } },
      {
        name: 'shadow + recording: p99',
        value: percentile(sorted[1]!, 0.99),
        unit: 'ms',
        baseline: { name: 'shadow without recording', value: percentile(sorted[0]!, 0.99) },
        ratio: percentile(sorted[1]!, 0.99) / percentile(sorted[0]!, 0.99),
      },
    ];
  } finally {
    await load.close();
    await Promise.all(apps.map((app) => app.close()));
  }
}

async function benchReplay(server: BenchServer, validator: ContractValidator, progress: Progress, notes: string[]): Promise<BenchRow[]> {
  progress(`replay: recording ${CONSUMERS} consumers × ${INTERACTIONS_PER_CONSUMER} interactions`);
  const recording = validator.openRecording({ environment: 'prod', maxQueuedInteractions: CONSUMERS * INTERACTIONS_PER_CONSUMER });
  for (let consumer = 0; consumer < CONSUMERS; consumer++) {
    for (let shape = 0; shape < INTERACTIONS_PER_CONSUMER; shape++) {
      const body: Record<string, string> = { id: String(shape), code: consumer % 10 === 0 ? 'ABC' : 'abc' };
      OPTIONAL_FIELDS.forEach((field, bit) => {
        if (shape & (1 << bit)) body[field] = `${field}-${consumer}`;
      });
      recording.record({
        schemaId: SCHEMA_ID, schemaVersion: '1.0.0', consumerId: `consumer-${consumer}`, valid: true,
        request: { method: 'GET', path: `/items/${shape}` },
        response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body },
      });
    }
  }
  await recording.flush();
  recording.close();
  notes.push(`replay: recording ${JSON.stringify(recording.stats())}`);
  await new Promise((resolve) => setTimeout(resolve, SERVER_FLUSH_WAIT_MS));
  // The candidate tightens a response pattern: only replay can tell (a tenth of the consumers break).
  await registerBenchSchema(server, SCHEMA_ID, itemsDocument('1.1.0', '^[a-z]+$'), '1.1.0');
  await callUnary(server.client, 'RecordDeployment', { schema_id: SCHEMA_ID, environment: 'prod', version: '1.0.0' });

  const measure = async (skipReplay: boolean) => {
    const request = { schema_id: SCHEMA_ID, new_version: '1.1.0', environment: 'prod', include_observed: true, skip_replay: skipReplay };
    let last: any;
    for (let i = 0; i < CAN_I_DEPLOY_WARMUP; i++) last = await callUnary(server.client, 'CanIDeploy', request);
    const times: number[] = [];
    for (let i = 0; i < CAN_I_DEPLOY_CALLS; i++) {
      const started = performance.now();
      last = await callUnary(server.client, 'CanIDeploy', request);
      times.push(performance.now() - started);
    }
    return { sorted: times.sort((a, b) => a - b), answer: last };
  };
  progress(`replay: ${CAN_I_DEPLOY_CALLS} CanIDeploy calls with replay, and as many without`);
  const withReplay = await measure(false);
  const withoutReplay = await measure(true);
  const breaking = withReplay.answer.affected_consumers.filter((impact: { will_break: boolean }) => impact.will_break).length;
  notes.push(`replay: ${withReplay.answer.replayed_interactions} interactions replayed per call, ${breaking} of ${withReplay.answer.affected_consumers.length} consumers caught; ${CAN_I_DEPLOY_CALLS} calls after ${CAN_I_DEPLOY_WARMUP} warm-up`);
  const baselineP95 = percentile(withoutReplay.sorted, 0.95);
  const p95Row = ceilingRow(`CanIDeploy with replay, ${CONSUMERS}×${INTERACTIONS_PER_CONSUMER}: p95`, percentile(withReplay.sorted, 0.95), 'ms', MAX_CAN_I_DEPLOY_P95_MS);
  return [
    { ...p95Row, baseline: { name: 'skip_replay', value: baselineP95 }, ratio: p95Row.value / baselineP95 },
    {
      name: `CanIDeploy with replay, ${CONSUMERS}×${INTERACTIONS_PER_CONSUMER}: p50`,
      value: percentile(withReplay.sorted, 0.5),
      unit: 'ms',
      baseline: { name: 'skip_replay', value: percentile(withoutReplay.sorted, 0.5) },
      ratio: percentile(withReplay.sorted, 0.5) / percentile(withoutReplay.sorted, 0.5),
    },
  ];
}

async function serve(server: http.Server, middleware: ProducerValidationHandle): Promise<{ url: string; middleware: ProducerValidationHandle; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    middleware,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const LOAD_WORKER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const intervalMs = 1000 / workerData.ratePerSecond;
parentPort.on('message', ({ id, url, durationMs }) => {
  const target = new URL(url + '/items/42');
  const latencies = [];
  let errors = 0;
  let sent = 0;
  let done = 0;
  const total = Math.max(1, Math.floor(durationMs / intervalMs));
  const started = performance.now();
  const finish = () => { if (++done === total) parentPort.postMessage({ id, latencies, errors }); };
  const tick = () => {
    while (sent < total && performance.now() - started >= sent * intervalMs) {
      sent++;
      const sentAt = performance.now();
      const request = http.get(target, { agent, headers: { 'x-consumer-id': 'bench-consumer' } }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) latencies.push(performance.now() - sentAt); else errors++;
          finish();
        });
      });
      request.on('error', () => { errors++; finish(); });
    }
    if (sent < total) setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
  };
  tick();
});
`;

export const recordingSuite: BenchSuite = {
  name: 'recording',
  description: 'p50 latency recording adds to the shadow-mode middleware; CanIDeploy p95 with replay over 50 consumers × 20 recorded interactions',
  run: benchRecording,
};
