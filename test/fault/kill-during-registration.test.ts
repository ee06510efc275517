/**
 * kill -9 while registrations are in flight: after a restart every registration the server
 * acknowledged is there with its content, and SQLite's integrity check passes.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { minimalDocument } from '../helpers/documents';
import { createTestClient, makeTempDir, spawnServerProcess } from '../helpers/server';
import { SQLITE_FILE_NAME } from '../../src/main/storage/sqlite-storage';

const WRITERS = 8;
const MAX_REGISTRATIONS = 400;
/** The kill comes this long after the first acknowledgement, with writes still in flight. */
const KILL_AFTER_MS = 300;
/** The first acknowledgement may wait for the intake workers to load on a busy machine. */
const FIRST_ACK_TIMEOUT_MS = 15_000;

describe('kill -9 during registrations', () => {
  const dataDir = makeTempDir('svc-kill-');
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('loses no acknowledged registration and leaves the database intact', async () => {
    const server = await spawnServerProcess({ dataDir });
    const client = createTestClient(server.address);
    const acknowledged: Array<{ id: string; version: string; content: string }> = [];
    let next = 0;
    let killed = false;

    const writer = async () => {
      while (!killed && next < MAX_REGISTRATIONS) {
        const n = next++;
        const id = `s${n % 20}`;
        const version = `1.0.${n}`;
        const content = minimalDocument(version, {}, `doc ${n}`);
        try {
          const response = await client.call('RegisterSchema', { schema_id: id, schema_content: content, schema_version: version }, { deadlineMs: 5_000 });
          if (response.success) acknowledged.push({ id, version, content });
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    const firstAckDeadline = Date.now() + FIRST_ACK_TIMEOUT_MS;
    while (acknowledged.length === 0 && Date.now() < firstAckDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS));
    killed = true;
    assert.equal(await server.stop('SIGKILL'), 'SIGKILL');
    await Promise.all(writers);
    client.close();
    assert.ok(acknowledged.length > 0, 'some registrations were acknowledged before the kill');

    const db = new Database(path.join(dataDir, SQLITE_FILE_NAME), { readonly: false });
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    db.close();

    const restarted = await spawnServerProcess({ dataDir });
    const reader = createTestClient(restarted.address);
    try {
      for (const { id, version, content } of acknowledged) {
        const got = await reader.call('GetSchema', { schema_id: id, schema_version: version });
        assert.equal(got.found, true, `${id}@${version} was acknowledged and must survive`);
        assert.equal(got.schema_content, content);
      }
    } finally {
      reader.close();
      await restarted.stop();
    }
  });
});
