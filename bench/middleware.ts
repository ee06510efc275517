/**
 * middleware: the p50 latency the producer middleware adds to an app, per mode, against the same app
 * without it, in the same run. Apps: a plain node:http handler (always), and Express and Fastify when
 * they are installed. The svc server runs in its own process (bench/server-process.ts); the load comes
 * from a worker thread at a fixed rate below saturation (open loop), so the app's event loop carries
 * only the app and its middleware, background validations included.
 * Shadow and warn are measured twice: against the real server, and against a no-op server on the same
 * proto (bench/server-process.ts), which isolates the middleware's own cost from the validation work
 * the server does on the same shared cores.
 * A pass-through middleware (Express `(req, res, next) => next()`, a Fastify `onSend` hook that hands
 * the payload on, a node:http handler that calls the app's) shows what one more middleware costs in
 * each framework whatever it does; shadow and warn are also reported against it.
 * Goals: shadow and warn add under 5 % to p50; their p99 is reported beside it; strict is reported
 * (it waits for one validation call). The process's CPU per request is reported for every variant:
 * validation costs the app CPU even where it adds nothing to the response time.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ContractValidator } from '@svc/client';
import { createExpressMiddleware } from '@svc/client';
import { createFastifyPlugin } from '@svc/client';
import type { ValidationMode } from '@svc/client';
import { wrapHttpHandler } from '@svc/client';
import type { ProducerValidationHandle } from '@svc/client';
import type { ExpressRequestLike } from '@svc/client';
import { REPO_ROOT, createProgress, machineNote, type BenchRow, type Progress, type SuiteResult, type BenchSuite } from './harness';
import { LoadGenerator } from './load-generator';
import { startSvcAndFloor } from './servers';

const SCHEMA_ID = 'users-api';
/** Requests per second offered to each app: well below what one core serves, even in strict mode. */
const RATE_PER_SECOND = 400;
/**
 * Every variant's app runs side by side; the load visits them in turn, a short slice each, for many
 * cycles, and all the latencies of a variant are pooled: the machine's slow drifts (other processes
 * on these cores; the app alone ran at p50s up to 40 % apart in runs minutes apart) fall on every
 * variant alike. Each cycle starts one variant later, and every second run of VARIANTS.length cycles
 * goes through the variants backwards: every variant takes every place in the order, after one
 * neighbour as often as after the other. After each slice the app's pending validations finish
 * before the next app's slice starts, so none of an app's background work falls into another's
 * slice. Slices are short so that each variant is measured within a second of the app alone; with
 * 300 ms slices (a third of the cycles) the A/A row spread 0.87–1.23× over four runs.
 */
const SLICE_MS = 100;
/** Runs of VARIANTS.length cycles, alternately forwards and backwards. */
const ORDER_RUNS = 6;
const WARMUP_MS = 500;
/** Shadow and warn may add at most this share to the p50 of the app alone. */
const MAX_ADDED_SHARE = 0.05;

interface Variant {
  label: string;
  /** `passthrough`: a middleware of the framework's own kind that only hands on (what any middleware costs there). */
  mode: ValidationMode | 'passthrough' | undefined;
  server: 'svc' | 'noop';
}

const VARIANTS: readonly Variant[] = [
  { label: 'without middleware', mode: undefined, server: 'svc' },
  { label: 'a pass-through middleware', mode: 'passthrough', server: 'svc' },
  { label: 'shadow', mode: 'shadow', server: 'svc' },
  { label: 'warn', mode: 'warn', server: 'svc' },
  { label: 'strict', mode: 'strict', server: 'svc' },
  { label: 'shadow, no-op server', mode: 'shadow', server: 'noop' },
  { label: 'warn, no-op server', mode: 'warn', server: 'noop' },
];

const CYCLES = ORDER_RUNS * VARIANTS.length;

type Validators = Record<Variant['server'], ContractValidator>;

interface RunningApp {
  url: string;
  middleware: ProducerValidationHandle | undefined;
  /**
   * µs each request spent in the middleware before the app's handler (Express and node:http, where
   * the middleware is one function to time around; the warm-up's requests included). Strict mode's
   * figure would include its wait for the request check, so it is not kept.
   */
  timeBeforeHandler?: number[];
  close(): Promise<void>;
}

type Framework = { name: string; start(middleware: AppMiddleware): Promise<RunningApp> };
/** Producer validation with these options, a pass-through middleware, or none. */
type AppMiddleware = MiddlewareOptions | 'passthrough' | undefined;
type MiddlewareOptions = Parameters<typeof wrapHttpHandler>[1];

