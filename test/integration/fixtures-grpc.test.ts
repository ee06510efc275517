/**
 * GenerateFixture over real gRPC: each output type, each refusal as success=false with a message
 * naming what was asked, and the invariant end to end: a generated fixture sent back through
 * ValidateInteraction (and its response through ValidateProducerResponse) is valid=true.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { listOperations } from '../../src/shared/openapi/operations';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { fixturePath } from '../helpers/paths';
import { startTestServer, type TestServer } from '../helpers/server';

const CORPUS = {
  petstore: ['readme-oas-examples', '3.0', 'petstore-expanded.json'],
  composition: ['hard', 'composition-3.0.yaml'],
  types31: ['hard', 'types-3.1.yaml'],
  swagger: ['hard', 'swagger-2.0.yaml'],
} as const;

function corpusText(parts: readonly string[]): string {
  return fs.readFileSync(fixturePath('fixture-corpus', ...parts), 'utf8');
}

describe('GenerateFixture over gRPC', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    for (const [schemaId, parts] of Object.entries(CORPUS)) {
      const registered = await t.client.call('RegisterSchema', { schema_id: schemaId, schema_content: corpusText(parts), schema_version: '1.0.0' });
      assert.equal(registered.success, true, registered.message);
    }
  });
  after(async () => t.close());

  const generate = (request: Record<string, unknown>) => t.client.call('GenerateFixture', request);

  it('OUTPUT_FIXTURE: a request and response pair that ValidateInteraction accepts', async () => {
    const answer = await generate({ schema_id: 'petstore', method: 'POST', path: '/pets' });
    assert.equal(answer.success, true, answer.message);
    assert.equal(answer.message, 'Fixture for POST /pets (200) generated from schema petstore version 1.0.0');
    assert.equal(answer.request_body, '');
    assert.equal(answer.response, null);
    const { request, response } = answer.fixture;
    assert.equal(request.headers['Content-Type'], 'application/json');
    assert.equal(typeof JSON.parse(request.body).name, 'string');
    const verdict = await t.client.call('ValidateInteraction', { schema_id: 'petstore', request, response });
    assert.deepEqual([verdict.valid, verdict.errors], [true, []]);
  });

  it('OUTPUT_REQUEST: the request body alone, and an explanation when there is none', async () => {
    const answer = await generate({ schema_id: 'petstore', method: 'POST', path: '/pets', output_type: 'OUTPUT_REQUEST' });
    assert.equal(answer.success, true, answer.message);
    assert.deepEqual([answer.fixture, answer.response], [null, null]);
    assert.equal(typeof JSON.parse(answer.request_body).name, 'string');
    const none = await generate({ schema_id: 'petstore', method: 'GET', path: '/pets/{id}', output_type: 'OUTPUT_REQUEST' });
    assert.deepEqual([none.success, none.request_body], [true, '']);
    assert.match(none.message, /^GET \/pets\/\{id\} takes no request body/);
  });

  it('OUTPUT_RESPONSE: the response alone, for the status asked for (here through `default`), that ValidateProducerResponse accepts', async () => {
    const answer = await generate({ schema_id: 'petstore', method: 'GET', path: '/pets/{id}', status_code: 404, output_type: 'OUTPUT_RESPONSE' });
    assert.equal(answer.success, true, answer.message);
    assert.equal(answer.fixture, null);
    assert.equal(answer.response.status_code, 404);
    assert.equal(typeof JSON.parse(answer.response.body).message, 'string');
    const verdict = await t.client.call('ValidateProducerResponse', { schema_id: 'petstore', method: 'GET', path: '/pets/7', response: answer.response });
    assert.deepEqual([verdict.valid, verdict.errors], [true, []]);
  });

  it('uses valid examples when asked, and is deterministic', async () => {
    const request = { schema_id: 'composition', method: 'POST', path: '/pets', use_examples: true };
    const first = await generate(request);
    assert.equal(first.success, true, first.message);
    assert.deepEqual(await generate(request), first);
  });

  it('answers every operation of several documents with a fixture ValidateInteraction accepts', async () => {
    for (const [schemaId, parts] of Object.entries(CORPUS)) {
      const { document } = await loadSchema(corpusText(parts));
      for (const { method, path } of listOperations(document)) {
        const answer = await generate({ schema_id: schemaId, method, path });
        assert.equal(answer.success, true, `${schemaId} ${method} ${path}: ${answer.message}`);
        const verdict = await t.client.call('ValidateInteraction', { schema_id: schemaId, ...answer.fixture });
        assert.deepEqual(verdict.errors, [], `${schemaId} ${method} ${path}`);
        assert.equal(verdict.valid, true);
      }
    }
  });

  describe('refusals: success=false with a message naming what was asked', () => {
    const refusal = async (request: Record<string, unknown>) => {
      const answer = await generate(request);
      assert.equal(answer.success, false);
      assert.deepEqual([answer.fixture, answer.response, answer.request_body], [null, null, '']);
      return answer.message as string;
    };

    it('unknown schema, unknown version, missing schema id', async () => {
      assert.equal(await refusal({ schema_id: 'nope', method: 'GET', path: '/pets' }), 'Schema not found: nope');
      assert.equal(await refusal({ schema_id: 'petstore', schema_version: '9.9.9', method: 'GET', path: '/pets' }), 'schema version not found');
      assert.equal(await refusal({ schema_id: '', method: 'GET', path: '/pets' }), 'schema_id is required');
    });

    it('unknown path, method, status code and content type', async () => {
      assert.equal(await refusal({ schema_id: 'petstore', method: 'GET', path: '/dogs' }), 'Path not found: /dogs');
      assert.equal(await refusal({ schema_id: 'petstore', method: 'PATCH', path: '/pets' }), 'Method PATCH not defined for path /pets (defined: GET, POST)');
      assert.equal(
        await refusal({ schema_id: 'composition', method: 'GET', path: '/numbers', status_code: 418 }),
        'Status code 418 not defined for GET /numbers (defined: 200)',
      );
      assert.equal(
        await refusal({ schema_id: 'petstore', method: 'GET', path: '/pets', content_type: 'application/xml' }),
        'content type "application/xml" not offered by the 200 response of GET /pets (offered: application/json)',
      );
      assert.match(await refusal({ schema_id: 'petstore', method: 'GET', path: '' }), /^path is required/);
    });
  });
});
