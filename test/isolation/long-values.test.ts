/**
 * Issue 12: long values get right answers. A 4.7 M-character `format: byte` string and an 8.7 M-character
 * data `uri` overflowed the format's regular expression and were reported invalid ("the schema refers
 * to itself without end"); they are checked in linear time now, and a wrong value is still caught.
 * A long URI with a space once passed (the overflow fell back to a more lenient URL parser): every
 * format's own expression decides now, on RE2 when V8 runs out of stack (format-checks.ts). A `url` of
 * 200,000 colons ran past validationMaxMs on ajv-formats' expression and got no verdict; its check is
 * linear now.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isBase64 } from '../../src/shared/validation/format-checks';
import { startTestServer, type TestServer } from '../helpers/server';
import { registerSchema } from '../helpers/validation';

const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'uploads', version: '1.0.0' },
  paths: {
    '/uploads': {
      post: {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: {
            data: { type: 'string', format: 'byte' }, source: { type: 'string', format: 'uri' }, contact: { type: 'string', format: 'email' },
            link: { type: 'string', format: 'url' },
          } } } },
        },
        responses: { '204': { description: 'stored' } },
      },
    },
  },
});

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'uploads', DOCUMENT);
});
after(() => server.close());

function upload(body: object) {
  return server.client.call('ValidateInteraction', {
    schema_id: 'uploads',
    request: { method: 'POST', path: '/uploads', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    response: { status_code: 204, headers: {}, body: '' },
  }, { deadlineMs: 60_000 });
}

test('a 4.7 M-character base64 value and an 8.7 M-character data URI are valid', async () => {
  const data = 'QUJD'.repeat(1_175_000); // 4.7 M characters
  const answer = await upload({ data });
  assert.deepEqual(answer.errors, []);
  const source = `data:application/octet-stream;base64,${'QUJD'.repeat(2_175_000)}`; // about 8.7 M characters
  const uri = await upload({ source });
  assert.deepEqual(uri.errors, []);
});

test('a long value that is not base64 is reported as a format violation, not as an engine fault', async () => {
  const answer = await upload({ data: `${'QUJD'.repeat(1_175_000)}!` });
  assert.equal(answer.valid, false);
  assert.equal(answer.errors.length, 1);
  assert.match(answer.errors[0]!, /format "byte"/);
  assert.doesNotMatch(answer.errors[0]!, /refers to itself/);
});

test('long URIs and e-mail addresses get their format\'s verdict: a space in an 8.7 M-character URI is caught', async () => {
  const source = `https://example.com/${'a/'.repeat(4_350_000)}`; // 8.7 M characters: V8 runs out of stack on it
  assert.deepEqual((await upload({ source })).errors, []);
  const spaced = await upload({ source: `${source} ` });
  assert.equal(spaced.valid, false);
  assert.equal(spaced.errors.length, 1);
  assert.match(spaced.errors[0]!, /^request body \/source: .*format "uri"/);
  const contact = `${'a.'.repeat(4_350_000)}a@example.com`;
  assert.deepEqual((await upload({ contact })).errors, []);
  const wrong = await upload({ contact: `${contact}.` });
  assert.equal(wrong.valid, false);
  assert.match(wrong.errors[0]!, /format "email"/);
});

test('a url of 200,000 colons gets its verdict at once, not a refusal after validationMaxMs', async () => {
  // ajv-formats' expression backtracked for a time quadratic in the length: the call ran 10 s, then failed.
  const started = performance.now();
  const answer = await upload({ link: `http://${':'.repeat(200_000)}` });
  const ms = performance.now() - started;
  assert.deepEqual(answer.errors, ['request body /link: must match format "url"']);
  assert.ok(ms < 2_000, `${ms.toFixed(0)} ms`);
  assert.deepEqual((await upload({ link: `http://user:pw@example.com/${'a'.repeat(1_000_000)}` })).errors, []);
});

test('isBase64 follows RFC 4648 with padding', () => {
  for (const valid of ['', 'QQ==', 'QUI=', 'QUJD', 'a+/9']) assert.equal(isBase64(valid), true, valid);
  for (const invalid of ['Q', 'QQ=', 'Q===', '====', 'QU=D', 'QUJD!', 'QUJ\u00e9']) assert.equal(isBase64(invalid), false, invalid);
});
