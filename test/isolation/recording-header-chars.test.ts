/**
 * A recorded interaction's headers had no size limit: its sample, headers included, was written out
 * as JSON on the main thread before the usage registry found it over maxSampleBytes, and four
 * interactions with 20 MB header values held another client's validation calls 150–265 ms each.
 * Headers over recordingMaxHeaderChars now drop their interaction before it is described, naming the
 * limit, as a body over recordingMaxBodyChars does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { recordInteractions } from '../helpers/recording';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, registerSchema } from '../helpers/validation';

const LIMIT = LIMITS.recordingMaxHeaderChars;
const OVER = `not kept: 1 with headers over the limit of ${LIMIT} characters (recordingMaxHeaderChars)`;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
});
after(() => server.close());

function recorded(requestHeaders: Record<string, string>, responseHeaders: Record<string, string> = {}) {
  return {
    schema_id: 'users', schema_version: '1.0.0', environment: 'prod', consumer_id: 'web',
    request: { method: 'GET', path: '/users/42', headers: requestHeaders, body: '' },
    response: { status_code: 200, headers: { 'content-type': 'application/json', ...responseHeaders }, body: JSON.stringify(VALID_USER) },
    valid: true, read_fields: [], read_fields_tracked: false,
  };
}

test('headers over recordingMaxHeaderChars on either side drop their interaction, naming the limit', async () => {
  assert.deepEqual(await recordInteractions(server.client, [recorded({ 'x-big': 'v'.repeat(20_000_000) })]), { accepted: 0, dropped: 1, message: OVER });
  assert.deepEqual(await recordInteractions(server.client, [recorded({}, { 'x-big': 'v'.repeat(LIMIT) })]), { accepted: 0, dropped: 1, message: OVER });
  // Names count too, over all entries together.
  const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`x-${'n'.repeat(600)}-${i}`, 'v']));
  assert.deepEqual(await recordInteractions(server.client, [recorded(many)]), { accepted: 0, dropped: 1, message: OVER });
});

test('headers within recordingMaxHeaderChars are kept', async () => {
  assert.deepEqual(await recordInteractions(server.client, [recorded({ 'x-small': 'v'.repeat(1_000) })]), { accepted: 1, dropped: 0, message: '' });
});
