/**
 * A comparison's answer is bounded in characters (compareMaxChangeChars), not only in changes: every
 * change repeats its endpoint's path. Two 36 KB versions of one operation per method with a
 * 10,000-character path and 1,000 response properties that change type listed 8,000 changes of
 * 161 M characters: the comparison thread built them for 21 s, the main thread took them in (the
 * server grew by 790 MB), and CompareSchemas or RegisterSchema's compatibility check then failed to
 * send its answer ("Sent message larger than max"). Now the engine stops at the limit at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { longPathChangesDocument } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerSchema } from '../helpers/validation';

/** Characters of the one path: 8,000 changes repeating it pass compareMaxChangeChars 19 times over. */
const PATH_CHARS = 10_000;
/** The hostile call's answer, well under the 21 s it took (and an answer it could not get) before. */
const HOSTILE_BOUND_MS = 8_000;
/** A neighbour's validation while the comparison runs and answers. */
const NEIGHBOUR_BOUND_MS = 400;
/** Growth of the server's process (in-process server) over the hostile calls; 790 MB before. */
const RSS_GROWTH_BOUND_BYTES = 300 * 1024 * 1024;

const longPathDocument = (version: string, changed: boolean) => longPathChangesDocument(version, changed, PATH_CHARS);

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await server.client.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  await registerSchema(server.client, 'long', longPathDocument('1.0.0', false), '1.0.0');
  await registerSchema(server.client, 'long', longPathDocument('2.0.0', true), '2.0.0');
});
after(() => server.close());

const neighbourValidation = () => server.client.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));

test('CompareSchemas of changes too long to list fails at once naming compareMaxChangeChars; a neighbour is not held', async () => {
  const rssBefore = process.memoryUsage().rss;
  const { answer, hostileMs, neighbourMs } = await neighbourWhile(
    () => server.client.call('CompareSchemas', { schema_id: 'long', old_version: '1.0.0', new_version: '2.0.0' }, { deadlineMs: HOSTILE_BOUND_MS }),
    neighbourValidation,
  );
  assert.equal(answer.compatible, false);
  assert.deepEqual(answer.breaking_changes, []);
  assert.match(answer.message, new RegExp(`more than ${LIMITS.compareMaxChangeChars} characters to list \\(compareMaxChangeChars`));
  assert.match(answer.message, /they are not compatible/);
  assert.ok(hostileMs < HOSTILE_BOUND_MS, `the comparison answered in ${Math.round(hostileMs)} ms`);
  assert.ok(neighbourMs.at(-1)! < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(neighbourMs.at(-1)!)} ms`);
  assert.ok(process.memoryUsage().rss - rssBefore < RSS_GROWTH_BOUND_BYTES, `the server grew by ${Math.round((process.memoryUsage().rss - rssBefore) / 2 ** 20)} MiB`);
});

test("RegisterSchema's compatibility check says why it could not check, and registers", async () => {
  const answer = await server.client.call('RegisterSchema', {
    schema_id: 'long', schema_version: '3.0.0', schema_content: longPathDocument('3.0.0', false), check_compatibility: true,
  }, { deadlineMs: HOSTILE_BOUND_MS });
  // 2.0.0 → 3.0.0 turns the strings back into integers: as many changes as before.
  assert.equal(answer.success, true, answer.message);
  assert.deepEqual(answer.breaking_changes, []);
  assert.match(answer.message, /compatibility with 2\.0\.0 could not be checked: .*\(compareMaxChangeChars/);
});
