/**
 * DocumentTaskPool on its own (no gRPC): intake, comparisons and fixtures answer off the main thread
 * exactly what the engines answer in-process; engine failures come back as the same SvcError; a task
 * over its time budget is stopped with LIMIT_EXCEEDED and the pool serves on; budgets count from a
 * task's start; fixtures never hold every thread; one caller never holds every thread, waits in a
 * bounded queue of its own, and callers take turns; a thread nobody else may take is lent to a
 * caller's intake and taken back when another caller needs it; the wait is bounded; close() is
 * idempotent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { compareDocuments } from '../../src/shared/compare';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { generateResponse } from '../../src/shared/fixture-generator';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { TaskDocument } from '../../src/shared/document-task-protocol';
import { DEFAULT_DOCUMENT_TASK_POOL_OPTIONS, DocumentTaskPool, type DocumentTaskPoolOptions } from '../../src/main/document-task-pool';
import { INTERNAL_CALLER } from '../../src/main/auth/principal';
import { createComparisons } from '../../src/main/compatibility/comparisons';
import { ordersApi } from '../helpers/orders-api';
import { largeApiDocument } from '../helpers/large-documents';

/** Two callers as the service names them (auth/principal.ts callerOf). */
const TEAM_A = 'key:team-a';
const TEAM_B = 'key:team-b';

async function registered(hash: string, text: string): Promise<TaskDocument> {
  const { document } = await loadSchema(text);
  return { hash, documentJson: JSON.stringify(document) };
}

/** A schema that refers to the next one `depth` times: deeper than the engine's compareMaxDepth (300). */
function deepReferenceChain(depth: number): TaskDocument {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) schemas[`C${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/C${i + 1}` } } };
  schemas[`C${depth}`] = { type: 'string' };
  const document = {
    openapi: '3.0.3',
    info: { title: 'Deep', version: '1.0.0' },
    paths: { '/things': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/C0' } } } } } } } },
    components: { schemas },
  };
  return { hash: `deep-${depth}`, documentJson: JSON.stringify(document) };
}

test('intake, comparison and fixture answer what the engines answer in-process; threads start on demand', async () => {
  const pool = new DocumentTaskPool();
  try {
    assert.equal(pool.workers.length, 0, 'no thread before the first task');
    const text = ordersApi();
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text }, INTERNAL_CALLER);
    const inProcess = await loadSchema(text);
    assert.equal(schema.documentJson, JSON.stringify(inProcess.document));
    assert.equal(schema.endpointCount, inProcess.endpointCount);
    assert.equal(schema.openapiVersion, inProcess.openapiVersion);
    assert.ok(pool.workers.length >= 1);

    const oldSchema = await registered('old', text);
    const newSchema = await registered('new', ordersApi({ withoutDelete: true, withoutTotal: true }));
    const { changes } = await pool.run<'compare'>({ kind: 'compare', oldDocument: oldSchema, newDocument: newSchema }, INTERNAL_CALLER);
    assert.deepEqual(changes, compareDocuments(JSON.parse(oldSchema.documentJson), JSON.parse(newSchema.documentJson)));
    assert.ok(changes.length > 0);

    const spec = { method: 'GET', path: '/orders/{id}' };
    const { response } = await pool.run<'response'>({ kind: 'fixture', document: oldSchema, spec, output: 'response' }, INTERNAL_CALLER);
    assert.deepEqual(response, generateResponse(JSON.parse(oldSchema.documentJson), spec));
  } finally {
    await pool.close();
  }
});

