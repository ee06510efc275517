/**
 * Fixtures of whole operations: which response and media type are chosen, how the path template,
 * query, headers and cookies are filled, Content-Type, response headers, and examples at the
 * media-type level.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, it } from 'node:test';
import { generateFixture, generateRequest, generateRequestBody, generateResponse } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { fixturePath } from '../helpers/paths';

async function load(name: string): Promise<OpenApiDocument> {
  return (await loadSchema(fs.readFileSync(fixturePath('fixture-corpus', 'hard', name), 'utf8'))).document;
}

function inline(paths: Record<string, unknown>): OpenApiDocument {
  return { openapi: '3.0.3', info: { title: 't', version: '1' }, paths } as unknown as OpenApiDocument;
}

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('fixtures: response selection', () => {
  const document = inline({
    '/a': { get: { responses: { '404': { description: 'x' }, '201': { description: 'x', ...json({ type: 'integer' }) }, '200': { description: 'x', ...json({ type: 'string' }) } } } },
    '/b': { get: { responses: { '2XX': { description: 'x' }, '4XX': { description: 'x', ...json({ type: 'boolean' }) } } } },
    '/c': { get: { responses: { default: { description: 'x', ...json({ type: 'string', enum: ['err'] }) }, '302': { description: 'x' } } } },
    '/d': { get: { responses: { '302': { description: 'x' }, '301': { description: 'x' } } } },
    '/e': { get: {} },
  });

  it('picks the lowest 2xx when no status is asked for', () => {
    const response = generateResponse(document, { method: 'GET', path: '/a' });
    assert.equal(response.statusCode, 200);
    assert.equal(typeof JSON.parse(response.body), 'string');
  });

  it('reads a 2XX range as 200, and a default response as 200 when no 2xx exists', () => {
    assert.equal(generateResponse(document, { method: 'GET', path: '/b' }).statusCode, 200);
    const fallback = generateResponse(document, { method: 'GET', path: '/c' });
    assert.deepEqual([fallback.statusCode, fallback.body], [200, '"err"']);
  });

  it('falls back to the lowest code defined, and reads missing responses as an undeclared default', () => {
    assert.equal(generateResponse(document, { method: 'GET', path: '/d' }).statusCode, 301);
    assert.deepEqual(generateResponse(document, { method: 'GET', path: '/e' }), { statusCode: 200, headers: {}, body: '' });
  });

  it('gives the status asked for: exactly, through its range, or through default', () => {
    const exact = generateResponse(document, { method: 'GET', path: '/a', statusCode: 201 });
    assert.deepEqual([exact.statusCode, typeof JSON.parse(exact.body)], [201, 'number']);
    const ranged = generateResponse(document, { method: 'GET', path: '/b', statusCode: 409 });
    assert.deepEqual([ranged.statusCode, typeof JSON.parse(ranged.body)], [409, 'boolean']);
    assert.equal(generateResponse(document, { method: 'GET', path: '/c', statusCode: 503 }).statusCode, 503);
  });

  it('sets Content-Type for a body, and none without one', () => {
    assert.equal(generateResponse(document, { method: 'GET', path: '/a' }).headers['Content-Type'], 'application/json');
    assert.deepEqual(generateResponse(document, { method: 'GET', path: '/a', statusCode: 404 }).headers, {});
  });
});

describe('fixtures: media types', () => {
  const document = inline({
    '/m': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/xml': { schema: { type: 'object' } },
            'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'integer' }, b: { type: 'string' } } } },
            'application/vnd.api+json': { schema: { type: 'object', required: ['data'], properties: { data: { type: 'boolean' } } } },
          },
        },
        responses: {
          '200': { description: 'x', content: { 'text/plain': { schema: { type: 'string', pattern: '^ok-\\d{2}$' } }, '*/*': { schema: { type: 'integer' } } } },
        },
      },
    },
  });

  it('takes a JSON media type by default, +json suffixes included', () => {
    const request = generateRequest(document, { method: 'POST', path: '/m' });
    assert.equal(request.headers['Content-Type'], 'application/vnd.api+json');
    assert.equal(typeof JSON.parse(request.body).data, 'boolean');
  });

  it('writes the content type asked for: a URL-encoded form, plain text', () => {
    const form = generateRequest(document, { method: 'POST', path: '/m', contentType: 'application/x-www-form-urlencoded' });
    assert.match(form.body, /^a=-?\d+&b=[a-z-]+$/);
    const text = generateResponse(document, { method: 'POST', path: '/m', contentType: 'text/plain' });
    assert.equal(text.headers['Content-Type'], 'text/plain');
    assert.match(text.body, /^ok-\d{2}$/);
  });

  it('answers a JSON request through a */* entry with application/json', () => {
    const response = generateResponse(document, { method: 'POST', path: '/m' });
    assert.equal(response.headers['Content-Type'], 'application/json');
    assert.ok(Number.isInteger(JSON.parse(response.body)));
  });

  it('writes a JSON type of a suffix range (application/*+json): the one asked for, or a vendor type of it', () => {
    const patched = inline({
      '/p': {
        patch: {
          requestBody: { required: true, content: { 'application/*+json': { schema: { type: 'object', required: ['op'], properties: { op: { const: 'add' } } } } } },
          responses: { '204': { description: 'x' } },
        },
      },
    });
    const chosen = generateRequest(patched, { method: 'PATCH', path: '/p' });
    assert.equal(chosen.headers['Content-Type'], 'application/vnd.svc-fixture+json');
    assert.deepEqual(JSON.parse(chosen.body), { op: 'add' });
    const asked = generateRequest(patched, { method: 'PATCH', path: '/p', contentType: 'application/merge-patch+json' });
    assert.equal(asked.headers['Content-Type'], 'application/merge-patch+json');
    assert.throws(() => generateRequest(patched, { method: 'PATCH', path: '/p', contentType: 'application/json' }));
  });

  it('gives the request body alone, and an empty body for an operation without one', async () => {
    assert.equal(typeof JSON.parse(generateRequestBody(document, { method: 'POST', path: '/m' })).data, 'boolean');
    const petstore = await load('parameters-3.0.yaml');
    assert.equal(generateRequestBody(petstore, { method: 'GET', path: '/files/{name}.json' }), '');
  });

  it('leaves out an optional request body no valid value exists for', () => {
    const impossible = inline({
      '/x': { put: { requestBody: json({ allOf: [{ type: 'string' }, { type: 'integer' }] }), responses: { '204': { description: 'x' } } } },
    });
    const request = generateRequest(impossible, { method: 'PUT', path: '/x' });
    assert.deepEqual([request.body, request.headers], ['', {}]);
  });
});

