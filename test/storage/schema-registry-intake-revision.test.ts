/**
 * A version whose engine document an earlier intake made (stored with a lower INTAKE_REVISION, or
 * before revisions were kept) is read again from its registered text when first used, written back,
 * and validated as one registered now; a text the current intake refuses keeps its stored document,
 * with a warning. Real SQLite store, real server on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DEFAULT_DOCUMENT_TASK_POOL_OPTIONS, DocumentTaskPool } from '../../src/main/document-task-pool';
import { SchemaRegistry } from '../../src/main/registry/schema-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { SqliteStorage } from '../../src/main/storage/sqlite-storage';
import type { Storage } from '../../src/main/storage/storage';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { INTAKE_REVISION, intakeSchema } from '../../src/shared/openapi/schema-intake';
import { schemaContentHash } from '../../src/shared/schema-records';
import { captureLogs } from '../helpers/log-capture';
import { makeTempDir, startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT } from '../helpers/validation';

/** What an earlier intake made of the users text, in this test: a User that also requires `nickname`. */
function earlierDocument(): string {
  const document = JSON.parse(USERS_SCHEMA_TEXT) as { components: { schemas: { User: { required: string[] } } } };
  document.components.schemas.User.required.push('nickname');
  return JSON.stringify(document);
}

async function storeEarlierVersions(storage: Storage, schemaIds: string[], text: string | ((schemaId: string) => string)): Promise<void> {
  for (const schemaId of schemaIds) {
    const content = typeof text === 'string' ? text : text(schemaId);
    const saved = await storage.saveSchemaVersion({
      schemaId, version: '1.0.0', content, contentHash: schemaContentHash(content), documentJson: earlierDocument(),
      openapiVersion: '3.0.3', endpointCount: 5, ownership: { owner: '', team: '', contactEmail: '', readOnly: true },
      registeredAt: 1, updatedAt: 1, intakeRevision: 0,
    }, null);
    assert.equal(saved.saved, true);
  }
}

async function storeEarlierVersion(dataDir: string, schemaId: string, content: string): Promise<void> {
  const storage = new SqliteStorage(dataDir);
  await storeEarlierVersions(storage, [schemaId], content);
  await storage.close();
}

const getUser = (schemaId: string) => ({
  schema_id: schemaId,
  request: { method: 'GET', path: '/users/7', headers: { 'x-api-key': 'k' }, body: '' },
  response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"id":7,"email":"a@example.com"}' },
});