const USER = JSON.stringify({ id: 42, name: 'Ada Lovelace', email: 'ada@example.com', address: { city: 'London' } });

export async function benchMiddleware(progress: Progress = createProgress('middleware')): Promise<SuiteResult> {
  progress('starting the svc server and the no-op server');
  const servers = await startSvcAndFloor();
  // The bench clients' targets, reused so the middleware talks to the same servers.
  const validators: Validators = {
    svc: new ContractValidator(servers[0].client.getChannel().getTarget()),
    noop: new ContractValidator({ address: servers[1].client.getChannel().getTarget(), schemaId: SCHEMA_ID }),
  };
  const load = new LoadGenerator(LOAD_WORKER_SOURCE, RATE_PER_SECOND);
  try {
    await validators.svc.registerSchema(SCHEMA_ID, path.join(REPO_ROOT, 'test', 'fixtures', 'client', 'users-api.v1.yaml'));
    const rows: BenchRow[] = [];
    const notes: string[] = [];
    for (const framework of availableFrameworks(notes)) {
      rows.push(...await benchFramework(framework, validators, load, progress, notes));
    }
    notes.unshift(
      `${machineNote()}; the svc server is a separate process, the load a worker thread, all sharing these cores`,
      `${RATE_PER_SECOND} requests/s, GET /users/42 and POST /users alternating; each app in turn for ${SLICE_MS} ms, ${CYCLES} cycles, latencies pooled per variant`,
    );
    return { suite: 'middleware', rows, notes };
  } finally {
    await load.close();
    validators.svc.close();
    validators.noop.close();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

async function benchFramework(framework: Framework, validators: Validators, load: LoadGenerator, progress: Progress, notes: string[]): Promise<BenchRow[]> {
  progress(`${framework.name}: starting ${VARIANTS.length} apps`);
  const apps: RunningApp[] = [];
  try {
    for (const variant of VARIANTS) {
      const { mode } = variant;
      apps.push(await framework.start(mode === undefined || mode === 'passthrough' ? mode : { schemaId: SCHEMA_ID, validator: validators[variant.server], mode, logger: SILENT }));
    }
    for (const app of apps) await load.run(app.url, WARMUP_MS);
    const latencies = VARIANTS.map(() => [] as number[]);
    /** Process CPU (µs) over each variant's slices and the validations they scheduled, and the requests they served. */
    const cpu = VARIANTS.map(() => ({ micros: 0, requests: 0 }));
    /** Baseline latencies of odd and even cycles: two samples of the same thing, the noise floor. */
    const baselineHalves: [number[], number[]] = [[], []];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      progress(`${framework.name}: cycle ${cycle + 1}/${CYCLES}`);
      const backwards = Math.floor(cycle / apps.length) % 2 === 1;
      for (let place = 0; place < apps.length; place++) {
        const index = (cycle + (backwards ? apps.length - place : place)) % apps.length;
        const app = apps[index]!;
        const cpuBefore = process.cpuUsage();
        const slice = await load.run(app.url, SLICE_MS);
        await app.middleware?.flush();
        const cpuUsed = process.cpuUsage(cpuBefore);
        cpu[index]!.micros += cpuUsed.user + cpuUsed.system;
        cpu[index]!.requests += slice.latencies.length;
        if (slice.errors > 0) throw new Error(`${framework.name} ${VARIANTS[index]!.label}: ${slice.errors} requests failed`);
        latencies[index]!.push(...slice.latencies);
        if (index === 0) baselineHalves[cycle % 2]!.push(...slice.latencies);
      }
    }
    for (const [index, app] of apps.entries()) {
      await app.middleware?.flush();
      const stats = app.middleware?.stats();
      if (stats && (stats.validatorErrors > 0 || stats.violations > 0 || stats.validated === 0)) {
        notes.push(`${framework.name} ${VARIANTS[index]!.label}: unexpected validation outcome ${JSON.stringify(stats)}`);
      }
    }
    const baseline = { name: `${framework.name} without middleware`, value: p50(latencies[0]!) };
    const baselineP99 = { name: `${framework.name} without middleware`, value: p99(latencies[0]!) };
    const rows: BenchRow[] = [{
      name: `${framework.name} without middleware, A/A (noise floor)`,
      value: p50(baselineHalves[1]),
      unit: 'ms',
      baseline: { name: 'the same, other cycles', value: p50(baselineHalves[0]) },
      ratio: p50(baselineHalves[1]) / p50(baselineHalves[0]),
    }, {
      name: `${framework.name} without middleware, A/A p99 (noise floor)`,
      value: p99(baselineHalves[1]),
      unit: 'ms',
      baseline: { name: 'the same, other cycles', value: p99(baselineHalves[0]) },
      ratio: p99(baselineHalves[1]) / p99(baselineHalves[0]),
    }];
    for (const [index, variant] of VARIANTS.entries()) {
      if (variant.mode === undefined) continue;
      const value = p50(latencies[index]!);
      const ratio = value / baseline.value;
      const row: BenchRow = { name: `${framework.name} ${variant.label}: p50`, value, unit: 'ms', baseline, ratio };
      if (variant.mode === 'shadow' || variant.mode === 'warn') row.goal = { text: `≤ ${1 + MAX_ADDED_SHARE}× (adds < ${MAX_ADDED_SHARE * 100} %)`, met: ratio <= 1 + MAX_ADDED_SHARE };
      rows.push(row);
      const tail = p99(latencies[index]!);
      rows.push({ name: `${framework.name} ${variant.label}: p99`, value: tail, unit: 'ms', baseline: baselineP99, ratio: tail / baselineP99.value });
    }
    // CPU per request of the whole process: the app, the middleware with its background validations,
    // and the load worker (the same for every variant), so the difference between variants is the middleware's.
    const cpuPerRequest = (index: number) => cpu[index]!.micros / Math.max(1, cpu[index]!.requests);
    const cpuBaseline = { name: `${framework.name} without middleware`, value: cpuPerRequest(0) };
    for (const [index, variant] of VARIANTS.entries()) {
      if (variant.mode === undefined) continue;
      const value = cpuPerRequest(index);
      rows.push({ name: `${framework.name} ${variant.label}: process CPU per request`, value, unit: 'µs', baseline: cpuBaseline, ratio: value / cpuBaseline.value });
    }
    // The middleware's own work on the request path, timed where it happens: a few µs, which the p50
    // rows cannot resolve against the machine's drift. (The timing adds its own four clock reads.)
    for (const [index, variant] of VARIANTS.entries()) {
      const times = apps[index]!.timeBeforeHandler;
      if (!times || times.length === 0) continue;
      const value = p50(times);
      rows.push({
        name: `${framework.name} ${variant.label}: time in the middleware before the handler, p50`,
        value,
        unit: 'µs',
        baseline: { name: `${framework.name} without middleware, p50 latency`, value: baseline.value * 1000 },
        ratio: value / (baseline.value * 1000),
      });
    }
    // What validation adds beyond the framework's own cost of one more middleware.
    const passthrough = { name: `${framework.name} with a pass-through middleware`, value: p50(latencies[VARIANTS.findIndex((v) => v.mode === 'passthrough')]!) };
    for (const [index, variant] of VARIANTS.entries()) {
      if ((variant.mode !== 'shadow' && variant.mode !== 'warn') || variant.server !== 'svc') continue;
      const value = p50(latencies[index]!);
      rows.push({ name: `${framework.name} ${variant.label} vs a pass-through middleware: p50`, value, unit: 'ms', baseline: passthrough, ratio: value / passthrough.value });
    }
    return rows;
  } finally {
    await Promise.all(apps.map((app) => app.close()));
  }
}

const SILENT = Object.freeze({ warn: () => undefined, error: () => undefined });

/** node:http always; Express and Fastify when the project has them installed (devDependencies). */
function availableFrameworks(notes: string[]): Framework[] {
  const frameworks: Framework[] = [{ name: 'node:http', start: startNodeHttpApp }];
  for (const [name, start] of [['express', startExpressApp], ['fastify', startFastifyApp]] as const) {
    try {
      require.resolve(name);
      frameworks.push({ name, start });
    } catch {
      notes.push(`${name} is not installed: its rows are left out`);
    }
  }
  return frameworks;
}

function usersHandler(request: http.IncomingMessage, response: http.ServerResponse): void {
  if (request.method === 'POST') {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => { body += chunk; });
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 1, name: (JSON.parse(body) as { name: string }).name }));
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(USER);
}

