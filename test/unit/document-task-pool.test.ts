/**
 * DocumentTaskPool on its own (no gRPC): intake, comparisons and fixtures answer off the main thread
 * exactly what the engines answer in-process; engine failures come back as the same SvcError; a task
 * over its time budget is stopped with LIMIT_EXCEEDED and the pool serves on; close() is idempotent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDocuments } from '../../src/shared/compare';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { generateResponse } from '../../src/shared/fixture-generator';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { TaskDocument } from '../../src/shared/document-task-protocol';
import { DEFAULT_DOCUMENT_TASK_POOL_OPTIONS, DocumentTaskPool } from '../../src/main/document-task-pool';
import { createComparisons } from '../../src/main/compatibility/comparisons';
import { ordersApi } from '../helpers/orders-api';

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
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text });
    const inProcess = await loadSchema(text);
    assert.equal(schema.documentJson, JSON.stringify(inProcess.document));
    assert.equal(schema.endpointCount, inProcess.endpointCount);
    assert.equal(schema.openapiVersion, inProcess.openapiVersion);
    assert.ok(pool.workers.length >= 1);

    const oldSchema = await registered('old', text);
    const newSchema = await registered('new', ordersApi({ withoutDelete: true, withoutTotal: true }));
    const { changes } = await pool.run<'compare'>({ kind: 'compare', oldDocument: oldSchema, newDocument: newSchema });
    assert.deepEqual(changes, compareDocuments(JSON.parse(oldSchema.documentJson), JSON.parse(newSchema.documentJson)));
    assert.ok(changes.length > 0);

    const spec = { method: 'GET', path: '/orders/{id}' };
    const { response } = await pool.run<'response'>({ kind: 'fixture', document: oldSchema, spec, output: 'response' });
    assert.deepEqual(response, generateResponse(JSON.parse(oldSchema.documentJson), spec));
  } finally {
    await pool.close();
  }
});

test("engine failures come back as SvcErrors with their codes, and a refused document is intake's INVALID_SCHEMA", async () => {
  const pool = new DocumentTaskPool();
  try {
    const deep = deepReferenceChain(400);
    await assert.rejects(pool.run({ kind: 'compare', oldDocument: deep, newDocument: { ...deep, hash: 'deep-copy' } }), (error: unknown) => {
      assert.ok(error instanceof SvcError, String(error));
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /compareMaxDepth/);
      return true;
    });
    await assert.rejects(pool.run({ kind: 'intake', text: 'openapi: [' }), (error: SvcError) => error.code === ErrorCode.INVALID_SCHEMA);
    const orders = await registered('orders', ordersApi());
    const { changes } = await pool.run<'compare'>({ kind: 'compare', oldDocument: orders, newDocument: orders });
    assert.deepEqual(changes, [], 'the thread serves on after failures');
  } finally {
    await pool.close();
  }
});

test('a task over its time budget is stopped with LIMIT_EXCEEDED, and the next task runs', async () => {
  const pool = new DocumentTaskPool({ budgetMs: { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS.budgetMs, compare: 1 } });
  try {
    const big = await registered('big', ordersApi());
    await assert.rejects(pool.run({ kind: 'compare', oldDocument: big, newDocument: { ...big, hash: 'big-2' } }), (error: SvcError) => {
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /the comparison took longer than 0\.001 s and was stopped \(compareMaxMs\); the schemas were not compared/);
      return true;
    });
    const { schema } = await pool.run<'intake'>({ kind: 'intake', text: ordersApi() });
    assert.ok(schema.endpointCount > 0);
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
      comparisons.compare(oldSchema, newSchema),
      comparisons.compare({ ...oldSchema }, { ...newSchema }),
      comparisons.compare(newSchema, oldSchema),
    ]);
    assert.equal(first, second, 'the same pair of hashes in flight is compared once');
    assert.deepEqual(reversed, []);
    const later = await comparisons.compare(oldSchema, newSchema);
    assert.notEqual(later, first, 'a finished comparison is not kept (the service caches results)');
    assert.deepEqual(later, first);
  } finally {
    await pool.close();
  }
});

test('close is idempotent, fails a running task and refuses later ones with UNAVAILABLE; options are checked', async () => {
  const pool = new DocumentTaskPool();
  await Promise.all([pool.close(), pool.close()]);
  await assert.rejects(pool.run({ kind: 'intake', text: ordersApi() }), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
  const running = new DocumentTaskPool();
  const failed = assert.rejects(running.run({ kind: 'intake', text: ordersApi() }), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
  await running.close();
  await failed;
  assert.throws(() => new DocumentTaskPool({ threads: 0 }), /options\.threads must be a positive integer/);
});
