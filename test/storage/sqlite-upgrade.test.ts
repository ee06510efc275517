/**
 * The SQLite store upgrades a data folder of an earlier svc in place, at open: each migration runs
 * once, in order, and fills what it adds for the rows already there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SQLITE_FILE_NAME, SqliteStorage } from '../../src/main/storage/sqlite-storage';
import { LISTED_ENDPOINT_CHARS, LISTED_USED_FIELD_CHARS } from '../../src/main/storage/storage';
import { makeTempDir } from '../helpers/server';

test('registrations stored before their used-field counts get them, paths and the weights of endpoints and fields included', async () => {
  const dir = makeTempDir();
  const countsAt = MIGRATIONS.findIndex((migration) => migration.includes('used_field_chars'));
  const db = new Database(path.join(dir, SQLITE_FILE_NAME));
  for (let version = 0; version < countsAt; version++) db.exec(MIGRATIONS[version]!);
  db.pragma(`user_version = ${countsAt}`);
  const endpoints = (fields: string[]) => JSON.stringify([{ method: 'GET', path: '/users/{id}', usedFields: fields }, { method: 'POST', path: '/users', usedFields: ['id'] }]);
  const insert = db.prepare(`INSERT INTO consumers VALUES (?, 'users', ?, '1', '1.0.0', 1, 1, ?)`);
  insert.run('web', 'prod', endpoints(['id', 'email']));
  insert.run('app', 'dev', endpoints(['naïve']));
  db.close();

  const store = new SqliteStorage(dir);
  try {
    // Two registrations of two endpoints each, with five used fields between them.
    const weights = 4 * LISTED_ENDPOINT_CHARS + 5 * LISTED_USED_FIELD_CHARS;
    assert.deepEqual(await store.consumerUsedFields('users'), { registrations: 2, chars: 2 + 5 + 2 + 5 + 2 + 2 * ('/users/{id}'.length + '/users'.length) + weights });
    assert.equal((await store.listConsumers({ schemaId: 'users' })).length, 2, 'the registrations themselves are untouched');
  } finally {
    await store.close();
  }
});
