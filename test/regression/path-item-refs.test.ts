/**
 * Regression (review C): a path item that is a `$ref` was read as its target alone. Operations
 * written beside the `$ref` were dropped without a word ("method POST is not defined for /items"),
 * though OpenAPI 3.0 and 3.1 combine the two path items' fields; and the servers of a path item
 * reached through a `$ref` gave no routing prefix. Both now count; a field in both path items is
 * the one beside the `$ref`, with a warning.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { assertInvalid, assertValid, request, response, textContract } from '../helpers/validation-contracts';

const JSON_HEADERS = { 'content-type': 'application/json' };
const created = { 201: { description: 'created' } };
const ok = { 200: { description: 'ok' } };
const requiredName = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['name'] } } } };

function document(items: object, pathItems: object, openapi = '3.1.0'): string {
  return JSON.stringify({ openapi, info: { title: 'path items', version: '1.0.0' }, paths: { '/items': items }, components: { pathItems } });
}

describe('regression: fields beside a path item $ref', () => {
  it('operations beside the $ref join those of the path item it names', async () => {
    const text = document(
      { $ref: '#/components/pathItems/Items', summary: 'items', post: { requestBody: requiredName, responses: created } },
      { Items: { get: { responses: ok } } },
    );
    const loaded = await loadSchema(text);
    assert.equal(loaded.endpointCount, 2);
    assert.deepEqual(loaded.warnings, []);
    const { contract } = await textContract(text);
    assertValid(contract.validateInteraction({ request: request('GET', '/items'), response: response(200) }));
    assertValid(contract.validateInteraction({ request: request('POST', '/items', { headers: JSON_HEADERS, body: { name: 'a' } }), response: response(201) }));
    assertInvalid(
      contract.validateInteraction({ request: request('POST', '/items', { headers: JSON_HEADERS, body: {} }) }),
      'request_invalid', 'request body: property "name" is required',
    );
  });

  it('parameters beside the $ref apply to the named path item\'s operations (OpenAPI 3.0 too)', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'path items', version: '1.0.0' },
      paths: {
        '/items': { $ref: '#/paths/~1shared', parameters: [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }] },
        '/shared': { get: { responses: ok } },
      },
    });
    const { contract } = await textContract(text);
    assertInvalid(contract.validateInteraction({ request: request('GET', '/items') }), 'request_invalid', 'parameter "X-Tenant" in header is required');
    assertValid(contract.validateInteraction({ request: request('GET', '/items', { headers: { 'x-tenant': 't' } }) }));
    assertValid(contract.validateInteraction({ request: request('GET', '/shared') }));
  });

  it('a field in both path items is the one beside the $ref, with a warning', async () => {
    const text = document(
      { $ref: '#/components/pathItems/Items', post: { requestBody: requiredName, responses: created } },
      { Items: { get: { responses: ok }, post: { responses: ok } } },
    );
    const loaded = await loadSchema(text);
    assert.deepEqual(loaded.warnings.map(({ code, pointer }) => ({ code, pointer })), [
      { code: 'PATH_ITEM_FIELD_OVERRIDDEN', pointer: '/paths/~1items/post' },
    ]);
    assert.match(loaded.warnings[0]!.message, /^"post" is both beside the \$ref "#\/components\/pathItems\/Items" of path item "\/items" and in the path item it names: the one beside the \$ref is used$/);
    const { contract } = await textContract(text);
    assertValid(contract.validateInteraction({ request: request('POST', '/items', { headers: JSON_HEADERS, body: { name: 'a' } }), response: response(201) }));
    assertInvalid(
      contract.validateInteraction({ request: request('POST', '/items', { headers: JSON_HEADERS, body: { name: 'a' } }), response: response(200) }),
      'response_invalid', 'response status 200 is not defined for POST /items',
    );
  });

  it('fields beside a $ref join the path item a chain of $refs ends at', async () => {
    const text = document(
      { $ref: '#/components/pathItems/A', put: { responses: ok } },
      { A: { $ref: '#/components/pathItems/B' }, B: { get: { responses: ok } } },
    );
    const loaded = await loadSchema(text);
    assert.equal(loaded.endpointCount, 2);
    assert.deepEqual(Object.keys(loaded.document.paths!['/items']!), ['get', 'put']);
  });

  it('the servers of a path item reached through a $ref are routing prefixes', async () => {
    const text = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'path items', version: '1.0.0' },
      paths: { '/items/{id}': { $ref: '#/components/pathItems/Item' } },
      components: {
        pathItems: {
          Item: {
            servers: [{ url: '/special' }],
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            get: { responses: ok },
          },
        },
      },
    });
    const { contract } = await textContract(text);
    assertValid(contract.validateInteraction({ request: request('GET', '/special/items/1'), response: response(200) }));
    assertValid(contract.validateInteraction({ request: request('GET', '/items/1'), response: response(200) }));
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/special/items/x') }),
      'request_invalid', 'parameter "id" in path: value "x" is not a valid integer',
    );
  });
});
