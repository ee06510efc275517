/**
 * ComparisonPool on its own (no gRPC): the engine's answer from a worker thread, identical
 * comparisons in flight sharing one task, engine failures passed back as the same SvcError,
 * threads started on demand, and close() idempotent with later calls refused clearly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDocuments } from '../../src/shared/compare';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { ComparisonPool, type ComparedDocument } from '../../src/main/compatibility/comparison-pool';
import { ordersApi } from '../helpers/orders-api';

async function registered(hash: string, text: string): Promise<ComparedDocument & { document: OpenApiDocument }> {
  const { document } = await loadSchema(text);
  return { hash, documentJson: JSON.stringify(document), document };
}

/** A schema that refers to the next one `depth` times: deeper than the engine's compareMaxDepth (300). */
function deepReferenceChain(depth: number): ComparedDocument {
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

test('a comparison in the pool answers exactly what the engine answers in-process; threads start on demand', async () => {
  const oldSchema = await registered('old', ordersApi());
  const newSchema = await registered('new', ordersApi({ withoutDelete: true, withoutTotal: true }));
  const pool = new ComparisonPool();
  try {
    assert.equal(pool.workers.length, 0, 'no thread before the first comparison');
    const changes = await pool.compare(oldSchema, newSchema);
    assert.equal(pool.workers.length, 1);
    assert.deepEqual(changes, compareDocuments(oldSchema.document, newSchema.document));
    assert.deepEqual(changes.map((change) => change.type).sort(), ['ENDPOINT_REMOVED', 'RESPONSE_SCHEMA_CHANGED', 'RESPONSE_SCHEMA_CHANGED', 'RESPONSE_SCHEMA_CHANGED']);
    assert.deepEqual(await pool.compare(newSchema, oldSchema), [], 'going back only adds things');
  } finally {
    await pool.close();
  }
});

test('identical comparisons in flight share one task; other pairs and later calls run their own', async () => {
  const oldSchema = await registered('old', ordersApi());
  const newSchema = await registered('new', ordersApi({ withoutTotal: true }));
  const pool = new ComparisonPool();
  try {
    const [first, second, reversed] = await Promise.all([
      pool.compare(oldSchema, newSchema),
      pool.compare({ ...oldSchema }, { ...newSchema }),
      pool.compare(newSchema, oldSchema),
    ]);
    // Each task's answer is a fresh copy from the worker: the same array means the same task.
    assert.equal(first, second, 'the same pair of hashes in flight is compared once');
    assert.equal(first.length, 3);
    assert.deepEqual(reversed, []);
    const later = await pool.compare(oldSchema, newSchema);
    assert.notEqual(later, first, 'a finished comparison is not kept by the pool (the service caches results)');
    assert.deepEqual(later, first);
  } finally {
    await pool.close();
  }
});

test('the engine\'s LIMIT_EXCEEDED and a malformed document come back as SvcErrors with their codes', async () => {
  const pool = new ComparisonPool();
  try {
    const deep = deepReferenceChain(400);
    await assert.rejects(pool.compare(deep, { ...deep, hash: 'deep-copy' }), (error: unknown) => {
      assert.ok(error instanceof SvcError, String(error));
      assert.equal(error.code, ErrorCode.LIMIT_EXCEEDED);
      assert.match(error.message, /compareMaxDepth/);
      return true;
    });
    await assert.rejects(pool.compare({ hash: 'broken', documentJson: '{"openapi":' }, deep), (error: unknown) => {
      assert.ok(error instanceof SvcError, String(error));
      assert.equal(error.code, ErrorCode.INTERNAL);
      assert.match(error.message, /^comparison failed: /);
      return true;
    });
    const orders = await registered('orders', ordersApi());
    assert.deepEqual(await pool.compare(orders, orders), [], 'the thread serves on after failures');
  } finally {
    await pool.close();
  }
});

test('close is idempotent, fails a running comparison and refuses later ones with UNAVAILABLE', async () => {
  const pool = new ComparisonPool();
  await Promise.all([pool.close(), pool.close()]);
  const orders = await registered('orders', ordersApi());
  await assert.rejects(pool.compare(orders, orders), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));

  const running = new ComparisonPool();
  const comparison = running.compare(orders, { ...orders, hash: 'other' });
  await running.close();
  await running.close();
  await assert.rejects(comparison, (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
});

test('options are checked once, naming the option', () => {
  assert.throws(() => new ComparisonPool({ threads: 0 }), /options\.threads must be a positive integer/);
  assert.throws(() => new ComparisonPool({ idleTimeoutMs: 1.5 }), /options\.idleTimeoutMs must be a positive integer/);
});