test("engine failures come back as SvcErrors with their codes, and a refused document is intake's INVALID_SCHEMA", async () => {
  const pool = new DocumentTaskPool();
  try {
    const deep = deepReferenceChain(400);
    await assert.rejects(pool.run({ kind: 'compare', oldDocument: deep, newDocument: { ...deep, hash: 'deep-copy' } }, INTERNAL_CALLER), (error: unknown) => {
      assert.ok(error instanceof SvcError, String(error));
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /compareMaxDepth/);
      return true;
    });
    await assert.rejects(pool.run({ kind: 'intake', text: 'openapi: [' }, INTERNAL_CALLER), (error: SvcError) => error.code === ErrorCode.INVALID_SCHEMA);
    const orders = await registered('orders', ordersApi());
    const { changes } = await pool.run<'compare'>({ kind: 'compare', oldDocument: orders, newDocument: orders }, INTERNAL_CALLER);
    assert.deepEqual(changes, [], 'the thread serves on after failures');
  } finally {
    await pool.close();
  }
});

test('a task over its time budget is stopped with LIMIT_EXCEEDED, and the next task runs', async () => {
  const pool = new DocumentTaskPool({ budgetMs: { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS.budgetMs, compare: 1 } });
  try {
    const big = await registered('big', ordersApi());
    await assert.rejects(pool.run({ kind: 'compare', oldDocument: big, newDocument: { ...big, hash: 'big-2' } }, INTERNAL_CALLER), (error: SvcError) => {
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /the comparison took longer than 0\.001 s and was stopped \(compareMaxMs\); the schemas were not compared/);
      return true;
    });
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER);
    assert.ok(schema.endpointCount > 0);
  } finally {
    await pool.close();
  }
});

/**
 * A fixture that runs until its budget stops it: 9,999 items, each picked from an enum of 30,000
 * members checked one by one against the item schema (about a minute). Its value stays far below
 * fixtureMaxGeneratedChars, which refuses sizes that multiply in under a second.
 */
const SLOW_FIXTURE_DOCUMENT: TaskDocument = {
  hash: 'slow-fixture',
  documentJson: JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Slow fixture', version: '1.0.0' },
    paths: { '/grid': { get: { responses: { 200: { description: 'ok', content: { 'application/json': {
      schema: { type: 'array', minItems: 9_999, items: { type: 'string', enum: Array.from({ length: 30_000 }, (_, i) => `v${i}`) } },
    } } } } } } },
  }),
};

/** The default task budgets with the fixture's (and others given) replaced. */
function budgets(fixtureMs: number, others: Partial<DocumentTaskPoolOptions['budgetMs']> = {}): DocumentTaskPoolOptions['budgetMs'] {
  return { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS.budgetMs, fixture: fixtureMs, ...others };
}

function slowFixture(pool: DocumentTaskPool, caller = INTERNAL_CALLER): Promise<unknown> {
  return pool.run({ kind: 'fixture', document: SLOW_FIXTURE_DOCUMENT, spec: { method: 'GET', path: '/grid' }, output: 'response' }, caller);
}

/** A quick intake of `caller` that notes its name in `finished` when it is done. */
async function quickIntake(pool: DocumentTaskPool, caller: string, finished: string[], name: string): Promise<void> {
  const { schema } = await pool.run<'intake'>({ kind: 'intake', text: ordersApi() }, caller);
  assert.ok(schema.endpointCount > 0);
  finished.push(name);
}

const isStoppedFixture = (error: SvcError) => error.code === ErrorCode.LIMIT_EXCEEDED && /the fixture took longer than .* \(fixtureMaxMs\)/.test(error.message);

/**
 * `count` slow fixtures of `caller`, each stopped by its budget; `endsMs` fills with when each was
 * stopped, from `started`, and `stopped` resolves with them in ascending order once all were.
 */
function stoppedFixtures(pool: DocumentTaskPool, count: number, caller: string, started: number): { stopped: Promise<number[]>; endsMs: number[] } {
  const endsMs: number[] = [];
  const all = Array.from({ length: count }, () => assert.rejects(slowFixture(pool, caller), isStoppedFixture).then(() => endsMs.push(performance.now() - started)));
  const stopped = Promise.all(all).then(() => [...endsMs].sort((a, b) => a - b));
  // Handled at once: a test whose own assertion fails first closes the pool, and these then fail
  // as closed, which would be reported in place of that assertion (unhandledRejection).
  stopped.catch(() => undefined);
  return { stopped, endsMs };
}

