/**
 * The engine never crashes or hangs on documents the registry accepts: recursive and fan-out
 * references, cyclic allOf/oneOf, wide alternatives; and it
 * fails closed (LIMIT_EXCEEDED, never a partial answer) when a document passes its bounds.
 * (Every pair of corpus documents is compared in compare-corpus.test.ts, where they are loaded.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDocuments } from '../../src/shared/compare';
import { ErrorCode, isSvcError } from '../../src/shared/errors';
import type { JsonObject } from '../../src/shared/json';
import { LIMITS } from '../../src/shared/limits';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { OpenApiDocument } from '../../src/shared/openapi/document';

function document(schemas: JsonObject, root: string, version = '1.0.0'): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 'Robust', version },
    paths: {
      '/things': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${root}` } } } },
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${root}` } } } } },
        },
      },
    },
    components: { schemas: schemas },
  };
}

function documentWith(schemas: JsonObject, root: string, version = '1.0.0'): string {
  return JSON.stringify(document(schemas, root, version));
}

async function compareTexts(oldText: string, newText: string, options?: Parameters<typeof compareDocuments>[2]) {
  const [oldSchema, newSchema] = await Promise.all([loadSchema(oldText), loadSchema(newText)]);
  return compareDocuments(oldSchema.document, newSchema.document, options);
}

/** Level i refers to level i+1 twice: 2^levels paths through the references, `levels` distinct schemas. */
function fanOut(levels: number, leafType: string): JsonObject {
  const schemas: JsonObject = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/components/schemas/L${level + 1}` };
    schemas[`L${level}`] = { type: 'object', properties: { left: next, right: next } };
  }
  schemas[`L${levels}`] = { type: 'object', properties: { value: { type: leafType } } };
  return schemas;
}

// Built as objects, so the engine itself is what is measured (intake has its own fan-out regression test).
test('references that fan out 2^24 ways are compared once per schema pair, and the deep change is reported once per location', () => {
  const started = Date.now();
  const changes = compareDocuments(document(fanOut(24, 'string'), 'L0'), document(fanOut(24, 'integer'), 'L0', '2.0.0'));
  assert.deepEqual(changes.map((change) => change.type), ['TYPE_CHANGED', 'TYPE_CHANGED']);
  assert.match(changes[0]!.description, /request body \(application\/json\) field "left(\.left){23}\.value" changed type from string to integer \(at #\/components\/schemas\/L24\/properties\/value\)/);
  assert.match(changes[1]!.description, /response 200 \(application\/json\) field "left(\.left){23}\.value"/);
  assert.ok(Date.now() - started < 5_000, 'bounded time');
});

test('cyclic allOf, self-referencing oneOf and recursive arrays terminate', async () => {
  const schemas = (extra: JsonObject): JsonObject => ({
    Node: { allOf: [{ $ref: '#/components/schemas/Node' }, { type: 'object', properties: { id: { type: 'string' }, ...extra } }] },
    Expr: { oneOf: [{ $ref: '#/components/schemas/Expr' }, { type: 'array', items: { $ref: '#/components/schemas/Expr' } }, { type: 'string' }] },
    Root: { type: 'object', properties: { node: { $ref: '#/components/schemas/Node' }, expr: { $ref: '#/components/schemas/Expr' } } },
  });
  const same = await compareTexts(documentWith(schemas({ tag: { type: 'string' } }), 'Root'), documentWith(schemas({ tag: { type: 'string' } }), 'Root'));
  assert.deepEqual(same, []);
  const changed = await compareTexts(documentWith(schemas({ tag: { type: 'string' } }), 'Root'), documentWith(schemas({}), 'Root'));
  assert.deepEqual(changed.map((change) => [change.type, /field "([^"]+)"/.exec(change.description)?.[1]]), [['RESPONSE_SCHEMA_CHANGED', 'node.tag']]);
});

test('wide oneOf lists (200 inline alternatives, reordered) stay bounded', async () => {
  const alternatives = Array.from({ length: 200 }, (_, i) => ({ type: 'object', required: [`p${i}`], properties: { [`p${i}`]: { type: 'string' } } }));
  const started = Date.now();
  const changes = await compareTexts(
    documentWith({ Wide: { oneOf: alternatives } }, 'Wide'),
    documentWith({ Wide: { oneOf: [...alternatives].reverse() } }, 'Wide', '2.0.0'),
  );
  assert.deepEqual(changes, []);
  assert.ok(Date.now() - started < 5_000, 'bounded time');
});

function chain(depth: number, leafType: string): JsonObject {
  const schemas: JsonObject = {};
  for (let i = 0; i < depth; i++) schemas[`C${i}`] = { type: 'object', properties: { next: { $ref: `#/components/schemas/C${i + 1}` } } };
  schemas[`C${depth}`] = { type: leafType };
  return schemas;
}

