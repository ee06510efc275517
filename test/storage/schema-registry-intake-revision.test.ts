/**
 * A version whose engine document an earlier intake made (stored with a lower INTAKE_REVISION, or
 * before revisions were kept) is read again from its registered text when first used, written back,
 * and validated as one registered now; a text the current intake refuses keeps its stored document,
 * with a warning. Real SQLite store, real server on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { SqliteStorage } from '../../src/main/storage/sqlite-storage';
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

async function storeEarlierVersion(dataDir: string, schemaId: string, content: string): Promise<void> {
  const storage = new SqliteStorage(dataDir);
  const saved = await storage.saveSchemaVersion({
    schemaId, version: '1.0.0', content, contentHash: schemaContentHash(content), documentJson: earlierDocument(),
    openapiVersion: '3.0.3', endpointCount: 5, ownership: { owner: '', team: '', contactEmail: '', readOnly: true },
    registeredAt: 1, updatedAt: 1, intakeRevision: 0,
  }, null);
  assert.equal(saved.saved, true);
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