test("a task's budget counts from its start: a task that waited behind slow ones is not stopped for their time", async () => {
  // The intake starts on a new thread (the stopped fixture's was replaced), which loads the engines:
  // on a slow 2-core machine under the whole suite that took most of a 0.9 s budget.
  const fixtureMs = 1_000;
  const pool = new DocumentTaskPool({ threads: 1, budgetMs: budgets(fixtureMs, { intake: fixtureMs * 1.5 }) });
  try {
    const started = performance.now();
    const slow = [slowFixture(pool), slowFixture(pool)].map((run) => assert.rejects(run, isStoppedFixture));
    // Waits about two fixture budgets, longer than its own budget, then runs in a few milliseconds.
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER);
    assert.ok(schema.endpointCount > 0);
    assert.ok(performance.now() - started >= 2 * fixtureMs, 'the intake waited for both fixtures (one thread)');
    await Promise.all(slow);
  } finally {
    await pool.close();
  }
});

test('fixtures never take the last free thread: an intake and a comparison start at once while slow fixtures wait their turn', async () => {
  // Long enough for a thread to start and run the intake and the comparison on a loaded 2-core machine.
  const fixtureMs = 1_500;
  // One caller may hold both threads here (threadsPerCaller): this is the fixture rule alone.
  const pool = new DocumentTaskPool({ threads: 2, threadsPerCaller: 2, budgetMs: budgets(fixtureMs) });
  try {
    const started = performance.now();
    const { stopped, endsMs: fixtureEnds } = stoppedFixtures(pool, 3, INTERNAL_CALLER, started);
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER);
    const orders = await registered('orders', ordersApi());
    const { changes } = await pool.run<'compare'>({ kind: 'compare', oldDocument: orders, newDocument: orders }, INTERNAL_CALLER);
    assert.ok(schema.endpointCount > 0);
    assert.deepEqual(changes, []);
    assert.equal(fixtureEnds.length, 0, 'the intake and the comparison finished while the first fixture still ran');
    const ends = await stopped;
    // One fixture at a time on two threads: each starts when the one before is stopped.
    assert.ok(ends[1]! >= 2 * fixtureMs && ends[2]! >= 3 * fixtureMs, `fixtures ended at ${ends.map(Math.round).join(', ')} ms`);
  } finally {
    await pool.close();
  }
});