test('a version stored by an earlier intake is read again from its text, validated as registered now, and written back', async () => {
  const dataDir = makeTempDir('svc-intake-revision-');
  await storeEarlierVersion(dataDir, 'users', USERS_SCHEMA_TEXT);
  const server = await startTestServer({ storage: 'sqlite', dataDir });
  try {
    const answers = await Promise.all([server.client.call('ValidateInteraction', getUser('users')), server.client.call('ValidateInteraction', getUser('users'))]);
    for (const answer of answers) assert.deepEqual([answer.valid, answer.errors], [true, []], 'the earlier document required nickname');
    const stored = await server.server.context.storage.getSchemaDocument('users', '1.0.0');
    assert.deepEqual(stored, { contentHash: schemaContentHash(USERS_SCHEMA_TEXT), documentJson: (await intakeSchema(USERS_SCHEMA_TEXT)).documentJson, intakeRevision: INTAKE_REVISION });
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a stored text the current intake refuses keeps its stored document, with a warning', async () => {
  const dataDir = makeTempDir('svc-intake-revision-');
  // An external $ref, which intake refuses (it may have been let through by an earlier one).
  const refused = USERS_SCHEMA_TEXT.replace('"name": { "type": "string" }', '"name": { "$ref": "https://example.com/name.json" }');
  assert.notEqual(refused, USERS_SCHEMA_TEXT);
  await assert.rejects(intakeSchema(refused), 'the text is refused now');
  await storeEarlierVersion(dataDir, 'kept', refused);
  const logs = captureLogs('info');
  const server = await startTestServer({ storage: 'sqlite', dataDir, logger: logs.logger });
  try {
    const answer = await server.client.call('ValidateInteraction', getUser('kept'));
    assert.equal(answer.valid, false);
    assert.match(answer.errors.join('; '), /nickname/, 'validated by the stored document');
    const warning = logs.lines().find((line) => String(line.msg).includes('could not be read again'));
    assert.match(String(warning?.msg), /^schema kept version 1\.0\.0 was stored by an earlier intake \(revision 0, now \d+\) and could not be read again from its text; its stored document is used: /);
    assert.equal((await server.server.context.storage.getSchemaDocument('kept', '1.0.0'))?.intakeRevision, 0);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('many versions of an earlier intake first used at once are all read again: none waits past the document-task queue', async () => {
  const dataDir = makeTempDir('svc-intake-revision-');
  const storage = new SqliteStorage(dataDir);
  const schemaIds = Array.from({ length: 40 }, (_, i) => `users-${i}`);
  // Texts of their own: versions of one text share one compiled contract, and one reading.
  await storeEarlierVersions(storage, schemaIds, (schemaId) => USERS_SCHEMA_TEXT.replace('"title": "Users"', `"title": "Users ${schemaId}"`));
  await storage.close();
  const server = await startTestServer({ storage: 'sqlite', dataDir });
  try {
    // Forty at once: more than one caller may queue (documentTaskMaxQueuedPerCaller, 16), which refused the rest.
    const answers = await Promise.all(schemaIds.map((schemaId) => server.client.call('ValidateInteraction', getUser(schemaId))));
    assert.deepEqual(answers.filter((answer) => !answer.valid).map((answer) => answer.errors.join('; ')), []);
    for (const schemaId of schemaIds) assert.equal((await server.server.context.storage.getSchemaDocument(schemaId, '1.0.0'))?.intakeRevision, INTAKE_REVISION, schemaId);
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a stored text the current intake refuses is read once per process, however often its document leaves the cache', async () => {
  const storage = new MemoryStorage();
  const refused = USERS_SCHEMA_TEXT.replace('"name": { "type": "string" }', '"name": { "$ref": "https://example.com/name.json" }');
  await storeEarlierVersions(storage, ['kept'], refused);
  await storeEarlierVersions(storage, ['other'], USERS_SCHEMA_TEXT);
  let intakes = 0;
  const registry = await SchemaRegistry.open(storage, {
    documentCacheEntries: 1,
    intake: async (content) => { intakes++; return intakeSchema(content); },
  });
  for (let use = 0; use < 3; use++) {
    assert.match((await registry.documentSource('kept', '1.0.0')).documentJson, /nickname/);
    await registry.documentSource('other', '1.0.0'); // takes the cache's one entry
  }
  assert.equal(intakes, 2, 'the refused text once, the other text once (then written back)');
});

test('threads too busy to read a stored text again fail the call to be retried, and hand out no earlier document', async () => {
  const storage = new MemoryStorage();
  await storeEarlierVersions(storage, ['users'], USERS_SCHEMA_TEXT);
  let busy = true;
  const registry = await SchemaRegistry.open(storage, {
    intake: async (content) => {
      if (busy) throw new SvcError(ErrorCode.OVERLOADED, '16 document tasks are waiting for a thread');
      return intakeSchema(content);
    },
  });
  await assert.rejects(registry.documentSource('users', '1.0.0'), (error: unknown) => error instanceof SvcError && error.code === ErrorCode.OVERLOADED
    && error.message === 'schema users version 1.0.0 is read again from its text after an upgrade of svc, and the threads that read texts are busy: retry shortly');
  busy = false;
  assert.doesNotMatch((await registry.documentSource('users', '1.0.0')).documentJson, /nickname/, 'read again on the next call');
  assert.equal((await storage.getSchemaDocument('users', '1.0.0'))?.intakeRevision, INTAKE_REVISION);
});

test('a reading stopped by its time budget fails the call to be retried, up to three times, then counts as refused', async () => {
  const storage = new MemoryStorage();
  await storeEarlierVersions(storage, ['slow', 'late'], USERS_SCHEMA_TEXT.replace('"title": "Users"', '"title": "Users slow"'));
  // A real document-task pool whose intake budget no reading meets: what a loaded host may do once.
  const tasks = new DocumentTaskPool({ threads: 1, budgetMs: { ...DEFAULT_DOCUMENT_TASK_POOL_OPTIONS.budgetMs, intake: 1 } });
  let pooled = true;
  const registry = await SchemaRegistry.open(storage, {
    intake: async (content, caller) => pooled ? (await tasks.run<'intake'>({ kind: 'intake', text: content }, caller)).schema : intakeSchema(content),
  });
  try {
    const outOfTime = (error: unknown) => error instanceof SvcError && error.code === ErrorCode.OVERLOADED && /and the reading ran out of time: retry shortly/.test(error.message);
    await assert.rejects(registry.documentSource('slow', '1.0.0'), outOfTime);
    pooled = false;
    assert.doesNotMatch((await registry.documentSource('slow', '1.0.0')).documentJson, /nickname/, 'read again once the host is quiet');
    pooled = true;
    await assert.rejects(registry.documentSource('late', '1.0.0'), outOfTime);
    await assert.rejects(registry.documentSource('late', '1.0.0'), outOfTime);
    assert.match((await registry.documentSource('late', '1.0.0')).documentJson, /nickname/, 'the third stop: its stored document');
  } finally {
    await tasks.close();
  }
});
