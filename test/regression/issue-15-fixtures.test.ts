/**
 * Issue 15, fixtures: every media type a document offers gets a fixture (text, URL-encoded and
 * multipart forms with file parts, XML, binary types), each valid by construction through the
 * same validator, which reads form bodies field by field; query-selector keys produce the real
 * request; patterns with alternations and classes are satisfied within a bounded effort.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { generateFixture } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { CompiledContract } from '../../src/shared/validation/compiled-contract';
import { fixturePath } from '../helpers/paths';

const load = async (name: string) => (await loadSchema(fs.readFileSync(fixturePath('real-world', name), 'utf8'))).document;

describe('issue 15: fixtures for every media type', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  before(async () => {
    document = await load('media-types.yaml');
    contract = new CompiledContract(document);
  });

  const roundTrip = (method: string, path: string, contentType?: string) => {
    const fixture = generateFixture(document, { method, path, contentType });
    const outcome = contract.validateInteraction({ request: fixture.request, response: fixture.response });
    assert.deepEqual(outcome, { valid: true, errors: [] }, `${method} ${path} ${contentType ?? ''}: ${JSON.stringify(fixture)}`);
    return fixture;
  };

  test('a URL-encoded form request and a text response', () => {
    const { request, response } = roundTrip('POST', '/notes');
    assert.equal(request.headers['Content-Type'], 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    assert.ok(form.get('title')!.length >= 3 && Number(form.get('count')) >= 1);
    assert.equal(response.headers['Content-Type'], 'text/plain');
    assert.match(response.body, /^note-[0-9]+$/);
  });

  test('a multipart request with a file part of the declared type, and a PDF response', () => {
    const { request, response } = roundTrip('POST', '/uploads');
    assert.match(request.headers['Content-Type']!, /^multipart\/form-data; boundary=/);
    assert.match(request.body, /Content-Disposition: form-data; name="file"; filename="file\.bin"\r\nContent-Type: image\/png\r\n/);
    assert.match(request.body, /name="description"\r\n\r\n/);
    assert.equal(response.headers['Content-Type'], 'application/pdf');
    assert.match(response.body, /^%PDF-/);
  });

  test('binary, XML and CSV responses, each media type on request', () => {
    for (const contentType of ['image/png', 'application/octet-stream']) {
      const { response } = roundTrip('GET', '/pictures/{id}', contentType);
      assert.equal(response.headers['Content-Type'], contentType);
      assert.ok(response.body.length > 0);
    }
    const xml = roundTrip('GET', '/reports').response;
    assert.equal(xml.headers['Content-Type'], 'text/xml');
    assert.match(xml.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<report><id>-?\d+<\/id><title>/);
    assert.equal(roundTrip('GET', '/reports', 'text/csv').response.headers['Content-Type'], 'text/csv');
  });

  test('form fields are validated against the schema, field by field', () => {
    const post = (body: string, contentType = 'application/x-www-form-urlencoded') =>
      contract.validateInteraction({ request: { method: 'POST', path: '/notes', headers: { 'content-type': contentType }, body } });
    assert.deepEqual(post('title=abc&count=2&tags=a&tags=b&draft=true'), { valid: true, errors: [] });
    assert.deepEqual(post('title=ab&count=abc').errors, ['request body field "count": value "abc" is not a valid integer']);
    assert.deepEqual(post('title=ab&count=0').errors.sort(), [
      'request body /count: must be >= 1',
      'request body /title: must have at least 3 characters',
    ]);
    assert.deepEqual(post('count=2').errors, ['request body: property "title" is required']);
    const multipart = (parts: string) => contract.validateInteraction({
      request: { method: 'POST', path: '/uploads', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: `${parts}--b--\r\n` },
    });
    const part = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    assert.equal(multipart(part('description', 'a cat') + part('file', 'PNG') + part('meta', '{"owner":"me"}')).valid, true);
    assert.deepEqual(multipart(part('file', 'PNG') + part('size', 'big')).errors, ['request body field "size": value "big" is not a valid integer']);
    assert.deepEqual(multipart(part('description', 'a cat') + part('file', 'PNG') + part('meta', '{}')).errors, ['request body /meta: property "owner" is required']);
    assert.match(contract.validateInteraction({
      request: { method: 'POST', path: '/uploads', headers: { 'content-type': 'multipart/form-data' }, body: 'x' },
    }).errors[0]!, /^request body is not valid multipart\/form-data: the content type names no boundary$/);
  });

  test('a pattern with alternations, groups and classes is satisfied', () => {
    const { request } = roundTrip('GET', '/locations');
    const location = new URLSearchParams(request.path.split('?')[1]).get('location')!;
    assert.match(location, /^s3:\/\/([^/]+)\/(.*?([^/]+)\/?)$|^(arn:aws:s3:::[a-z0-9.-]{3,63})(\/[A-Za-z0-9_.-]+)*$/);
  });

  test('query-selector keys produce the real request', async () => {
    const routing = await load('routing.yaml');
    const routed = new CompiledContract(routing);
    for (const [method, key] of [['GET', '/#Action=DescribeStacks'], ['GET', '/#Action=DeleteStack'], ['POST', '/#X-Amz-Target=Hub.Associate'], ['DELETE', '/tags#resourceArn&tagKeys']] as const) {
      const fixture = generateFixture(routing, { method, path: key });
      assert.ok(!fixture.request.path.includes('#'), fixture.request.path);
      assert.deepEqual(routed.validateInteraction({ request: fixture.request, response: fixture.response }), { valid: true, errors: [] }, key);
    }
    assert.match(generateFixture(routing, { method: 'GET', path: '/#Action=DescribeStacks' }).request.path, /^\/\?Action=DescribeStacks(&|$)/);
    assert.equal(generateFixture(routing, { method: 'POST', path: '/#X-Amz-Target=Hub.Associate' }).request.headers['X-Amz-Target'], 'Hub.Associate');
  });
});
