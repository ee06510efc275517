/**
 * Regression (review C): a parameter with neither `schema` nor `content` is read as "any value"
 * with a PARAMETER_WITHOUT_SCHEMA warning, but only under `paths` and components/parameters: the
 * same parameter in a webhook, in components/pathItems or in a callback refused the document
 * ("must have required property 'schema'"). Every path item is read alike now.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { assertValid, request, response, textContract } from '../helpers/validation-contracts';

const ok = { 200: { description: 'ok' } };
const signature = { name: 'X-Sig', in: 'header', required: true };

function document(extra: object): string {
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'no schema', version: '1.0.0' }, ...extra });
}

async function pointersOf(text: string): Promise<string[]> {
  const { warnings } = await loadSchema(text);
  for (const warning of warnings) assert.equal(warning.code, 'PARAMETER_WITHOUT_SCHEMA');
  return warnings.map((warning) => warning.pointer);
}

describe('regression: parameters without schema wherever path items are', () => {
  it('in a webhook', async () => {
    const text = document({ paths: {}, webhooks: { hook: { post: { parameters: [signature], responses: ok } } } });
    assert.deepEqual(await pointersOf(text), ['/webhooks/hook/post/parameters/0']);
  });

  it('in components/pathItems, and validation accepts any value for it', async () => {
    const text = document({
      paths: { '/items/{id}': { $ref: '#/components/pathItems/Item' } },
      components: { pathItems: { Item: { parameters: [{ name: 'id', in: 'path', required: true }], get: { responses: ok } } } },
    });
    assert.deepEqual(await pointersOf(text), ['/components/pathItems/Item/parameters/0']);
    const { contract } = await textContract(text);
    assertValid(contract.validateInteraction({ request: request('GET', '/items/anything'), response: response(200) }));
  });

  it('in callbacks, an operation\'s and the components\', at any depth', async () => {
    const inner = { '{$request.body#/again}': { post: { parameters: [{ name: 'depth', in: 'query' }], responses: ok } } };
    const text = document({
      paths: {
        '/subscribe': {
          post: {
            callbacks: { onEvent: { '{$request.body#/url}': { post: { parameters: [signature], callbacks: { again: inner }, responses: ok } } } },
            responses: ok,
          },
        },
      },
      components: { callbacks: { Shared: { '{$request.body#/url}': { parameters: [signature] } } } },
    });
    assert.deepEqual((await pointersOf(text)).sort(), [
      '/components/callbacks/Shared/{$request.body#~1url}/parameters/0',
      '/paths/~1subscribe/post/callbacks/onEvent/{$request.body#~1url}/post/callbacks/again/{$request.body#~1again}/post/parameters/0',
      '/paths/~1subscribe/post/callbacks/onEvent/{$request.body#~1url}/post/parameters/0',
    ]);
  });

  it('in OpenAPI 3.0 callbacks', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'no schema', version: '1.0.0' },
      paths: { '/subscribe': { post: { callbacks: { onEvent: { '{$request.body#/url}': { post: { parameters: [signature], responses: ok } } } }, responses: ok } } },
    });
    assert.deepEqual(await pointersOf(text), ['/paths/~1subscribe/post/callbacks/onEvent/{$request.body#~1url}/post/parameters/0']);
  });
});