async function startNodeHttpApp(middleware: AppMiddleware): Promise<RunningApp> {
  if (middleware === 'passthrough') return serve(http.createServer((request, response) => usersHandler(request, response)), undefined);
  if (!middleware) return serve(http.createServer(usersHandler), undefined);
  if (middleware.mode === 'strict') {
    const wrapped = wrapHttpHandler(usersHandler, middleware);
    return serve(http.createServer(wrapped), wrapped);
  }
  const timer = handlerTimer();
  const wrapped = wrapHttpHandler((request, response) => timer.handler(() => usersHandler(request, response)), middleware);
  const server = http.createServer((request, response) => timer.middleware(() => wrapped(request, response)));
  return { ...await serve(server, wrapped), timeBeforeHandler: timer.times };
}

async function startExpressApp(options: AppMiddleware): Promise<RunningApp> {
  const express = require('express');
  const app = express();
  app.use(express.json());
  const middleware = options && options !== 'passthrough' ? createExpressMiddleware(options) : undefined;
  const timer = middleware && middleware.mode !== 'strict' ? handlerTimer() : undefined;
  if (middleware && timer) {
    app.use((request: ExpressRequestLike, response: http.ServerResponse, next: () => void) =>
      timer.middleware(() => middleware(request, response, () => timer.handler(next))));
  } else if (middleware) app.use(middleware);
  else if (options === 'passthrough') app.use((_request: unknown, _response: unknown, next: () => void) => next());
  app.get('/users/:id', (_request: unknown, response: { type(t: string): { send(b: string): void } }) => response.type('application/json').send(USER));
  app.post('/users', (request: { body: { name: string } }, response: { status(s: number): { json(b: unknown): void } }) =>
    response.status(201).json({ id: 1, name: request.body.name }));
  return { ...await serve(http.createServer(app), middleware), timeBeforeHandler: timer?.times };
}

