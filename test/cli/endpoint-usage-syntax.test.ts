import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEndpointUsages, parseEndpointUsages } from '../../src/cli/endpoint-usage-syntax';

test('endpoint syntax: methods any case, fields after the colon, spaces tolerated around separators', () => {
  assert.deepEqual(parseEndpointUsages(' get /users/{id} : id, email ;POST /users;\n delete /users/{id}'), [
    { method: 'GET', path: '/users/{id}', usedFields: ['id', 'email'] },
    { method: 'POST', path: '/users', usedFields: [] },
    { method: 'DELETE', path: '/users/{id}', usedFields: [] },
  ]);
});

test('endpoint syntax: the field list starts at the last colon, so a trailing colon keeps a colon in the path', () => {
  assert.deepEqual(parseEndpointUsages('POST /jobs/{id}:cancel:'), [{ method: 'POST', path: '/jobs/{id}:cancel', usedFields: [] }]);
  assert.deepEqual(parseEndpointUsages('POST /jobs/{id}:cancel:status'), [{ method: 'POST', path: '/jobs/{id}:cancel', usedFields: ['status'] }]);
});

test('endpoint syntax: the same endpoint twice is one endpoint with the fields of both', () => {
  assert.deepEqual(parseEndpointUsages('GET /a:x,y;GET /a:y,z;GET /a'), [{ method: 'GET', path: '/a', usedFields: ['x', 'y', 'z'] }]);
});

test('endpoint syntax: format is the inverse of parse', () => {
  const text = 'GET /users/{id}:id,email;POST /users;POST /jobs/{id}:cancel:';
  assert.equal(formatEndpointUsages(parseEndpointUsages(text)), text);
});

test('endpoint syntax: malformed entries name the entry and what is wrong', () => {
  const cases: Array<[string, RegExp]> = [
    ['GET', /^--endpoints entry 1 \("GET"\): expected "<METHOD> <path>\[:<field>,<field>\.\.\.\]"$/],
    ['GET /a;BREW /coffee', /^--endpoints entry 2 \("BREW \/coffee"\): unknown HTTP method "BREW" \(one of GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE\)$/],
    ['GET a/b', /the path must be a template starting with "\/" \(got "a\/b"\)/],
    ['GET /a b', /the path must not contain spaces \(got "\/a b"\)/],
    ['GET /a:x,,y', /empty field name/],
    ['GET /a:x y', /field names must not contain spaces \(got "x y"\)/],
    ['', /lists no endpoint/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseEndpointUsages(text), { name: 'UsageError', message }, text);
  }
});
