/**
 * The write-ahead log (svc.sqlite-wal) deleted under a running server: the commits since the last
 * checkpoint lived only there, so every write acknowledged before the deletion, and every one after
 * it, was lost at the next start (after a crash or kill -9). Now the first write after the deletion
 * copies what the log held into the database file, then fails with UNAVAILABLE and is logged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { SqliteStorage, SQLITE_FILE_NAME } from '../../src/main/storage/sqlite-storage';
import { captureLogs } from '../helpers/log-capture';
import { startTestServer, tempDirsRemovedAfter } from '../helpers/server';
import { USERS_SCHEMA_TEXT } from '../helpers/validation';

const tempDir = tempDirsRemovedAfter('svc-wal-');

test('a write after the write-ahead log was deleted fails with UNAVAILABLE and is logged, never acknowledged', async () => {
  const dir = tempDir();
  const logs = captureLogs('info');
  const server = await startTestServer({ storage: 'sqlite', dataDir: dir, logger: logs.logger });
  try {
    const first = await server.client.call('RegisterSchema', { schema_id: 'before', schema_content: USERS_SCHEMA_TEXT });
    assert.equal(first.success, true, first.message);
    fs.rmSync(path.join(dir, `${SQLITE_FILE_NAME}-wal`));
    await assert.rejects(server.client.call('RegisterSchema', { schema_id: 'after', schema_content: USERS_SCHEMA_TEXT }), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.UNAVAILABLE);
      assert.match(error.details, /the registry store cannot take writes: the write-ahead log \(svc\.sqlite-wal\) was deleted while the server ran \(the writes acknowledged before it were copied into the database file\); nothing was stored/);
      return true;
    });
    assert.ok(logs.lines().some((line) => line.level === 'error' && /write refused: the write-ahead log \(svc\.sqlite-wal\) was deleted/.test(String(line.msg))), logs.text());
  } finally {
    await server.close();
  }
});

test('writes acknowledged before the write-ahead log was deleted survive the process being killed', async () => {
  const dir = tempDir();
  // A process of its own, killed (SIGKILL) as a crash would: nothing is checkpointed on the way out.
  const script = `
    const fs = require('node:fs');
    const { SqliteStorage } = require(${JSON.stringify(require.resolve('../../src/main/storage/sqlite-storage'))});
    const store = new SqliteStorage(${JSON.stringify(dir)});
    const environment = (name) => store.createEnvironment({ name, description: '', origin: 'created', createdAt: 1, createdBy: 'test' });
    (async () => {
      await environment('acknowledged');
      fs.rmSync(${JSON.stringify(path.join(dir, `${SQLITE_FILE_NAME}-wal`))});
      const after = await environment('after-deletion').then(() => 'acknowledged', (error) => error.message);
      process.stdout.write(after);
      process.kill(process.pid, 'SIGKILL');
    })();`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(child.signal, 'SIGKILL', child.stderr);
  assert.match(child.stdout, /^the registry store cannot take writes: the write-ahead log/, 'the write after the deletion was refused');
  const reopened = new SqliteStorage(dir);
  try {
    assert.deepEqual((await reopened.listEnvironments()).map((environment) => environment.name), ['acknowledged']);
  } finally {
    await reopened.close();
  }
});