describe('fixtures: parameters', () => {
  let document: OpenApiDocument;
  before(async () => {
    document = await load('parameters-3.0.yaml');
  });

  it('fills path parameters with values their schemas accept, operation level overriding path-item level', () => {
    const { path } = generateRequest(document, { method: 'GET', path: '/orgs/{org}/repos/{repo}' });
    const match = /^\/orgs\/([^/]+)\/repos\/([^/?]+)\?/.exec(path);
    assert.ok(match, path);
    assert.match(match[1]!, /^[a-z][a-z0-9-]{1,38}$/);
    assert.ok(['alpha', 'beta'].includes(match[2]!));
  });

  it('appends every required query parameter in its style, and no optional one', () => {
    const { path } = generateRequest(document, { method: 'GET', path: '/orgs/{org}/repos/{repo}' });
    const query = new URLSearchParams(path.split('?')[1]);
    assert.ok(Number(query.get('page')) >= 1 && Number(query.get('page')) <= 50);
    assert.match(query.get('fields')!, /^(id|name|size),(id|name|size)$/, 'form, explode false: comma separated');
    assert.match(query.get('ids')!, /^-?\d+\|-?\d+$/, 'pipeDelimited');
    assert.ok(['open', 'closed'].includes(query.get('filter[state]')!), 'deepObject');
    assert.ok(['true', 'false'].includes(query.get('flag')!));
    assert.equal(typeof JSON.parse(query.get('json')!).a, 'number', 'content-encoded parameter');
    assert.equal(query.has('sort'), false);
  });

  it('sends required headers and cookies; Accept, Content-Type and Authorization parameters are ignored', () => {
    const { headers } = generateRequest(document, { method: 'GET', path: '/orgs/{org}/repos/{repo}' });
    assert.match(headers['X-Trace']!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(['1', '2'].includes(headers['X-Version']!));
    assert.match(headers.Cookie!, /^session=[a-z-]{16,}$/);
    assert.equal(headers.Accept, undefined);
  });

  it('writes label and matrix path styles, and simple arrays and objects', () => {
    assert.match(generateRequest(document, { method: 'GET', path: '/label/{id}/matrix/{coords}' }).path, /^\/label\/\.\d+\/matrix\/;coords=-?\d+;coords=-?\d+$/);
    assert.match(generateRequest(document, { method: 'GET', path: '/simple/{list}/{obj}' }).path, /^\/simple\/[a-z-]+,[a-z-]+\/x,-?\d+,y,-?\d+$/);
  });

  it('accepts a template that names its parameters differently, or carries the server path', () => {
    const plain = generateFixture(document, { method: 'GET', path: '/files/{name}.json' });
    assert.deepEqual(generateFixture(document, { method: 'get', path: '/files/{fileName}.json' }), plain);
    assert.deepEqual(generateFixture(document, { method: 'GET', path: '/v1/files/{name}.json' }), plain);
  });
});

describe('fixtures: response headers and examples', () => {
  it('includes required response headers with valid values, and leaves optional ones out', async () => {
    const document = await load('visibility-3.0.yaml');
    const { headers } = generateResponse(document, { method: 'POST', path: '/accounts' });
    assert.match(headers.Location!, /^https:\/\/example\.com\//);
    assert.ok(Number(headers['X-Rate-Limit']) >= 0);
    assert.equal(headers['X-Optional'], undefined);
  });

  it('uses a valid media-type example (by $ref too) and skips an invalid one', async () => {
    const document = await load('examples-3.0.yaml');
    const created = generateResponse(document, { method: 'POST', path: '/users', useExamples: true });
    assert.deepEqual(JSON.parse(created.body), { id: 7, name: 'Grace Hopper', email: 'grace@example.com', role: 'admin' });
    const request = generateRequest(document, { method: 'POST', path: '/users', useExamples: true });
    // The invalid example ({ name: 42 }) is passed over; the valid one loses its readOnly `id`.
    assert.deepEqual(JSON.parse(request.body), { name: 'Ada Lovelace', email: 'ada@example.com', role: 'member' });
    const fetched = generateFixture(document, { method: 'GET', path: '/users/{id}', useExamples: true });
    assert.equal(fetched.request.path, '/users/1234', 'a valid parameter example');
    const user = JSON.parse(fetched.response.body);
    assert.equal(user.id, 99, 'the media example (id -5) is invalid; property examples fill in');
    assert.notEqual(user.email, 'not-an-email');
  });
});
