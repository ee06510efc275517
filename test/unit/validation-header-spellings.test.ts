/**
 * A header sent under two spellings of its name (`X-Rate` and `x-rate`, which HTTP reads as one
 * field of two lines) was checked by one of them alone: `X-Rate: nope` beside `x-rate: 5` was valid,
 * and so was `Content-Type: text/plain` beside `content-type: application/json`. Every spelling's
 * value counts now, joined as HTTP joins a field's lines; a value repeated under another spelling
 * adds nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledContract } from '../../src/shared/validation';
import { headerValue } from '../../src/shared/validation/headers';

const contract = new CompiledContract({
  openapi: '3.0.3',
  info: { title: 'headers', version: '1.0.0' },
  paths: {
    '/r': {
      post: {
        parameters: [
          { name: 'X-Rate', in: 'header', schema: { type: 'integer' } },
          { name: 'session', in: 'cookie', schema: { type: 'string', maxLength: 5 } },
        ],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { 200: { description: 'ok', headers: { 'X-Until': { schema: { type: 'string', format: 'date-time' } } } } },
      },
    },
  },
} as never);

const call = (requestHeaders: Record<string, string>, responseHeaders: Record<string, string> = {}) => contract.validateInteraction({
  request: { method: 'POST', path: '/r', headers: { 'content-type': 'application/json', ...requestHeaders }, body: '{}' },
  response: { statusCode: 200, headers: responseHeaders, body: '' },
});

test('a header value under another spelling of the name is checked too', () => {
  assert.deepEqual(call({ 'x-rate': '5', 'X-Rate': 'nope' }).errors, ['parameter "X-Rate" in header: value "5, nope" is not a valid integer']);
  assert.deepEqual(call({}, { 'x-until': '2024-01-01T00:00:00Z', 'X-UNTIL': 'soon' }).errors, [
    'response header "X-Until": value "2024-01-01T00:00:00Z, soon" must match format "date-time"',
  ]);
  assert.equal(call({ 'Content-Type': 'text/plain' }).valid, false);
  assert.deepEqual(call({ cookie: 'other=1', Cookie: 'session=toolong' }).errors, ['parameter "session" in cookie: value "toolong" must have at most 5 characters']);
});

test('one spelling, or the same value under two, reads as before', () => {
  assert.deepEqual(call({ 'X-RATE': '5' }).errors, []);
  assert.deepEqual(call({ 'x-rate': '5', 'X-Rate': '5' }).errors, []);
  assert.deepEqual(call({ 'Content-Type': 'application/json' }).errors, []);
  assert.equal(headerValue({ a: '1' }, 'b'), undefined);
  assert.equal(headerValue({ Cookie: 'a=1', cookie: 'b=2' }, 'cookie', '; '), 'a=1; b=2');
});

test('Set-Cookie lines under two spellings are each one cookie, never joined', () => {
  const cookies = new CompiledContract({
    openapi: '3.0.3',
    info: { title: 'cookies', version: '1.0.0' },
    paths: { '/c': { get: { responses: { 200: { description: 'ok', headers: { 'Set-Cookie': { schema: { type: 'string', pattern: '^[a-z]+=[0-9]+$' } } } } } } } },
  } as never);
  const respond = (headers: Record<string, string>) => cookies.validateInteraction({
    request: { method: 'GET', path: '/c', headers: {}, body: '' },
    response: { statusCode: 200, headers, body: '' },
  });
  assert.deepEqual(respond({ 'Set-Cookie': 'a=1', 'set-cookie': 'b=2' }).errors, []);
  assert.deepEqual(respond({ 'Set-Cookie': 'a=1', 'set-cookie': 'b=x' }).errors, ['response header "Set-Cookie": value "b=x" must match pattern "^[a-z]+=[0-9]+$"']);
  assert.deepEqual(respond({ 'set-cookie': 'b=x' }).errors, ['response header "Set-Cookie": value "b=x" must match pattern "^[a-z]+=[0-9]+$"']);
});
