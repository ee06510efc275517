/**
 * Issue 12: the embedded store belongs to one server and never acknowledges a write it lost; a client
 * hammering the server with a bad key cannot fill the log; no part of a key reaches an error message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { ApiKeyStore } from '../../src/main/auth/api-key-store';
import { SqliteStorage, SQLITE_FILE_NAME } from '../../src/main/storage/sqlite-storage';
import { SqliteThreadStorage } from '../../src/main/storage/sqlite-thread-storage';
import { ErrorCode, type SvcError } from '../../src/shared/errors';
import { captureLogs } from '../helpers/log-capture';
import { createTestClient, startTestServer, tempDirsRemovedAfter } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction } from '../helpers/validation';
import { recordInteractions } from '../helpers/recording';

const tempDir = tempDirsRemovedAfter('svc-store-');

test('one server per data folder: a second store on the same folder is refused clearly, and no -shm file exists', async () => {
  const dir = tempDir();
  const first = new SqliteStorage(dir);
  try {
    assert.throws(() => new SqliteStorage(dir), /the data folder .* is in use by another svc server \(one server per data folder\)/);
    assert.equal(fs.existsSync(path.join(dir, `${SQLITE_FILE_NAME}-shm`)), false, 'WAL index kept in memory, not in a shared-memory file');
  } finally {
    await first.close();
  }
  const reopened = new SqliteStorage(dir);
  await reopened.close();
});

test('a data folder svc cannot use is named, with why, before SQLite is opened', () => {
  const dir = tempDir();
  const notAFolder = path.join(dir, 'a-file');
  fs.writeFileSync(notAFolder, 'not a folder');
  // Before: SQLite's own words, naming neither the folder nor what is wrong with it.
  assert.throws(() => new SqliteStorage(path.join(notAFolder, 'data')), (error: Error) => {
    assert.match(error.message, /^cannot use the data folder .*a-file\/data for the SQLite store \(svc\.sqlite\): .*ENOTDIR.*; it must be writable by the user svc runs as$/);
    return true;
  });
});

test('a second server on a data folder in use does not start, and says why', async () => {
  const dir = tempDir();
  const first = await startTestServer({ storage: 'sqlite', dataDir: dir });
  try {
    await assert.rejects(startTestServer({ storage: 'sqlite', dataDir: dir }), /the data folder .* is in use by another svc server \(one server per data folder\)/);
    const registered = await first.client.call('RegisterSchema', { schema_id: 'still-served', schema_content: USERS_SCHEMA_TEXT });
    assert.equal(registered.success, true, registered.message);
  } finally {
    await first.close();
  }
  // The store's own thread (the server's) opens the folder and answers every call.
  const store = new SqliteThreadStorage(dir);
  try {
    assert.deepEqual((await store.loadSchemaIndex()).map((summary) => summary.schemaId), ['still-served']);
    const content = await store.getSchemaContentBytes('still-served', (await store.loadSchemaVersions('still-served'))[0]!.version);
    assert.ok(Buffer.isBuffer(content), 'a schema\'s bytes arrive as a Buffer');
    assert.equal(content.toString('utf8'), USERS_SCHEMA_TEXT);
  } finally {
    await store.close();
  }
  await assert.rejects(store.listEnvironments(), (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /the registry store is closed/.test(error.message));
});

test('a database file deleted under a running server: writes fail with UNAVAILABLE and are logged, never acknowledged', async () => {
  const dir = tempDir();
  const logs = captureLogs('info');
  const server = await startTestServer({ storage: 'sqlite', dataDir: dir, logger: logs.logger });
  try {
    const first = await server.client.call('RegisterSchema', { schema_id: 'before', schema_content: USERS_SCHEMA_TEXT });
    assert.equal(first.success, true, first.message);
    fs.rmSync(path.join(dir, SQLITE_FILE_NAME));
    await assert.rejects(server.client.call('RegisterSchema', { schema_id: 'after', schema_content: USERS_SCHEMA_TEXT }), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.UNAVAILABLE);
      assert.match(error.details, /the registry store cannot take writes: the database file was deleted while the server ran; nothing was stored/);
      return true;
    });
    assert.ok(logs.lines().some((line) => line.level === 'error' && /write refused: the database file was deleted/.test(String(line.msg))), logs.text());
    // Recorded traffic too: its answer comes once the interactions are written, so the call fails.
    const interaction = { ...getUserInteraction('before', '42', VALID_USER), environment: 'prod', consumer_id: 'web', valid: true };
    await assert.rejects(recordInteractions(server.client, [interaction, interaction]), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.UNAVAILABLE);
      assert.match(error.details, /^2 recorded interaction\(s\) were not stored: the registry store cannot take writes: the database file was deleted while the server ran/);
      return true;
    });
  } finally {
    await server.close();
  }
});

test('recorded interactions are acknowledged once stored: the answer follows the write', async () => {
  const dir = tempDir();
  const server = await startTestServer({ storage: 'sqlite', dataDir: dir });
  try {
    await server.client.call('RegisterSchema', { schema_id: 'users', schema_content: USERS_SCHEMA_TEXT });
    const { storage } = server.server.context;
    const addUsage = storage.addUsage.bind(storage);
    let storedCalls = 0;
    storage.addUsage = async (additions, ...rest) => {
      await addUsage(additions, ...rest);
      storedCalls += additions.reduce((sum, addition) => sum + addition.callCount, 0);
    };
    const interaction = { ...getUserInteraction('users', '42', VALID_USER), environment: 'prod', consumer_id: 'web', valid: true };
    const answer = await recordInteractions(server.client, [interaction, interaction, interaction]);
    assert.equal(answer.accepted, 3, answer.message);
    assert.equal(storedCalls, 3, 'the three interactions were written before the answer');
  } finally {
    await server.close();
  }
});

test('a key shorter than apiKeyWarnBelowChars is named in a warning at start and on reload, its text never', async () => {
  const logs = captureLogs('info');
  const dir = tempDir();
  const file = path.join(dir, 'keys.json');
  fs.writeFileSync(file, JSON.stringify([{ name: 'ci', key: 'ci-pipeline-key-0001' }]));
  const server = await startTestServer({ apiKeyAuth: true, logger: logs.logger, env: { SVC_API_KEYS: 'tiny-key', SVC_API_KEYS_FILE: file } });
  try {
    const warnings = () => logs.lines().filter((line) => line.level === 'warn' && Array.isArray(line.keys));
    assert.deepEqual(warnings().map((line) => line.keys), [['env-1']]);
    assert.match(String(warnings()[0]!.msg), new RegExp(`an API key is shorter than ${LIMITS.apiKeyWarnBelowChars} characters and could be guessed; replace env-1`));

    fs.writeFileSync(file, JSON.stringify([{ name: 'ci', key: 'ci-pipeline-key-0001' }, { name: 'abc-team', key: 'abc' }]));
    assert.deepEqual(server.server.reloadApiKeys(), { reloaded: true });
    assert.deepEqual(warnings().map((line) => line.keys), [['env-1'], ['env-1', 'abc-team']]);
    assert.ok(!logs.text().includes('tiny-key'), 'no key text in the log');
    assert.ok(!logs.text().includes('"abc"'), 'no key text in the log');
  } finally {
    await server.close();
  }
});

test('refused API keys write at most authFailureAuditLinesPerMinute audit lines; the rest are counted and summed', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ apiKeyAuth: true, logger: logs.logger, env: { SVC_API_KEYS: 'right-key' } });
  const wrong = createTestClient(server.address);
  try {
    const attempts = LIMITS.authFailureAuditLinesPerMinute + 40;
    const metadata = new grpc.Metadata();
    metadata.set('x-api-key', 'wrong-key');
    for (let i = 0; i < attempts; i++) {
      await assert.rejects(wrong.call('ListSchemas', {}, { metadata }), (error: grpc.ServiceError) => error.code === grpc.status.UNAUTHENTICATED);
    }
    const auditLines = logs.lines().filter((line) => line.event_type === 'auth_failure');
    assert.equal(auditLines.length, LIMITS.authFailureAuditLinesPerMinute);
    assert.ok(!logs.text().includes('wrong-key'), 'no key text in the log');
    const metrics = await server.server.context.metrics.render();
    assert.match(metrics, new RegExp(`svc_auth_failure_total\\{reason="invalid_key"\\} ${attempts}`));
  } finally {
    wrong.close();
    await server.close();
  }
});

test('a keys file with an unquoted key is refused without echoing any of it', () => {
  const dir = tempDir();
  const file = path.join(dir, 'keys.json');
  fs.writeFileSync(file, '[{"name": "ci", "key": sk_live_abcdef123456}]');
  assert.throws(() => ApiKeyStore.load({ SVC_API_KEYS_FILE: file }), (error: Error) => {
    assert.match(error.message, /keys\.json: not valid JSON \((unexpected character at line \d+, column \d+|the text ends early or holds an unexpected character)\)$/);
    assert.ok(!error.message.includes('sk_live'), error.message);
    assert.ok(!error.message.includes('abcdef'), error.message);
    return true;
  });
});
