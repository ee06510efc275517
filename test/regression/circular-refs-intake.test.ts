/**
 * Regression: a document whose parameter or response `$ref`s loop (P → Q → P) registered without a
 * word, then every engine read the loop as pointing nowhere: ValidateInteraction answered
 * "response status 200 is not defined for GET /c" and GenerateFixture an empty 200. A circular or
 * overlong chain of references is refused at registration, like a dangling reference.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { startTestServer, type TestServer } from '../helpers/server';

const ok = { description: 'ok' };

function document(overrides: { openapi?: string; paths?: object; components?: object }): string {
  return JSON.stringify({
    openapi: overrides.openapi ?? '3.0.3',
    info: { title: 'c', version: '1.0.0' },
    paths: overrides.paths ?? { '/c': { get: { responses: { 200: ok } } } },
    components: overrides.components ?? {},
  });
}

async function refusal(text: string): Promise<string> {
  const error = await loadSchema(text).then(() => undefined, (caught: unknown) => caught as Error);
  assert.ok(error, 'the document was accepted');
  return error.message;
}

describe('regression: circular $ref chains at registration', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ workerThreads: 1 });
  });
  after(async () => t.close());

  it('refuses a parameter and a response cycle over gRPC, naming the chain, and stores nothing', async () => {
    const text = document({
      paths: { '/c': { get: { parameters: [{ $ref: '#/components/parameters/P' }], responses: { 200: { $ref: '#/components/responses/R' } } } } },
      components: {
        parameters: { P: { $ref: '#/components/parameters/Q' }, Q: { $ref: '#/components/parameters/P' } },
        responses: { R: { $ref: '#/components/responses/S' }, S: { $ref: '#/components/responses/R' } },
      },
    });
    const response = await t.client.call('RegisterSchema', { schema_id: 'circ', schema_content: text, schema_version: '1.0.0' });
    assert.equal(response.success, false);
    assert.match(response.message, /^Invalid schema: \$ref "#\/components\/(parameters|responses)\/[PQRS]" at \S+ is circular: /);
    await assert.rejects(t.client.call('ListEndpoints', { schema_id: 'circ' }), /Schema not found/);
  });

  it('refuses a parameter cycle', async () => {
    const message = await refusal(document({
      paths: { '/c': { get: { parameters: [{ $ref: '#/components/parameters/P' }], responses: { 200: ok } } } },
      components: { parameters: { P: { $ref: '#/components/parameters/Q' }, Q: { $ref: '#/components/parameters/P' } } },
    }));
    assert.match(message, /is circular: #\/components\/parameters\/(P|Q) → #\/components\/parameters\/(P|Q) → #\/components\/parameters\/(P|Q) never reaches an object/);
  });

  it('refuses a response cycle, naming where it starts', async () => {
    const message = await refusal(document({
      paths: { '/c': { get: { responses: { 200: { $ref: '#/components/responses/R' } } } } },
      components: { responses: { R: { $ref: '#/components/responses/S' }, S: { $ref: '#/components/responses/R' } } },
    }));
    assert.match(message, /^Invalid schema: \$ref "#\/components\/responses\/[RS]" at \/(components|paths)\S* is circular: /);
  });

  it('refuses a reference to itself', async () => {
    const message = await refusal(document({
      paths: { '/c': { get: { responses: { 200: { $ref: '#/components/responses/R' } } } } },
      components: { responses: { R: { $ref: '#/components/responses/R' } } },
    }));
    assert.match(message, /is circular: #\/components\/responses\/R → #\/components\/responses\/R never reaches an object/);
  });

  it('refuses request body, header and path item cycles', async () => {
    const requestBody = await refusal(document({
      paths: { '/c': { post: { requestBody: { $ref: '#/components/requestBodies/A' }, responses: { 200: ok } } } },
      components: { requestBodies: { A: { $ref: '#/components/requestBodies/B' }, B: { $ref: '#/components/requestBodies/A' } } },
    }));
    assert.match(requestBody, /requestBodies\/[AB] .*is circular/);
    const header = await refusal(document({
      paths: { '/c': { get: { responses: { 200: { description: 'ok', headers: { 'X-A': { $ref: '#/components/headers/A' } } } } } } },
      components: { headers: { A: { $ref: '#/components/headers/B' }, B: { $ref: '#/components/headers/A' } } },
    }));
    assert.match(header, /headers\/[AB] .*is circular/);
    const pathItem = await refusal(document({
      openapi: '3.1.0',
      paths: { '/c': { $ref: '#/components/pathItems/A' } },
      components: { pathItems: { A: { $ref: '#/components/pathItems/B' }, B: { $ref: '#/components/pathItems/A' } } },
    }));
    assert.match(pathItem, /pathItems\/[AB] .*is circular/);
  });

  it('refuses a schema that is only a reference to itself through others', async () => {
    const message = await refusal(document({
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } },
    }));
    assert.match(message, /schemas\/[AB] .*is circular/);
  });

  it('refuses a Swagger 2.0 parameter cycle, read in its OpenAPI 3.0 conversion', async () => {
    const message = await refusal(JSON.stringify({
      swagger: '2.0', info: { title: 'c', version: '1.0.0' },
      paths: { '/c': { get: { parameters: [{ $ref: '#/parameters/P' }], responses: { 200: { description: 'ok' } } } } },
      parameters: { P: { $ref: '#/parameters/Q' }, Q: { $ref: '#/parameters/P' } },
    }));
    assert.match(message, /is circular: /);
  });

  it('accepts a recursive schema: a reference inside an object is not a chain', async () => {
    const loaded = await loadSchema(document({
      paths: { '/c': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } } },
      components: { schemas: { Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } } },
    }));
    assert.equal(loaded.endpointCount, 1);
  });

  it(`accepts a chain of ${LIMITS.maxRefChainHops} references and refuses one more (maxRefChainHops)`, async () => {
    const chainOf = (hops: number) => {
      const responses: Record<string, object> = { R0: ok };
      for (let i = 1; i < hops; i++) responses[`R${i}`] = { $ref: `#/components/responses/R${i - 1}` };
      return document({
        paths: { '/c': { get: { responses: { 200: { $ref: `#/components/responses/R${hops - 1}` } } } } },
        components: { responses },
      });
    };
    assert.equal((await loadSchema(chainOf(LIMITS.maxRefChainHops))).endpointCount, 1);
    const message = await refusal(chainOf(LIMITS.maxRefChainHops + 1));
    assert.match(message, new RegExp(`starts a chain of ${LIMITS.maxRefChainHops + 1} references to references, over the limit of ${LIMITS.maxRefChainHops} \\(maxRefChainHops\\)`));
  });

  it('names a dangling reference at the end of a chain', async () => {
    const message = await refusal(document({
      paths: { '/c': { get: { responses: { 200: { $ref: '#/components/responses/R' } } } } },
      components: { responses: { R: { $ref: '#/components/responses/Missing' } } },
    }));
    assert.match(message, /\$ref "#\/components\/responses\/Missing" at \/components\/responses\/R does not resolve to anything in the document/);
  });
});
