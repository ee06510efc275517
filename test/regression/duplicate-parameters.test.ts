/**
 * Regression (review C): a parameters list that names one parameter twice (OpenAPI forbids it)
 * registered without a word, and validation reads the last one, so the first one's rules (a
 * required integer) went unchecked. Registration now says so, pointing at the second entry.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';

const ok = { 200: { description: 'ok' } };

describe('regression: a parameter listed twice', () => {
  it('is a DUPLICATE_PARAMETER warning at the later entry, $refs and header case included', async () => {
    const { warnings } = await loadSchema(JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'duplicates', version: '1.0.0' },
      components: { parameters: { Limit: { name: 'limit', in: 'query', required: true, schema: { type: 'integer' } } } },
      paths: {
        '/items': {
          parameters: [{ name: 'X-Trace', in: 'header', schema: { type: 'string' } }, { name: 'x-trace', in: 'header', schema: { type: 'string' } }],
          get: {
            parameters: [
              { $ref: '#/components/parameters/Limit' },
              { name: 'limit', in: 'query', schema: { type: 'string' } },
              { name: 'limit', in: 'header', schema: { type: 'string' } },
            ],
            responses: ok,
          },
        },
      },
    }));
    assert.deepEqual(warnings.map(({ code, pointer, message }) => ({ code, pointer, message })), [
      { code: 'DUPLICATE_PARAMETER', pointer: '/paths/~1items/parameters/1', message: 'parameter "x-trace" in header is listed twice in one parameters list: the last one is used' },
      { code: 'DUPLICATE_PARAMETER', pointer: '/paths/~1items/get/parameters/1', message: 'parameter "limit" in query is listed twice in one parameters list: the last one is used' },
    ]);
  });

  it('is reported once for a list a path item shares with the one its $ref names', async () => {
    const { warnings } = await loadSchema(JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'shared', version: '1.0.0' },
      paths: { '/items': { $ref: '#/components/pathItems/Items', post: { responses: ok } } },
      components: { pathItems: { Items: { parameters: [{ name: 'q', in: 'query', schema: {} }, { name: 'q', in: 'query', schema: {} }], get: { responses: ok } } } },
    }));
    assert.deepEqual(warnings.filter((warning) => warning.code === 'DUPLICATE_PARAMETER').length, 1);
  });

  it('an operation redefining a path item\'s parameter is no duplicate: OpenAPI lets it override', async () => {
    const { warnings } = await loadSchema(JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'override', version: '1.0.0' },
      paths: { '/items': { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], get: { parameters: [{ name: 'limit', in: 'query', schema: { type: 'string' } }], responses: ok } } },
    }));
    assert.deepEqual(warnings, []);
  });
});