test('at most maxQueued tasks wait: the next is refused with OVERLOADED, and close() fails the waiting ones', async () => {
  const pool = new DocumentTaskPool({ threads: 1, maxQueued: 2, budgetMs: budgets(30_000) });
  const closedOut = (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message);
  const runningAndWaiting = [slowFixture(pool), slowFixture(pool), pool.run({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER)].map((task) => assert.rejects(task, closedOut));
  await assert.rejects(pool.run({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER), (error: SvcError) => {
    assert.equal(error.code, ErrorCode.OVERLOADED);
    assert.equal(error.message, '2 document tasks (schema intakes, operation listings, comparisons, fixtures, large recorded interactions) are waiting for a thread, at the limit of 2 (documentTaskMaxQueued); the schema was not registered, retry shortly');
    return true;
  });
  await pool.close();
  await Promise.all(runningAndWaiting);
});

test("one caller's tasks hold at most threadsPerCaller threads: another caller's intake starts at once", async () => {
  // Long enough for the other caller's intake on a slow 2-core machine under the whole suite.
  const fixtureMs = 2_000;
  // Fixtures may take every thread here (fixtureThreads 2): only the caller's share (1) holds them back.
  const pool = new DocumentTaskPool({ threads: 2, fixtureThreads: 2, budgetMs: budgets(fixtureMs) });
  try {
    const started = performance.now();
    const { stopped, endsMs: fixtureEnds } = stoppedFixtures(pool, 2, TEAM_A, started);
    const finished: string[] = [];
    await quickIntake(pool, TEAM_B, finished, 'b');
    const intakeMs = performance.now() - started;
    assert.equal(fixtureEnds.length, 0, `the other caller's intake (${Math.round(intakeMs)} ms) finished while the first caller's fixtures still ran`);
    assert.ok(intakeMs < fixtureMs, `the other caller's intake took ${Math.round(intakeMs)} ms`);
    const ends = await stopped;
    // One at a time (threads - 1): the second starts when the first is stopped, though a thread was free.
    assert.ok(ends[1]! >= 2 * fixtureMs, `fixtures ended at ${ends.map(Math.round).join(', ')} ms`);
  } finally {
    await pool.close();
  }
});

test("a thread nobody else may take is lent: a caller's intake does not wait for its own slow fixture", async () => {
  const fixtureMs = 1_500;
  const pool = new DocumentTaskPool({ threads: 2, budgetMs: budgets(fixtureMs) });
  try {
    const started = performance.now();
    const { stopped, endsMs: fixtureEnds } = stoppedFixtures(pool, 2, TEAM_A, started);
    const finished: string[] = [];
    await quickIntake(pool, TEAM_A, finished, 'a');
    const intakeMs = performance.now() - started;
    assert.equal(fixtureEnds.length, 0, `the intake (${Math.round(intakeMs)} ms) finished while the caller's first fixture still ran`);
    const ends = await stopped;
    // Fixtures are never lent a thread: the second still waits for the first.
    assert.ok(ends[1]! >= 2 * fixtureMs, `fixtures ended at ${ends.map(Math.round).join(', ')} ms`);
  } finally {
    await pool.close();
  }
});

test("a lent task's budget fires however often the heap is collected", async () => {
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  const intakeMs = 500;
  const pool = new DocumentTaskPool({ threads: 2, budgetMs: budgets(20_000, { intake: intakeMs }) });
  const holding = assert.rejects(slowFixture(pool, TEAM_A), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE);
  const collecting = setInterval(collectGarbage, 50);
  try {
    // Team A's fixture holds its share: the intake runs on the other thread, lent. Its intake takes seconds.
    const started = performance.now();
    await assert.rejects(pool.run({ kind: 'intake', text: largeApiDocument('1.0.0', { operations: 2_500, depth: 3, width: 8 }) }, TEAM_A), (error: SvcError) => {
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /\(intakeMaxMs\)/);
      return true;
    });
    // It ran 4.7 s when the budget's timeout signal, combined with the loan's by AbortSignal.any, was collected.
    assert.ok(performance.now() - started < intakeMs + 1_500, `the lent intake was stopped after ${Math.round(performance.now() - started)} ms`);
  } finally {
    clearInterval(collecting);
    await pool.close();
    await holding;
  }
});

test('a lent thread is taken back when another caller has a task that may start: the lent intake is stopped, waits again and completes', async (t) => {
  const fixtureMs = 20_000;
  const pool = new DocumentTaskPool({ threads: 2, budgetMs: budgets(fixtureMs) });
  try {
    const finished: string[] = [];
    // Caller A holds its share with a fixture, then runs a large intake on the lent thread.
    const slow = assert.rejects(slowFixture(pool, TEAM_A), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE);
    const large = pool.run<'intake'>({ kind: 'intake', text: largeApiDocument('1.0.0', { operations: 6_000, depth: 2, width: 4 }) }, TEAM_A)
      .then(({ schema }) => {
        assert.equal(schema.endpointCount, 6_000);
        finished.push('a-large');
      });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(pool.waiting, 0, 'both tasks of caller A run, one of them on loan');
    const started = performance.now();
    await quickIntake(pool, TEAM_B, finished, 'b');
    const otherMs = performance.now() - started;
    await large;
    t.diagnostic(`the other caller's intake: ${Math.round(otherMs)} ms; the large intake ended ${Math.round(performance.now() - started)} ms after it was asked for`);
    assert.deepEqual(finished, ['b', 'a-large'], "the other caller's intake took the lent thread; the lent intake ran again after it");
    // A thread start and a small intake: 0.5-1.1 s in the whole suite on a 2-core machine, where the
    // large intake alone took 1-4 s (the order above is what shows it was not waited for).
    assert.ok(otherMs < 2_000, `the other caller's intake took ${Math.round(otherMs)} ms`);
    await pool.close();
    await slow;
  } finally {
    await pool.close();
  }
});

test('at most maxQueuedPerCaller tasks of one caller wait: the next is refused with OVERLOADED while another caller still queues', async () => {
  const fixtureMs = 600;
  const pool = new DocumentTaskPool({ threads: 1, maxQueuedPerCaller: 2, budgetMs: budgets(fixtureMs) });
  try {
    // One runs, two wait: the caller's queue is full.
    let stoppedFixtures = 0;
    const slow = Array.from({ length: 3 }, () => assert.rejects(slowFixture(pool, TEAM_A), isStoppedFixture).then(() => stoppedFixtures++));
    await assert.rejects(pool.run({ kind: 'intake', text: ordersApi() }, TEAM_A), (error: SvcError) => {
      assert.equal(error.code, ErrorCode.OVERLOADED);
      assert.equal(error.message, '2 document tasks (schema intakes, operation listings, comparisons, fixtures, large recorded interactions) from key:team-a are waiting for a thread, at the limit of 2 per caller (documentTaskMaxQueuedPerCaller); the schema was not registered, retry shortly');
      return true;
    });
    const finished: string[] = [];
    const other = quickIntake(pool, TEAM_B, finished, 'b');
    assert.equal(pool.waiting, 3, "the other caller's intake waits beside the first caller's two fixtures");
    await other;
    assert.equal(stoppedFixtures, 1, "its turn came next, before the first caller's waiting fixtures");
    await Promise.all(slow);
  } finally {
    await pool.close();
  }
});

test("a task whose asker has gone is dropped while it waits (its room in the caller's queue freed) and stopped while it runs, with CANCELLED", async () => {
  const pool = new DocumentTaskPool({ threads: 1, maxQueuedPerCaller: 1, goneCheckMs: 20, budgetMs: budgets(30_000) });
  try {
    const gone = { running: false, waiting: false };
    const isCancelled = (error: SvcError) => error.code === ErrorCode.CANCELLED && /the caller cancelled the call or its deadline passed; no fixture was generated/.test(error.message);
    const fixture = (asker: keyof typeof gone) =>
      pool.run({ kind: 'fixture', document: SLOW_FIXTURE_DOCUMENT, spec: { method: 'GET', path: '/grid' }, output: 'response' }, TEAM_A, () => gone[asker]);
    const running = assert.rejects(fixture('running'), isCancelled);
    const waiting = assert.rejects(fixture('waiting'), isCancelled);
    assert.equal(pool.waiting, 1, "the caller's queue is full");
    gone.waiting = true;
    const finished: string[] = [];
    const next = quickIntake(pool, TEAM_A, finished, 'next');
    await waiting;
    const stopping = performance.now();
    gone.running = true;
    await running;
    // A 30 s fixture, stopped at the next look (20 ms) and its thread's end.
    assert.ok(performance.now() - stopping < 5_000, `the abandoned fixture ran ${Math.round(performance.now() - stopping)} ms more`);
    await next;
    assert.deepEqual(finished, ['next']);
  } finally {
    await pool.close();
  }
});

test('callers take turns when a thread frees: the one whose last start is longest ago goes first, its oldest task first', async () => {
  const pool = new DocumentTaskPool({ threads: 1, budgetMs: budgets(600) });
  try {
    const TEAM_C = 'peer:10.0.0.7';
    const finished: string[] = [];
    // Team A holds the thread, then queues two more; B and C queue one each behind them.
    const slow = assert.rejects(slowFixture(pool, TEAM_A), isStoppedFixture);
    const queued = [
      quickIntake(pool, TEAM_A, finished, 'a1'),
      quickIntake(pool, TEAM_A, finished, 'a2'),
      quickIntake(pool, TEAM_B, finished, 'b1'),
      quickIntake(pool, TEAM_C, finished, 'c1'),
    ];
    await Promise.all([slow, ...queued]);
    assert.deepEqual(finished, ['b1', 'c1', 'a1', 'a2']);
  } finally {
    await pool.close();
  }
});

test('identical comparisons in flight share one task', async () => {
  const pool = new DocumentTaskPool();
  try {
    const comparisons = createComparisons(pool);
    const oldSchema = await registered('old', ordersApi());
    const newSchema = await registered('new', ordersApi({ withoutTotal: true }));
    const [first, second, reversed] = await Promise.all([
      comparisons.compare(oldSchema, newSchema, TEAM_A),
      comparisons.compare({ ...oldSchema }, { ...newSchema }, TEAM_B),
      comparisons.compare(newSchema, oldSchema, TEAM_B),
    ]);
    assert.equal(first, second, 'the same pair of hashes in flight is compared once, whoever asks');
    assert.deepEqual(reversed, []);
    const later = await comparisons.compare(oldSchema, newSchema, TEAM_A);
    assert.notEqual(later, first, 'a finished comparison is not kept (the service caches results)');
    assert.deepEqual(later, first);
  } finally {
    await pool.close();
  }
});

test('a comparison shared by several askers is dropped only once every one of them has gone', async () => {
  const pool = new DocumentTaskPool({ threads: 1, goneCheckMs: 20, budgetMs: budgets(30_000) });
  const holding = assert.rejects(slowFixture(pool), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE);
  try {
    const comparisons = createComparisons(pool);
    const orders = await registered('orders', ordersApi());
    const gone = { a: false, b: false };
    const isCancelled = (error: SvcError) => error.code === ErrorCode.CANCELLED;
    const askers = [
      assert.rejects(comparisons.compare(orders, orders, TEAM_A, () => gone.a), isCancelled),
      assert.rejects(comparisons.compare(orders, orders, TEAM_B, () => gone.b), isCancelled),
    ];
    assert.equal(pool.waiting, 1, 'one task for both askers, waiting behind the fixture');
    gone.a = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(pool.waiting, 1, 'still wanted by the second asker');
    gone.b = true;
    await Promise.all(askers);
    assert.equal(pool.waiting, 0);
  } finally {
    await pool.close();
    await holding;
  }
});

test('close is idempotent, fails a running task and refuses later ones with UNAVAILABLE; options are checked', async () => {
  const pool = new DocumentTaskPool();
  await Promise.all([pool.close(), pool.close()]);
  await assert.rejects(pool.run({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
  const running = new DocumentTaskPool();
  const failed = assert.rejects(running.run({ kind: 'intake', text: ordersApi() }, INTERNAL_CALLER), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
  await running.close();
  await failed;
  assert.throws(() => new DocumentTaskPool({ threads: 0 }), /options\.threads must be a positive integer/);
  assert.throws(() => new DocumentTaskPool({ threads: 2, fixtureThreads: 3 }), /options\.fixtureThreads must be an integer from 1 to options\.threads/);
  assert.throws(() => new DocumentTaskPool({ threads: 2, threadsPerCaller: 3 }), /options\.threadsPerCaller must be an integer from 1 to options\.threads/);
  assert.throws(() => new DocumentTaskPool({ threadsPerCaller: 0 }), /options\.threadsPerCaller must be an integer from 1 to options\.threads/);
  assert.throws(() => new DocumentTaskPool({ maxQueuedPerCaller: 1.5 }), /options\.maxQueuedPerCaller must be a positive integer/);
  assert.throws(() => new DocumentTaskPool({ goneCheckMs: 0 }), /options\.goneCheckMs must be a positive integer/);
});