test('the deepest reference chain intake accepts compares with the default bounds', async () => {
  const changes = await compareTexts(documentWith(chain(240, 'string'), 'C0'), documentWith(chain(240, 'boolean'), 'C0', '2.0.0'));
  assert.deepEqual(changes.map((change) => change.type), ['TYPE_CHANGED', 'TYPE_CHANGED']);
});

test('a reference chain deeper than maxDepth fails with LIMIT_EXCEEDED naming the limit, never a stack overflow', () => {
  const oldDocument = document(chain(400, 'string'), 'C0');
  const newDocument = document(chain(400, 'string'), 'C0', '2.0.0');
  assert.throws(() => compareDocuments(oldDocument, newDocument), (error: unknown) => {
    assert.ok(isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED, String(error));
    assert.match(error.message, /compareMaxDepth/);
    return true;
  });
  assert.deepEqual(compareDocuments(oldDocument, newDocument, { maxDepth: 500 }), [], 'a larger bound compares it');
});

test('a comparison that needs more than maxSteps fails with LIMIT_EXCEEDED naming the limit', () => {
  assert.throws(() => compareDocuments(document(fanOut(10, 'string'), 'L0'), document(fanOut(10, 'string'), 'L0'), { maxSteps: 20 }), (error: unknown) => {
    assert.ok(isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED, String(error));
    assert.match(error.message, /compareMaxSteps/);
    return true;
  });
});

test('more breaking changes than maxChanges fail with LIMIT_EXCEEDED, never a partial list; the default is compareMaxChanges', () => {
  /** An API of `count` endpoints, or of none: removing them all is `count` breaking changes. */
  const endpoints = (count: number): OpenApiDocument => ({
    openapi: '3.0.3',
    info: { title: 'Many', version: '1.0.0' },
    paths: Object.fromEntries(Array.from({ length: count }, (_, i) => [`/things${i}`, { get: { responses: { '200': { description: 'ok' } } } }])),
  });
  assert.equal(compareDocuments(endpoints(5), endpoints(0), { maxChanges: 5 }).length, 5, 'up to the bound, every change is listed');
  assert.throws(() => compareDocuments(endpoints(6), endpoints(0), { maxChanges: 5 }), (error: unknown) => {
    assert.ok(isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED, String(error));
    assert.equal(error.message, 'the versions differ by more than 5 breaking changes (compareMaxChanges), too many to list; they are not compatible');
    return true;
  });
  assert.equal(compareDocuments(endpoints(LIMITS.compareMaxChanges), endpoints(0)).length, LIMITS.compareMaxChanges);
  assert.throws(() => compareDocuments(endpoints(LIMITS.compareMaxChanges + 1), endpoints(0)), /compareMaxChanges/);
});

test('changes whose characters pass maxChangeChars fail with LIMIT_EXCEEDED, however few they are', () => {
  /** One endpoint with a long path, removed: one change that repeats the path in its path, description and old value. */
  const longPath = (present: boolean): OpenApiDocument => ({
    openapi: '3.0.3',
    info: { title: 'Long', version: '1.0.0' },
    paths: present ? { [`/${'a'.repeat(1_000)}`]: { get: { responses: { '200': { description: 'ok' } } } } } : {},
  });
  assert.equal(compareDocuments(longPath(true), longPath(false), { maxChangeChars: 5_000 }).length, 1);
  assert.throws(() => compareDocuments(longPath(true), longPath(false), { maxChangeChars: 2_000 }), (error: unknown) => {
    assert.ok(isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED, String(error));
    assert.match(error.message, /more than 2000 characters to list \(compareMaxChangeChars/);
    return true;
  });
});

test('dangling references and boolean schemas compare as unknown instead of failing', () => {
  const document = (schema: unknown): OpenApiDocument =>
    ({
      openapi: '3.1.0',
      info: { title: 'Loose', version: '1' },
      paths: { '/x': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
    }) as OpenApiDocument;
  assert.deepEqual(compareDocuments(document({ $ref: '#/components/schemas/Missing' }), document({ type: 'string' })), []);
  assert.deepEqual(compareDocuments(document(true), document(false)), []);
  assert.deepEqual(compareDocuments(document({ $ref: '#/a' }), document({ $ref: 'https://example.com/x' })), []);
});

test('a schema of more allOf parts than the engine expands fails with LIMIT_EXCEEDED, never a comparison of the first ones', () => {
  const parts = (required: boolean) => Array.from({ length: 300 }, (_, i) => ({
    type: 'object', properties: { [`p${i}`]: { type: 'string' } }, ...(required && i === 299 ? { required: [`p${i}`] } : {}),
  }));
  const oldDocument = document({ Wide: { allOf: parts(false) } }, 'Wide');
  const newDocument = document({ Wide: { allOf: parts(true) } }, 'Wide', '2.0.0');
  assert.throws(() => compareDocuments(oldDocument, newDocument), (error: unknown) => {
    assert.ok(isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED, String(error));
    assert.match(error.message, /more than 256 allOf parts/);
    return true;
  });
});
