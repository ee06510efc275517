/**
 * A multipart boundary is the caller's text, of any length. The body was split by an expression
 * built from it, and V8 refuses to compile one of 100,000 characters ("Regular expression too
 * large"): the call failed as INTERNAL, an engine fault, and the server logged the boundary three
 * times over. The body is split on the text itself now, and such a call gets a verdict.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFormBody } from '../../src/shared/validation/form-body';
import { startTestServer, type TestServer } from '../helpers/server';
import { registerSchema } from '../helpers/validation';

const MULTIPART = 'multipart/form-data';

const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'multipart', version: '1.0.0' },
  paths: {
    '/m': {
      post: {
        requestBody: { required: true, content: { [MULTIPART]: { schema: { type: 'object', properties: { a: { type: 'integer' } } } } } },
        responses: { 204: { description: 'stored' } },
      },
    },
  },
});

const partsOf = (boundary: string, value: string, lineBreak = '\r\n') =>
  `--${boundary}${lineBreak}content-disposition: form-data; name="a"${lineBreak}${lineBreak}${value}${lineBreak}--${boundary}--`;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'multipart', DOCUMENT);
});
after(() => server.close());

function upload(boundary: string, body: string) {
  return server.client.call('ValidateInteraction', {
    schema_id: 'multipart',
    request: { method: 'POST', path: '/m', headers: { 'content-type': `${MULTIPART}; boundary=${boundary}` }, body },
    response: { status_code: 204, headers: {}, body: '' },
  }, { deadlineMs: 30_000 });
}

test('a 100,000-character boundary gets a verdict, not INTERNAL', async () => {
  const boundary = 'x'.repeat(100_000);
  assert.deepEqual((await upload(boundary, partsOf(boundary, '1'))).errors, []);
  const wrong = await upload(boundary, partsOf(boundary, 'one'));
  assert.equal(wrong.valid, false);
  assert.match(wrong.errors[0]!, /^request body field "a": value "one" is not a valid integer/);
});

test('a body not delimited by a long boundary says so, quoting the boundary cut short', async () => {
  const answer = await upload('y'.repeat(100_000), partsOf('z', '1'));
  assert.equal(answer.errors.length, 1);
  assert.match(answer.errors[0]!, /^request body is not valid multipart\/form-data: the body is not delimited by the boundary "y+…"$/);
  assert.ok(answer.errors[0]!.length < 300, `${answer.errors[0]!.length} characters`);
});

test('CRLF and bare LF delimiters, and boundaries with expression characters, split as before', () => {
  for (const boundary of ['b', '(a+)+$', '[x]*.?', '\\d{2}']) {
    for (const lineBreak of ['\r\n', '\n']) {
      const fields = parseFormBody(MULTIPART, `${MULTIPART}; boundary="${boundary}"`, partsOf(boundary, 'v\r\nw', lineBreak));
      assert.deepEqual(fields, new Map([['a', ['v\r\nw']]]), `${boundary} ${JSON.stringify(lineBreak)}`);
    }
  }
  // `--boundary` inside a line is content, not a delimiter.
  assert.deepEqual(parseFormBody(MULTIPART, `${MULTIPART}; boundary=b`, partsOf('b', 'x--b')), new Map([['a', ['x--b']]]));
});
