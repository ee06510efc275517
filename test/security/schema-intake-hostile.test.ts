/**
 * Hostile schema registrations: each gets a clear `success=false` answer quickly, nothing outside
 * the text is ever read or fetched, and the server stays healthy.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { minimalDocument } from '../helpers/documents';
import { checkHealth } from '../helpers/health';
import { startTestServer, type TestServer } from '../helpers/server';

function documentWithSchema(schema: object): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'hostile', version: '1.0.0' },
    paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } },
  });
}

describe('hostile schema intake', () => {
  let t: TestServer;
  let bait: http.Server;
  let baitHits = 0;
  before(async () => {
    t = await startTestServer();
    bait = http.createServer((_req, res) => {
      baitHits++;
      res.end('{"type":"string"}');
    });
    await new Promise<void>((resolve) => bait.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => bait.close(resolve));
  });

  async function expectRefused(request: object, expected: string | RegExp): Promise<void> {
    const started = Date.now();
    const response = await t.client.call('RegisterSchema', request);
    assert.equal(response.success, false);
    if (typeof expected === 'string') assert.equal(response.message, expected);
    else assert.match(response.message, expected);
    assert.ok(Date.now() - started < 5_000, 'answered in bounded time');
    assert.equal(await checkHealth(t.address), 'SERVING');
  }

  it('refuses a $ref to a local file', async () => {
    await expectRefused({ schema_id: 'h1', schema_content: documentWithSchema({ $ref: 'file:///etc/passwd' }) },
      'Invalid schema: external $ref "file:///etc/passwd" at /paths/~1x/get/responses/200/content/application~1json/schema is not allowed: only local references starting with \'#\' are accepted');
  });

  it('refuses a $ref to a loopback HTTP server and never contacts it', async () => {
    const url = `http://127.0.0.1:${(bait.address() as AddressInfo).port}/schema.json`;
    await expectRefused({ schema_id: 'h2', schema_content: documentWithSchema({ $ref: url }) }, /^Invalid schema: external \$ref "http:\/\/127\.0\.0\.1:\d+\/schema\.json" at /);
    await expectRefused({ schema_id: 'h2', schema_content: documentWithSchema({ properties: { a: { $ref: `${url}#/x` } } }) }, /^Invalid schema: external \$ref/);
    assert.equal(baitHits, 0);
  });

  it('refuses relative $refs', async () => {
    await expectRefused({ schema_id: 'h3', schema_content: documentWithSchema({ $ref: 'models/user.yaml' }) }, /^Invalid schema: external \$ref "models\/user\.yaml"/);
    await expectRefused({ schema_id: 'h3', schema_content: documentWithSchema({ $ref: '../secrets.json#/a' }) }, /^Invalid schema: external \$ref "\.\.\/secrets\.json#\/a"/);
  });

  it('refuses a YAML alias bomb', async () => {
    const lines = ['openapi: 3.0.0', 'info: {title: bomb, version: 1.0.0}', 'paths: {}', 'x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    let previous = 'a';
    for (const name of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) {
      lines.push(`x-${name}: &${name} [${Array(10).fill(`*${previous}`).join(',')}]`);
      previous = name;
    }
    await expectRefused({ schema_id: 'h4', schema_content: lines.join('\n') }, `Invalid schema: YAML aliases expand the document to more than ${LIMITS.maxYamlExpandedChars} characters (maxYamlExpandedChars)`);
  });

  it('refuses 5,000 levels of nesting in JSON and in YAML', async () => {
    const depth = 5_000;
    const json = `{"openapi":"3.0.0","info":{"title":"deep","version":"1.0.0"},"paths":{},"x-deep":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const expected = 'Invalid schema: document nesting exceeds the limit of 256 levels (maxSchemaDepth)';
    await expectRefused({ schema_id: 'h5', schema_content: json }, expected);
    const yaml = `openapi: 3.0.0\ninfo: {title: deep, version: 1.0.0}\npaths: {}\nx-deep: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    await expectRefused({ schema_id: 'h5', schema_content: yaml }, expected);
  });

  it('refuses content over the size limit, naming the limit', async () => {
    const padding = 'x'.repeat(33 * 1024 * 1024);
    await expectRefused({ schema_id: 'h6', schema_content: `${minimalDocument()}\n#${padding}` }, 'Invalid schema: content is 33 MiB, over the limit of 32 MiB (maxSchemaBytes)');
  });

  it('refuses invalid UTF-8 sent as raw protobuf bytes', async () => {
    // RegisterSchemaRequest{schema_id: "h7" (field 1), schema_content: <bytes> (field 2)}, hand-encoded.
    const id = Buffer.from('h7');
    const content = Buffer.concat([Buffer.from('{"openapi":"3.0.0","info":{"title":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","version":"1.0.0"},"paths":{}}')]);
    const message = Buffer.concat([Buffer.from([0x0a, id.length]), id, Buffer.from([0x12, content.length]), content]);
    const definition = contractValidatorDefinition().RegisterSchema;
    const raw = new grpc.Client(t.address, grpc.credentials.createInsecure());
    const response = await new Promise<any>((resolve, reject) => {
      raw.makeUnaryRequest(definition.path, (b: Buffer) => b, definition.responseDeserialize, message, (error, value) => (error ? reject(error) : resolve(value)));
    });
    raw.close();
    assert.equal(response.success, false);
    assert.equal(response.message, 'Invalid schema: content is not valid UTF-8 text');
    assert.equal(await checkHealth(t.address), 'SERVING');
  });

  it('refuses a 10 KB schema id with an input-validation message', async () => {
    await expectRefused({ schema_id: 'x'.repeat(10 * 1024), schema_content: minimalDocument() }, 'schema_id is 10240 characters, over the limit of 128 (maxIdLength)');
  });

  it('checks 20,000 parameters and tags for duplicates in linear time, and still refuses a duplicate', async () => {
    // The official schema's uniqueItems, compared pairwise by AJV: 20.7 s of intake for these 20,000 parameters.
    const parameters = Array.from({ length: 20_000 }, (_, i) => ({ name: `q${i}`, in: 'query', schema: { type: 'string' } }));
    const tags = Array.from({ length: 20_000 }, (_, i) => ({ name: `tag-${i}` }));
    const document = (list: object[]) => JSON.stringify({
      openapi: '3.0.3', info: { title: 'many parameters', version: '1.0.0' }, tags,
      paths: { '/x': { get: { parameters: list, responses: { 200: { description: 'ok' } } } } },
    });
    const started = Date.now();
    const response = await t.client.call('RegisterSchema', { schema_id: 'many-parameters', schema_content: document(parameters) });
    assert.equal(response.success, true, response.message);
    assert.ok(Date.now() - started < 5_000, `registered in ${Date.now() - started} ms`);
    await expectRefused({ schema_id: 'many-parameters', schema_content: document([...parameters, parameters[7]!]) },
      'Invalid schema: not a valid OpenAPI document: /paths/~1x/get/parameters must NOT have duplicate items (items ## 7 and 20000 are identical)');
  });

  it('keeps a document\'s own uniqueItems when the official schema\'s is hashed: duplicate items stay invalid', async () => {
    // The keyword was once renamed in the official schema's list of Schema object fields too, and
    // intake dropped every document's uniqueItems as an unknown field.
    const document = JSON.stringify({
      openapi: '3.0.3', info: { title: 'unique', version: '1.0.0' },
      paths: { '/labels': { post: {
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', uniqueItems: true, items: { type: 'string' } } } } },
        responses: { 204: { description: 'stored' } },
      } } },
    });
    const registered = await t.client.call('RegisterSchema', { schema_id: 'unique-labels', schema_content: document });
    assert.equal(registered.success, true, registered.message);
    const validate = (labels: string[]) => t.client.call('ValidateInteraction', {
      schema_id: 'unique-labels',
      request: { method: 'POST', path: '/labels', headers: { 'content-type': 'application/json' }, body: JSON.stringify(labels) },
      response: { status_code: 204, headers: {}, body: '' },
    });
    assert.equal((await validate(['a', 'b'])).valid, true);
    const duplicate = await validate(['a', 'a']);
    assert.equal(duplicate.valid, false);
    assert.match(duplicate.errors.join('\n'), /duplicate/);
  });

  it('still registers and serves normally afterwards', async () => {
    const response = await t.client.call('RegisterSchema', { schema_id: 'fine', schema_content: minimalDocument() });
    assert.equal(response.success, true, response.message);
  });
});
