/**
 * Hostile input across registration and validation: each case gets its clear answer (a response
 * that names the limit or the rule, or RESOURCE_EXHAUSTED from the transport) in bounded time,
 * nothing outside the request is read or fetched, no prototype is polluted, and afterwards the
 * server still answers a health check and a normal call.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { minimalDocument, readSchemaFixture } from '../helpers/documents';
import { checkHealth } from '../helpers/health';
import { createTestClient, startTestServer, type TestClient, type TestServer } from '../helpers/server';

/** Longest answer accepted for a hostile case on a shared two-core machine (the usual answer takes milliseconds). */
const BOUND_MS = 10_000;

function openapi(paths: object, components: object = {}): string {
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'hostile', version: '1.0.0' }, paths, components });
}

function withResponseSchema(schema: object): string {
  return openapi({ '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } });
}

function withPathPattern(pattern: string): string {
  return openapi({
    '/r/{v}': { get: { parameters: [{ name: 'v', in: 'path', required: true, schema: { type: 'string', pattern } }], responses: { 200: { description: 'ok' } } } },
  });
}

function objectWithProperties(count: number): object {
  const properties: Record<string, object> = {};
  for (let i = 0; i < count; i++) properties[`p${i}`] = { type: 'string' };
  return { type: 'object', properties };
}

// Hand-written protobuf, for bytes a normal client would never send.
function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value > 127) {
    bytes.push((value & 127) | 128);
    value >>>= 7;
  }
  bytes.push(value);
  return Buffer.from(bytes);
}
function lengthDelimited(field: number, content: Buffer | string): Buffer {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  return Buffer.concat([varint((field << 3) | 2), varint(bytes.length), bytes]);
}
function varintField(field: number, value: number): Buffer {
  return Buffer.concat([varint(field << 3), varint(value)]);
}
const INVALID_UTF8 = Buffer.from([0xc3, 0x28, 0xff, 0xfe]);