/**
 * Times a middleware's synchronous work around the handler it calls: `middleware(run)` wraps the
 * middleware's call, `handler(run)` the handler's inside it, and `times` gets the difference (µs).
 */
function handlerTimer(): { times: number[]; middleware(run: () => void): void; handler(run: () => void): void } {
  const times: number[] = [];
  let handlerMs = 0;
  return {
    times,
    middleware(run) {
      handlerMs = 0;
      const started = performance.now();
      run();
      times.push((performance.now() - started - handlerMs) * 1000);
    },
    handler(run) {
      const started = performance.now();
      run();
      handlerMs += performance.now() - started;
    },
  };
}

async function startFastifyApp(options: AppMiddleware): Promise<RunningApp> {
  const app = require('fastify')();
  const plugin = options && options !== 'passthrough' ? createFastifyPlugin(options) : undefined;
  if (plugin) await app.register(plugin);
  else if (options === 'passthrough') app.addHook('onSend', (_request: unknown, _reply: unknown, payload: unknown, done: (error: null, value: unknown) => void) => done(null, payload));
  app.get('/users/:id', async (_request: unknown, reply: { type(t: string): { send(b: string): void } }) => reply.type('application/json').send(USER));
  app.post('/users', async (request: { body: { name: string } }, reply: { code(s: number): unknown }) => {
    reply.code(201);
    return { id: 1, name: request.body.name };
  });
  const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, middleware: plugin, close: () => app.close() };
}

async function serve(server: http.Server, middleware: ProducerValidationHandle | undefined): Promise<RunningApp> {
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

function p50(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function p99(values: readonly number[]): number {
  return quantile(values, 0.99);
}

function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

const LOAD_WORKER_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const POST_BODY = JSON.stringify({ name: 'Grace Hopper', email: 'grace@example.com' });
parentPort.on('message', async ({ id, url, durationMs }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const { hostname, port } = new URL(url);
  const total = Math.max(1, Math.floor((workerData.ratePerSecond * durationMs) / 1000));
  const interval = 1000 / workerData.ratePerSecond;
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const calls = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const post = i % 2 === 1;
    const sent = performance.now();
    calls.push(new Promise((resolve) => {
      const request = http.request({ agent, hostname, port, method: post ? 'POST' : 'GET', path: post ? '/users' : '/users/42',
        headers: post ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(POST_BODY) } : {} }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode >= 400) errors++;
          latencies.push(performance.now() - sent);
          resolve();
        });
      });
      request.on('error', () => { errors++; resolve(); });
      request.end(post ? POST_BODY : undefined);
    }));
  }
  await Promise.all(calls);
  agent.destroy();
  parentPort.postMessage({ id, latencies, errors });
});
`;

export const middlewareSuite: BenchSuite = {
  name: 'middleware',
  description: 'p50 and p99 latency the producer middleware adds in shadow, warn and strict modes (Express, Fastify, node:http)',
  run: benchMiddleware,
};
