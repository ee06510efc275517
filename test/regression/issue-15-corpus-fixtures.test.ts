/**
 * Issue 15, the fixture round trip over the APIs.guru directory: every fixture the generator
 * writes validates, and where a document is contradictory the generator refuses instead. One
 * hand-written document holds each case the corpus found (test/fixtures/real-world/corpus-fixtures.yaml).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { generateFixture } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { listOperations } from '../../src/shared/openapi/operations';
import { CompiledContract } from '../../src/shared/validation/compiled-contract';
import type { HttpRequestInput } from '../../src/shared/validation/types';
import { fixturePath } from '../helpers/paths';

describe('issue 15: fixtures for what the corpus round trip found', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  const check = (method: string, path: string, extra: Partial<HttpRequestInput> = {}) =>
    contract.validateInteraction({ request: { method, path, headers: {}, body: '', ...extra } });
  const fixtureOf = (method: string, path: string) => generateFixture(document, { method, path });

  before(async () => {
    document = (await loadSchema(fs.readFileSync(fixturePath('real-world', 'corpus-fixtures.yaml'), 'utf8'))).document;
    contract = new CompiledContract(document);
  });

  test('every fixture the generator writes validates; only the unreachable operations are refused', () => {
    const refused: string[] = [];
    for (const { method, path } of listOperations(document)) {
      let fixture;
      try {
        fixture = fixtureOf(method, path);
      } catch {
        refused.push(`${method} ${path}`);
        continue;
      }
      const outcome = contract.validateInteraction({ request: fixture.request, response: fixture.response });
      assert.deepEqual(outcome, { valid: true, errors: [] }, `${method} ${path}: ${JSON.stringify(fixture.request)}`);
    }
    assert.deepEqual(refused, ['GET /batch', 'DELETE /plans/{day}', 'GET /sites/{kind}/count', 'GET /v1/{name}']);
  });

  test('a `?` in a path key starts a query selector, as `#` does', () => {
    const { request } = fixtureOf('POST', '/request/{id}?cmd=diff');
    assert.match(request.path, /^\/request\/-?\d+\?cmd=diff$/);
    // Only the plain key requires `comment`: the errors tell which operation each request reached.
    assert.deepEqual(check('POST', '/request/7?cmd=diff'), { valid: true, errors: [] });
    assert.deepEqual(check('POST', '/request/7').errors, ['parameter "comment" in query is required']);
    assert.equal(check('POST', '/request/7?comment=ok').valid, true);
  });

  test('a path whose first segment is empty is a path, not a host', () => {
    assert.equal(fixtureOf('GET', '//openapi').request.path, '//openapi');
    assert.equal(check('GET', '//openapi').valid, true);
    assert.equal(check('GET', '/v2//openapi').valid, true);
    assert.equal(check('GET', 'https://api.example.com/v2//openapi').valid, true);
    assert.equal(check('GET', '//api.example.com/openapi').category, 'route_not_found');
  });

  test('an array of objects in a query string is written and read as JSON items', () => {
    const { request } = fixtureOf('GET', '/#Action=AddTags');
    const tags = new URLSearchParams(request.path.split('?')[1]).getAll('Tags');
    assert.ok(tags.length > 0 && tags.every((tag) => typeof JSON.parse(tag).Key === 'string'), request.path);
    const query = (tags: string[]) => `/?Action=AddTags&${tags.map((tag) => `Tags=${encodeURIComponent(tag)}`).join('&')}`;
    assert.deepEqual(check('GET', query(['{"Key":"team","Value":"a"}', '{"Key":"env"}'])), { valid: true, errors: [] });
    assert.deepEqual(check('GET', query(['{"Value":"a"}'])).errors, ['parameter "Tags" in query /0: property "Key" is required']);
    assert.deepEqual(check('GET', query(['team'])).errors, ['parameter "Tags" in query /0: value "team" must be object']);
  });

  test('path values that route to a more literal template are drawn again, and refused when every one does', () => {
    // `zones` would make /maps/zones/count, a request for /maps/zones/{zoneId}.
    assert.equal(fixtureOf('GET', '/maps/{kind}/count').request.path, '/maps/beacons/count');
    assert.throws(
      () => fixtureOf('GET', '/sites/{kind}/count'),
      /^SvcError: no request for GET \/sites\/\{kind\}\/count can be generated that routes to it: the 8 requests drawn route to GET \/sites\/(zones\/\{zoneId\}, GET \/sites\/beacons\/\{beaconId\}|beacons\/\{beaconId\}, GET \/sites\/zones\/\{zoneId\})/,
    );
  });

  test('of two literal suffixes of one parameter, the longer wins', () => {
    // Only the .schema.jsonld operation requires `profile`: the error tells which one was reached.
    assert.deepEqual(check('GET', '/records/r1.schema.jsonld').errors, ['parameter "profile" in query is required']);
    assert.equal(check('GET', '/records/r1.jsonld').valid, true);
    assert.match(fixtureOf('GET', '/records/{id}.schema.jsonld').request.path, /^\/records\/[^/]+\.schema\.jsonld\?profile=/);
  });

  test('a key with a trailing slash is its own operation', () => {
    const post = (path: string, body: object) => check('POST', path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.deepEqual(post('/coupons/', { archived: true }), { valid: true, errors: [] });
    assert.deepEqual(post('/coupons', { code: 'x' }), { valid: true, errors: [] });
    assert.deepEqual(post('/coupons/', { code: 'x' }).errors, ['request body: property "archived" is required']);
    assert.equal(fixtureOf('POST', '/coupons/').request.path, '/coupons/');
  });

  test('a multipart body whose schema is one file is written as one file part, and checked for presence and type', () => {
    const { request } = fixtureOf('POST', '/attachments');
    assert.match(request.headers['Content-Type']!, /^multipart\/form-data; boundary=/);
    assert.match(request.body, /^--[^\r]+\r\nContent-Disposition: form-data; name="file"; filename="file\.bin"\r\nContent-Type: application\/octet-stream\r\n/);
    const headers = { 'content-type': 'multipart/form-data; boundary=b' };
    assert.equal(check('POST', '/attachments', { headers, body: '--b\r\nContent-Disposition: form-data; name="upload"\r\n\r\nPNG\r\n--b--\r\n' }).valid, true);
    assert.deepEqual(check('POST', '/attachments', { headers }).errors, ['request body is required']);
  });

  test('a discriminator without a union: the base carries a tag that names no subtype, or is generated as the subtype', () => {
    const rule = JSON.parse(fixtureOf('GET', '/rules/{id}').response.body);
    assert.ok(rule.type === 'ActionGroup' ? typeof rule.actionGroupId === 'string' : rule.type === 'Suppression' && typeof rule.until === 'string', JSON.stringify(rule));
    const metadata = JSON.parse(fixtureOf('GET', '/metadata').response.body);
    assert.notEqual(metadata.identifier, 'MonitorList');
    // Validation dispatches on the tag: a subtype's tag brings its required properties.
    const response = (body: object) => contract.validateInteraction({
      request: { method: 'GET', path: '/rules/r1', headers: {}, body: '' },
      response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    });
    assert.deepEqual(response({ type: 'ActionGroup' }).errors, ['response body: property "actionGroupId" is required']);
  });

  test('form fields typed by a union or by allOf members are read as those types', () => {
    const { request } = fixtureOf('POST', '/accounts');
    const form = new URLSearchParams(request.body);
    assert.match(form.get('age')!, /^\d+$/);
    assert.ok(JSON.parse(form.get('aliases')!) instanceof Array, request.body);
    const post = (body: string) => check('POST', '/accounts', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    assert.deepEqual(post('age=20&verified=true&metadata=%7B%22a%22%3A%22b%22%7D&aliases=%5B%22x%22%5D&fee=5'), { valid: true, errors: [] });
    assert.deepEqual(post('age=20&metadata=&aliases=&fee='), { valid: true, errors: [] });
    assert.deepEqual(post('age=17&metadata=&aliases=&fee=').errors, ['request body /age: must be >= 18']);
    assert.ok(post('age=20&metadata=x&aliases=&fee=').errors.includes('request body /metadata: must be object'));
  });

  test('path and query values typed by a union are read as the first type that fits', () => {
    assert.deepEqual(check('GET', '/games/24?delivered=0'), { valid: true, errors: [] });
    assert.deepEqual(check('GET', '/games/league-one?delivered=true'), { valid: true, errors: [] });
    assert.equal(check('GET', '/games/25?delivered=1').valid, false);
  });

  test('an exploded free-form query object takes the query names no other parameter declares', () => {
    const { request } = fixtureOf('GET', '/#Action=SetAttributes');
    assert.match(request.path, /^\/\?Action=SetAttributes&key1=[^&]+$/);
    assert.deepEqual(check('GET', '/?Action=SetAttributes&Policy=p&Owner=o'), { valid: true, errors: [] });
    assert.deepEqual(check('GET', '/?Action=SetAttributes').errors, ['parameter "Attributes" in query is required']);
  });

  test('a parameter described by non-JSON content is plain text', () => {
    assert.match(fixtureOf('GET', '/reports/{id}').request.path, /^\/reports\/[0-9a-f]{8}-[0-9a-f-]{27}$/);
  });

  test('a selector that names the Accept header sets it', () => {
    const { request } = fixtureOf('GET', '/thumbnails/{id}#accept');
    assert.equal(request.headers.accept, 'image/jpeg');
    assert.deepEqual(check('GET', request.path, { headers: request.headers }), { valid: true, errors: [] });
  });

  test('a media range gets a type inside it, and huge counted repeats draw short strings', () => {
    const { request, response } = fixtureOf('GET', '/fonts/{name}');
    assert.equal(response.headers['Content-Type'], 'font/woff2');
    assert.ok(request.path.length < 40, request.path);
  });

  test('a body whose media type key is empty, or a path over the length limit, is refused', () => {
    assert.throws(() => fixtureOf('DELETE', '/plans/{day}'), /request body of DELETE \/plans\/\{day\} offers no media type fixtures can be written for/);
    assert.throws(() => fixtureOf('GET', '/batch'), /no request for GET \/batch can be generated within the path limit: its required parameters make a path of \d+ characters, over the limit of 8192 \(maxPathChars\)/);
  });

  test('an operation whose path differs from an earlier one only in parameter names is refused', () => {
    assert.throws(
      () => fixtureOf('GET', '/v1/{name}'),
      /no request can reach GET \/v1\/\{name\}: its path differs from GET \/v1\/\{jobName\}, declared before it, only in parameter names/,
    );
    // The first key, and a method only the later key has, still get fixtures.
    assert.match(fixtureOf('GET', '/v1/{jobName}').request.path, /^\/v1\/[^/?]+\?projectId=/);
    assert.equal(fixtureOf('DELETE', '/v1/{name}').response.statusCode, 204);
  });
});