describe('hostile registration and validation input', () => {
  let t: TestServer;
  let bait: http.Server;
  let baitHits = 0;
  let schemaCounter = 0;

  before(async () => {
    t = await startTestServer();
    bait = http.createServer((_request, response) => {
      baitHits++;
      response.end('{"type": "string"}');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
    const users = await t.client.call('RegisterSchema', { schema_id: 'users', schema_content: readSchemaFixture('users-3.0.json') });
    assert.equal(users.success, true, users.message);
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => bait.close(resolve));
  });

  afterEach(async () => {
    assert.equal(await checkHealth(t.address), 'SERVING', 'health after the case');
    const probe = createTestClient(t.address);
    try {
      const answer = await probe.call('GetSchema', { schema_id: 'users' }, { deadlineMs: 5_000 });
      assert.equal(answer.found, true, 'a normal call after the case');
    } finally {
      probe.close();
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
    assert.equal(baitHits, 0, 'the loopback bait server was never contacted');
  });

  async function timed<T>(work: Promise<T>): Promise<T> {
    const started = Date.now();
    const result = await work;
    const elapsed = Date.now() - started;
    assert.ok(elapsed < BOUND_MS, `answered in ${elapsed} ms`);
    return result;
  }

  async function register(content: string, extra: object = {}, client: TestClient = t.client) {
    return timed(client.call('RegisterSchema', { schema_id: `hostile-${++schemaCounter}`, schema_content: content, ...extra }));
  }

  async function refused(content: string, expected: string | RegExp, extra: object = {}): Promise<void> {
    const response = await register(content, extra);
    assert.equal(response.success, false, 'registration refused');
    if (typeof expected === 'string') assert.equal(response.message, expected);
    else assert.match(response.message, expected);
  }

  async function accepted(content: string): Promise<string> {
    const response = await register(content);
    assert.equal(response.success, true, response.message);
    return response.metadata.schema_id as string;
  }

  function validate(request: object, response: object = { status_code: 200, headers: {}, body: '' }, schemaId = 'users') {
    return timed(t.client.call('ValidateInteraction', { schema_id: schemaId, request, response }));
  }

  async function rawCall(operation: 'RegisterSchema' | 'ValidateInteraction', message: Buffer): Promise<any> {
    const definition = contractValidatorDefinition()[operation];
    const raw = new grpc.Client(t.address, grpc.credentials.createInsecure());
    try {
      return await timed(new Promise((resolve, reject) => {
        raw.makeUnaryRequest(definition.path, (bytes: Buffer) => bytes, definition.responseDeserialize as (b: Buffer) => unknown, message,
          (error, value) => (error ? reject(error) : resolve(value)));
      }));
    } finally {
      raw.close();
    }
  }

  // ---- Transport: sizes and compression -------------------------------------------------------

  it('answers RESOURCE_EXHAUSTED to a message over maxGrpcMessageBytes', async () => {
    const unlimited = createTestClient(t.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': -1 });
    try {
      await assert.rejects(timed(unlimited.call('RegisterSchema', { schema_id: 'big', schema_content: ' '.repeat(LIMITS.maxGrpcMessageBytes + 1024) })),
        { code: grpc.status.RESOURCE_EXHAUSTED, details: /Received message larger than max \(\d+ vs 50331648\)/ });
    } finally {
      unlimited.close();
    }
  });

  it('answers RESOURCE_EXHAUSTED to a gzip bomb that inflates past the message limit', async () => {
    const gzip = createTestClient(t.address, grpc.credentials.createInsecure(), {
      'grpc.default_compression_algorithm': grpc.compressionAlgorithms.gzip, 'grpc.max_send_message_length': -1,
    });
    try {
      await assert.rejects(timed(gzip.call('RegisterSchema', { schema_id: 'bomb', schema_content: ' '.repeat(60 * 1024 * 1024) })),
        { code: grpc.status.RESOURCE_EXHAUSTED, details: /decompresses to a size larger than 50331648/ });
    } finally {
      gzip.close();
    }
  });

  it('names maxSchemaBytes for schema text over it that fits in a message', async () => {
    await refused(`${minimalDocument()}\n#${'x'.repeat(LIMITS.maxSchemaBytes)}`, /^Invalid schema: content is 32 MiB, over the limit of 32 MiB \(maxSchemaBytes\)$/);
  });

  it('refuses a call carrying 1 MB of metadata and keeps serving', async () => {
    const client = createTestClient(t.address);
    const metadata = new grpc.Metadata();
    metadata.set('x-padding', 'm'.repeat(1024 * 1024));
    try {
      await assert.rejects(timed(client.call('ListSchemas', {}, { metadata, deadlineMs: 5_000 })), (error: grpc.ServiceError) => error.code !== grpc.status.OK);
    } finally {
      client.close();
    }
  });

  it('refuses a call carrying thousands of metadata entries and keeps serving', async () => {
    const client = createTestClient(t.address);
    const metadata = new grpc.Metadata();
    for (let i = 0; i < 2_000; i++) metadata.set(`x-entry-${i}`, 'v'.repeat(500));
    try {
      await assert.rejects(timed(client.call('ListSchemas', {}, { metadata, deadlineMs: 5_000 })), (error: grpc.ServiceError) => error.code !== grpc.status.OK);
    } finally {
      client.close();
    }
  });

  // ---- Document structure ---------------------------------------------------------------------

  it('refuses a YAML billion-laughs document (maxYamlExpandedChars)', async () => {
    const lines = ['openapi: 3.0.0', 'info: {title: lol, version: 1.0.0}', 'paths: {}', 'x-0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) lines.push(`x-${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(',')}]`);
    await refused(lines.join('\n'), `Invalid schema: YAML aliases expand the document to more than ${LIMITS.maxYamlExpandedChars} characters (maxYamlExpandedChars)`);
  });

  it('refuses YAML whose aliases and merge keys expand past maxYamlExpandedChars, before building it', async () => {
    const expandedLimit = `Invalid schema: YAML aliases expand the document to more than ${LIMITS.maxYamlExpandedChars} characters (maxYamlExpandedChars)`;
    // 20 KB of text that stands for 180 MB: one long string named 9,000 times.
    const longText = `openapi: 3.0.0\ninfo: {title: wide, version: 1.0.0}\npaths: {}\nx-text: &text "${'x'.repeat(20_000)}"\nx-refs: [${Array(9_000).fill('*text').join(', ')}]\n`;
    await refused(longText, expandedLimit);
    // A merge key copies what it names: one anchor of 10,000 entries merged into 1,000 maps.
    const entries = Array.from({ length: 10_000 }, (_, i) => `  k${i}: v`).join('\n');
    const merges = Array.from({ length: 1_000 }, (_, i) => `  m${i}: {<<: *base}`).join('\n');
    await refused(`openapi: 3.0.0\ninfo: {title: merged, version: 1.0.0}\npaths: {}\nx-base: &base\n${entries}\nx-merged:\n${merges}\n`, expandedLimit);
  });

  it('refuses more aliases than maxYamlAliases, however small what they name', async () => {
    const content = `openapi: 3.0.0\ninfo: {title: many, version: 1.0.0}\npaths: {}\nx-one: &one 1\nx-refs: [${Array(LIMITS.maxYamlAliases + 1).fill('*one').join(', ')}]\n`;
    await refused(content, `Invalid schema: YAML aliases expand beyond the limit of ${LIMITS.maxYamlAliases} (maxYamlAliases)`);
  });

  it('registers a document that reuses a small anchor hundreds of times', async () => {
    // Refused at 120 when maxYamlAliases was 100, though it expands to a few thousand values.
    const content = `openapi: 3.0.0\ninfo: {title: reuse, version: 1.0.0}\npaths: {}\nx-error: &error {description: failed}\nx-responses: [${Array(500).fill('*error').join(', ')}]\n`;
    assert.equal((await loadSchema(content)).endpointCount, 0);
  });

  it('reads 5,000 anchors and their aliases, and aliases beside 100,000 anchors nothing names, in linear time', async () => {
    // Each alias was resolved by walking the whole document again: 20 s for the first, past a minute for the second.
    const header = 'openapi: 3.0.0\ninfo: {title: anchors, version: 1.0.0}\npaths: {}\n';
    const anchors = Array.from({ length: 5_000 }, (_, i) => `x-${i}: &a${i} {v: ${i}}`).join('\n');
    const named = `${header}${anchors}\nx-all: [${Array.from({ length: 5_000 }, (_, i) => `*a${i}`).join(', ')}]\n`;
    const unnamed = `${header}x-first: &first {v: 1}\nx-unused:\n${Array.from({ length: 100_000 }, (_, i) => `  - &u${i} ${i}`).join('\n')}\nx-all: [${Array(9_000).fill('*first').join(', ')}]\n`;
    for (const content of [named, unnamed]) {
      const started = performance.now();
      assert.equal((await loadSchema(content)).endpointCount, 0);
      assert.ok(performance.now() - started < 10_000, `read in ${Math.round(performance.now() - started)} ms`);
    }
  });

  it('reads a YAML map of 50,000 keys in linear time, and still refuses a duplicate key among them', async () => {
    // Each key was compared with every earlier one of its map: 9 s for these 780 KB, 100,000 keys ran past intakeMaxMs.
    const keys = Array.from({ length: 50_000 }, (_, i) => `  k${i}: ${i}`);
    const content = (lines: string[]) => `openapi: 3.0.0\ninfo: {title: keys, version: 1.0.0}\npaths: {}\nx-map:\n${lines.join('\n')}\n`;
    const started = performance.now();
    assert.equal((await loadSchema(content(keys))).endpointCount, 0);
    assert.ok(performance.now() - started < 4_000, `read in ${Math.round(performance.now() - started)} ms`);
    await refused(content([...keys, '  k7: again']), 'Invalid schema: content is not valid YAML: Map keys must be unique at line 50005, column 3:');
  });

  it('refuses 5,000 levels of JSON object nesting (maxSchemaDepth)', async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
    await refused(withResponseSchema({ 'x-deep': JSON.parse('{}'), type: 'object' }).replace('"x-deep":{}', `"x-deep":${deep}`),
      `Invalid schema: document nesting exceeds the limit of ${LIMITS.maxSchemaDepth} levels (maxSchemaDepth)`);
  });

  it('refuses 5,000 levels of YAML flow-mapping nesting (maxSchemaDepth)', async () => {
    const content = `openapi: 3.0.0\ninfo: {title: deep, version: 1.0.0}\npaths: {}\nx-deep: ${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}\n`;
    await refused(content, `Invalid schema: document nesting exceeds the limit of ${LIMITS.maxSchemaDepth} levels (maxSchemaDepth)`);
  });

  it('refuses a million levels of JSON array nesting without running out of stack', async () => {
    await refused(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, `Invalid schema: document nesting exceeds the limit of ${LIMITS.maxSchemaDepth} levels (maxSchemaDepth)`);
  });

  it('refuses 5,000 properties in one schema object before compiling (maxSchemaObjectProperties)', async () => {
    await refused(withResponseSchema(objectWithProperties(5_000)),
      /^Invalid schema: 5000 properties in one object at \/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema\/properties, over the limit of 1000 \(maxSchemaObjectProperties\)$/);
  });

  it('accepts exactly maxSchemaObjectProperties properties and validates against them in bounded time', async () => {
    const schemaId = await accepted(withResponseSchema(objectWithProperties(LIMITS.maxSchemaObjectProperties)));
    const body = JSON.stringify({ p0: 1 });
    const result = await validate({ method: 'GET', path: '/x', headers: {} }, { status_code: 200, headers: { 'content-type': 'application/json' }, body }, schemaId);
    assert.equal(result.valid, false);
    assert.ok(result.errors.some((message: string) => message.includes('p0')), result.errors.join('; '));
  });

  it('refuses more operations than maxOperations', async () => {
    const paths: Record<string, object> = {};
    for (let i = 0; i <= LIMITS.maxOperations; i++) paths[`/p${i}`] = { get: {} };
    await refused(openapi(paths), `Invalid schema: ${LIMITS.maxOperations + 1} operations, over the limit of ${LIMITS.maxOperations} (maxOperations)`);
  });

  it('refuses documents that are not an object, and duplicate YAML keys', async () => {
    await refused('[1, 2, 3]', 'Invalid schema: content is not an OpenAPI document (expected an object at the top level)');
    await refused('"openapi"', 'Invalid schema: content is not an OpenAPI document (expected an object at the top level)');
    await refused('openapi: 3.0.0\nopenapi: 3.1.0\ninfo: {title: dup, version: 1.0.0}\npaths: {}\n', /^Invalid schema: content is not valid YAML: Map keys must be unique/);
  });

  // ---- References -----------------------------------------------------------------------------

  it('refuses a $ref to a file:// URL without reading it', async () => {
    await refused(withResponseSchema({ $ref: 'file:///etc/passwd' }), /^Invalid schema: external \$ref "file:\/\/\/etc\/passwd" at .* is not allowed/);
  });

  it('refuses a $ref to a loopback HTTP server without contacting it', async () => {
    const url = `http://127.0.0.1:${(bait.address() as AddressInfo).port}/evil.json`;
    await refused(withResponseSchema({ $ref: url }), /^Invalid schema: external \$ref "http:\/\/127\.0\.0\.1:\d+\/evil\.json" at .* is not allowed/);
    await refused(withResponseSchema({ type: 'object', properties: { a: { $ref: `${url}#/definitions/A` } } }), /^Invalid schema: external \$ref/);
  });

  it('refuses relative $refs (no file next to the server is ever read)', async () => {
    await refused(withResponseSchema({ $ref: './common.yaml#/components/schemas/User' }), /^Invalid schema: external \$ref "\.\/common\.yaml#\/components\/schemas\/User"/);
    await refused(withResponseSchema({ $ref: '../../../../etc/passwd' }), /^Invalid schema: external \$ref "\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd"/);
  });

  it('refuses an external $ref inside a Swagger 2.0 document before conversion', async () => {
    const swagger = JSON.stringify({
      swagger: '2.0', info: { title: 'old', version: '1.0.0' },
      paths: { '/x': { get: { responses: { 200: { description: 'ok', schema: { $ref: 'file:///etc/hostname' } } } } } },
    });
    await refused(swagger, /^Invalid schema: external \$ref "file:\/\/\/etc\/hostname"/);
  });

  it('refuses a dangling local $ref with the pointer named', async () => {
    await refused(withResponseSchema({ $ref: '#/components/schemas/Nowhere' }), /^Invalid schema: .*#\/components\/schemas\/Nowhere/);
  });

  it('registers a self-referencing schema and a 16-level $ref fan-out in bounded time', async () => {
    await accepted(openapi({ '/tree': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } } },
      { schemas: { Node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } } }));
    const schemas: Record<string, object> = { L16: { type: 'string' } };
    for (let level = 15; level >= 0; level--) {
      schemas[`L${level}`] = { type: 'object', properties: { a: { $ref: `#/components/schemas/L${level + 1}` }, b: { $ref: `#/components/schemas/L${level + 1}` } } };
    }
    const schemaId = await accepted(openapi({ '/fan': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } } } } } }, { schemas }));
    const result = await validate({ method: 'GET', path: '/fan', headers: {} }, { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"a": {"a": 1}}' }, schemaId);
    assert.equal(result.valid, false);
  });

  // ---- Patterns -------------------------------------------------------------------------------

  it('accepts a catastrophic-backtracking pattern and validates against it in linear time (RE2)', async () => {
    const schemaId = await accepted(withPathPattern('^(a+)+$'));
    const result = await validate({ method: 'GET', path: `/r/${'a'.repeat(5_000)}!`, headers: {} }, undefined, schemaId);
    assert.equal(result.valid, false);
    assert.match(result.errors[0], /^parameter "v" in path: value "a+…" must match pattern "\^\(a\+\)\+\$"$/);
  });

  // Issue 15: patterns RE2 cannot run never refuse a document. A catastrophic one is not enforced, with a warning.
  it('registers a catastrophic look-around or back-reference pattern without enforcing it, and says so', async () => {
    for (const content of [
      withPathPattern('^(?=(a+)+$)b'),
      withPathPattern('^((a|a)*)\\1$'),
      withResponseSchema({ type: 'object', patternProperties: { '^((x|x)*)\\1$': { type: 'string' } } }),
    ]) {
      const response = await register(content);
      assert.equal(response.success, true, response.message);
      const codes = response.warnings.map((warning: { code: string }) => warning.code);
      assert.ok(codes.includes('PATTERN_NOT_ENFORCED'), codes.join(', '));
    }
  });

  // ---- Prototype pollution ----------------------------------------------------------------------

  it('stores __proto__, constructor and prototype keys as plain data', async () => {
    // An unknown root key is ignored with a warning (issue 15); `__proto__` stays an ordinary key and pollutes nothing.
    const rootProto = await register('{"openapi":"3.0.3","info":{"title":"proto","version":"1.0.0"},"paths":{},"__proto__":{"polluted":true}}');
    assert.equal(rootProto.success, true, rootProto.message);
    assert.ok(rootProto.warnings.some((warning: { pointer: string }) => warning.pointer === '/__proto__'), JSON.stringify(rootProto.warnings));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    const content = '{"openapi":"3.0.3","info":{"title":"proto","version":"1.0.0"},'
      + '"paths":{"/x":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":'
      + '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"object","properties":{"prototype":{"type":"object"}}}}}}}}}}}}}';
    const schemaId = await accepted(content);
    const stored = await t.client.call('GetSchema', { schema_id: schemaId });
    assert.equal(stored.schema_content, content, 'content returned exactly as registered');
    const result = await validate({ method: 'GET', path: '/x', headers: {} },
      { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"__proto__": {"polluted": true}, "constructor": "not an object"}' }, schemaId);
    assert.equal(result.valid, false);
    assert.ok(result.errors.some((message: string) => message.includes('constructor')), result.errors.join('; '));
  });

  it('validates a request body holding __proto__ without polluting anything', async () => {
    const result = await validate(
      { method: 'POST', path: '/v1/users', headers: { 'content-type': 'application/json' }, body: '{"__proto__": {"polluted": true}, "name": "Ada", "email": "ada@example.com"}' },
      { status_code: 201, headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "Ada", "email": "ada@example.com"}' },
    );
    assert.equal(typeof result.valid, 'boolean');
  });

  // ---- Encoding, identifiers, metadata ------------------------------------------------------------

  it('refuses schema text that is not valid UTF-8 (raw protobuf bytes)', async () => {
    const content = Buffer.concat([Buffer.from('{"openapi":"3.0.0","info":{"title":"'), INVALID_UTF8, Buffer.from('","version":"1.0.0"},"paths":{}}')]);
    const response = await rawCall('RegisterSchema', Buffer.concat([lengthDelimited(1, 'utf8-case'), lengthDelimited(2, content)]));
    assert.equal(response.success, false);
    assert.equal(response.message, 'Invalid schema: content is not valid UTF-8 text');
  });

  it('refuses a schema id that is not valid UTF-8 (raw protobuf bytes)', async () => {
    const response = await rawCall('RegisterSchema', Buffer.concat([lengthDelimited(1, Buffer.concat([Buffer.from('id'), INVALID_UTF8])), lengthDelimited(2, minimalDocument())]));
    assert.equal(response.success, false);
    assert.match(response.message, /^schema_id ".*" is not valid: use letters, digits/);
  });

  it('answers a request body that is not valid UTF-8 with a clear refusal', async () => {
    const json = Buffer.from('application/json');
    const contentType = lengthDelimited(3, Buffer.concat([lengthDelimited(1, 'content-type'), lengthDelimited(2, json)]));
    const body = Buffer.concat([Buffer.from('{"name":"'), INVALID_UTF8, Buffer.from('","email":"a@b.c"}')]);
    const message = Buffer.concat([
      lengthDelimited(1, 'users'),
      lengthDelimited(2, Buffer.concat([lengthDelimited(1, 'POST'), lengthDelimited(2, '/v1/users'), contentType, lengthDelimited(4, body)])),
      lengthDelimited(3, Buffer.concat([varintField(1, 201), lengthDelimited(2, Buffer.concat([lengthDelimited(1, 'content-type'), lengthDelimited(2, json)])),
        lengthDelimited(3, '{"id": 1, "name": "a", "email": "a@b.c"}')])),
    ]);
    const answer = await rawCall('ValidateInteraction', message).catch((error: grpc.ServiceError) => error);
    if (answer instanceof Error) {
      assert.equal((answer as grpc.ServiceError).code, grpc.status.INVALID_ARGUMENT);
      assert.match((answer as grpc.ServiceError).details, /UTF-8/);
    } else {
      assert.equal(answer.valid, false, 'a body that is not UTF-8 is not valid JSON text');
      assert.ok(answer.errors.some((error: string) => /UTF-8/.test(error)), answer.errors.join('; '));
    }
  });

  it('names maxIdLength for a 10 KB schema id, at registration and at validation', async () => {
    const longId = 's'.repeat(10 * 1024);
    const response = await timed(t.client.call('RegisterSchema', { schema_id: longId, schema_content: minimalDocument() }));
    assert.equal(response.success, false);
    assert.equal(response.message, `schema_id is 10240 characters, over the limit of ${LIMITS.maxIdLength} (maxIdLength)`);
    const result = await validate({ method: 'GET', path: '/v1/users', headers: {} }, undefined, longId);
    assert.equal(result.valid, false);
    assert.match(result.errors[0], /maxIdLength/);
  });

  it('names maxMetadataLength for a 1 MB owner', async () => {
    await refused(minimalDocument(), /^ownership\.owner is 1048576 characters, over the limit of 256 \(maxMetadataLength\)$/, { ownership: { owner: 'o'.repeat(1024 * 1024) } });
  });

  // ---- Paths and bodies at validation -----------------------------------------------------------

  it('registers a 200,000-character path template and answers a 200,000-character request path by the limit', async () => {
    const longPath = `/${'a'.repeat(200_000)}`;
    const schemaId = await accepted(openapi({ [longPath]: { get: { responses: { 200: { description: 'ok' } } } } }));
    const endpoints = await timed(t.client.call('ListEndpoints', { schema_id: schemaId }));
    assert.equal(endpoints.endpoints[0].path.length, 200_001);
    const result = await validate({ method: 'GET', path: longPath, headers: {} }, undefined, schemaId);
    assert.equal(result.valid, false);
    assert.deepEqual(result.errors, [`request path is 200001 characters, over the limit of ${LIMITS.validationMaxPathChars} (maxPathChars)`]);
  });

  it('answers 200,000-character paths in a fixture request and a consumer registration', async () => {
    const longPath = `/${'p'.repeat(200_000)}`;
    const fixture = await timed(t.client.call('GenerateFixture', { schema_id: 'users', method: 'GET', path: longPath }));
    assert.equal(fixture.success, false);
    assert.ok(fixture.message.startsWith('Path not found: /ppp'), fixture.message.slice(0, 80));
    const consumer = await timed(t.client.call('RegisterConsumer', {
      consumer_id: 'long-path', consumer_version: '1.0.0', schema_id: 'users', schema_version: '1.0.0', environment: 'prod',
      used_endpoints: [{ method: 'GET', path: longPath, used_fields: [] }],
    }));
    assert.equal(consumer.success, false);
    assert.match(consumer.message, /^used_endpoints\[0\]\.path must be .* at most 8192 characters$/);
  });

  it('answers a 5,000-level request body by maxBodyDepth', async () => {
    const result = await validate(
      { method: 'POST', path: '/v1/users', headers: { 'content-type': 'application/json' }, body: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
      { status_code: 201, headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "Ada", "email": "ada@example.com"}' },
    );
    assert.equal(result.valid, false);
    assert.ok(result.errors.includes(`request body nests arrays/objects deeper than the limit of ${LIMITS.validationMaxBodyDepth} levels (maxBodyDepth)`), result.errors.join('; '));
  });

  it('answers a response body over maxBodyBytes by the limit', async () => {
    const result = await validate(
      { method: 'GET', path: '/v1/users/1', headers: {} },
      { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1, name: 'n'.repeat(LIMITS.validationMaxBodyBytes), email: 'a@b.c' }) },
    );
    assert.equal(result.valid, false);
    assert.ok(result.errors.some((message: string) => /response body is .* over the limit of 10 MiB \(maxBodyBytes\)/.test(message)), result.errors.join('; '));
  });

  it('answers a body that is not JSON, and an unknown HTTP method, with messages instead of failures', async () => {
    const notJson = await validate(
      { method: 'POST', path: '/v1/users', headers: { 'content-type': 'application/json' }, body: '{"name": "Ada", ' },
      { status_code: 201, headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "Ada", "email": "ada@example.com"}' },
    );
    assert.equal(notJson.valid, false);
    assert.ok(notJson.errors.some((message: string) => /request body/.test(message) && /JSON/.test(message)), notJson.errors.join('; '));
    const oddMethod = await validate({ method: 'BREW', path: '/v1/users', headers: {} });
    assert.equal(oddMethod.valid, false);
    assert.match(oddMethod.errors[0], /BREW/);
  });
});
