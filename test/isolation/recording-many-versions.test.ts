/**
 * A RecordInteractions stream cycling through more versions than the recording service kept
 * operation matchers for (64, by content hash): each interaction rebuilt its version's matcher on the
 * main thread. With 66 versions of 2,000 operations (about 3 ms a build) another caller's
 * ValidateInteraction waited p50 529 ms, max 766 ms. Matchers are now kept as long as the registry
 * keeps the version's listing (registryOperationIndexMaxBytes), and built once per listing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordInteractions } from '../helpers/recording';
import { startTestServer, type TestServer } from '../helpers/server';
import { VALID_USER, getUserInteraction, registerSchema, usersSchemaVersion } from '../helpers/validation';

const VERSIONS = 80;
const ROUNDS = 3;

let server: TestServer;

before(async () => {
  server = await startTestServer();
  for (let v = 0; v < VERSIONS; v++) await registerSchema(server.client, 'users', usersSchemaVersion(`1.0.${v}`), `1.0.${v}`);
});
after(() => server.close());

test('interactions cycling through many versions route with the matcher of each version, built once', async () => {
  const interaction = (v: number) => ({ ...getUserInteraction('users', '1', VALID_USER), schema_version: `1.0.${v}`, consumer_id: 'cycling', valid: true });
  const { schemas } = server.server.context;
  let listed = 0;
  const operations = schemas.operations.bind(schemas);
  schemas.operations = (...args) => {
    listed++;
    return operations(...args);
  };
  const first = await recordInteractions(server.client, Array.from({ length: VERSIONS }, (_, v) => interaction(v)));
  assert.deepEqual([first.accepted, first.dropped], [VERSIONS, 0], first.message);
  assert.equal(listed, VERSIONS, 'each version is listed once');

  listed = 0;
  const cycling = await recordInteractions(server.client, Array.from({ length: VERSIONS * ROUNDS }, (_, i) => interaction(i % VERSIONS)));
  assert.deepEqual([cycling.accepted, cycling.dropped], [VERSIONS * ROUNDS, 0], cycling.message);
  assert.equal(listed, 0, 'no matcher was built again');
});
