/**
 * Swagger 2.0 arrays in query parameters by `collectionFormat`: csv, ssv, pipes, multi and tsv (which
 * OpenAPI 3 has no style for; the conversion keeps it as `x-collectionFormat`), and in headers and
 * paths tsv, pipes and ssv (kept the same way). Checked by the validator and written by the fixture generator,
 * whose request must validate.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { generateRequest } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, textContract } from '../helpers/validation-contracts';

const FORMATS = ['csv', 'ssv', 'pipes', 'multi', 'tsv'] as const;
const PATH_FORMATS = ['csv', 'ssv', 'pipes', 'tsv'] as const;

const DOCUMENT = JSON.stringify({
  swagger: '2.0',
  info: { title: 'collections', version: '1.0.0' },
  paths: {
    ...Object.fromEntries(FORMATS.map((format) => [`/${format}`, {
      get: {
        parameters: [{ name: 'q', in: 'query', required: true, type: 'array', items: { type: 'integer' }, minItems: 2, collectionFormat: format }],
        responses: { 204: { description: 'found' } },
      },
    }])),
    '/tsv-header': {
      get: {
        parameters: [{ name: 'X-Ids', in: 'header', required: true, type: 'array', items: { type: 'integer' }, minItems: 2, collectionFormat: 'tsv' }],
        responses: { 204: { description: 'found' } },
      },
    },
    ...Object.fromEntries(PATH_FORMATS.map((format) => [`/${format}-path/{ids}`, {
      get: {
        parameters: [{ name: 'ids', in: 'path', required: true, type: 'array', items: { type: 'integer' }, minItems: 2, collectionFormat: format }],
        responses: { 204: { description: 'found' } },
      },
    }])),
    '/pipes-header': {
      get: {
        parameters: [{ $ref: '#/parameters/PipedIds' }],
        responses: {
          200: { description: 'found', headers: { 'X-Next': { type: 'array', items: { type: 'integer' }, collectionFormat: 'ssv' } } },
        },
      },
    },
  },
  parameters: { PipedIds: { name: 'X-Ids', in: 'header', required: true, type: 'array', items: { type: 'integer' }, minItems: 2, collectionFormat: 'pipes' } },
});

describe('Swagger 2.0 collection formats', () => {
  let document: OpenApiDocument;
  let contract: CompiledContract;
  before(async () => {
    ({ document, contract } = await textContract(DOCUMENT));
  });
  const get = (path: string) => contract.validateInteraction({ request: request('GET', path) });

  it('splits each format by its own separator', () => {
    assertValid(get('/csv?q=1,2'));
    assertValid(get('/ssv?q=1%202'));
    assertValid(get('/pipes?q=1|2'));
    assertValid(get('/multi?q=1&q=2'));
    assertValid(get('/tsv?q=1%092'));
    assertInvalid(get('/tsv?q=1%09x'), 'request_invalid', 'parameter "q" in query: value "x" is not a valid integer');
    assertInvalid(get('/tsv?q=1,2'), 'request_invalid', 'parameter "q" in query: value "1,2" is not a valid integer');
  });

  it('splits pipes and ssv headers by their separators (request parameter and response header), and writes fixtures so', () => {
    const exchange = (ids: string, next: string) => contract.validateInteraction({
      request: request('GET', '/pipes-header', { headers: { 'x-ids': ids } }),
      response: { statusCode: 200, headers: { 'x-next': next }, body: '' },
    });
    assertValid(exchange('1|2', '3 4'));
    assertInvalid(exchange('1,2', '3 4'), 'request_invalid', 'parameter "X-Ids" in header: value "1,2" is not a valid integer');
    assertInvalid(exchange('1|2', '3,4'), 'response_invalid', 'response header "X-Next": value "3,4" is not a valid integer');
    const generated = generateRequest(document, { method: 'GET', path: '/pipes-header' });
    assert.match(generated.headers['X-Ids']!, /^-?\d+(\|-?\d+)+$/);
    assertValid(contract.validateInteraction({ request: request('GET', generated.path, { headers: generated.headers }) }));
  });

  it('splits a tsv header by tabs, and writes its fixture so', () => {
    const withIds = (ids: string) => contract.validateInteraction({ request: request('GET', '/tsv-header', { headers: { 'x-ids': ids } }) });
    assertValid(withIds('1\t2'));
    assertInvalid(withIds('1,2'), 'request_invalid', 'parameter "X-Ids" in header: value "1,2" is not a valid integer');
    const generated = generateRequest(document, { method: 'GET', path: '/tsv-header' });
    assert.match(generated.headers['X-Ids']!, /^-?\d+(\t-?\d+)+$/);
    assertValid(contract.validateInteraction({ request: request('GET', generated.path, { headers: generated.headers }) }));
  });

  it('splits path arrays by their separators, as written or percent-encoded, and writes fixtures so', () => {
    assertValid(get('/csv-path/1,2'));
    assertValid(get('/pipes-path/1|2'));
    assertValid(get('/pipes-path/1%7C2'));
    assertValid(get('/ssv-path/1%202'));
    assertValid(get('/tsv-path/1%092'));
    assertInvalid(get('/pipes-path/1|x'), 'request_invalid', 'parameter "ids" in path: value "x" is not a valid integer');
    assertInvalid(get('/pipes-path/1,2'), 'request_invalid', 'parameter "ids" in path: value "1,2" is not a valid integer');
    assertInvalid(get('/tsv-path/1%2C2%093'), 'request_invalid', 'parameter "ids" in path: value "1,2" is not a valid integer');
    const separators = { csv: ',', pipes: '\\|', ssv: '%20', tsv: '%09' };
    for (const format of PATH_FORMATS) {
      const generated = generateRequest(document, { method: 'GET', path: `/${format}-path/{ids}` });
      assert.match(generated.path, new RegExp(`^/${format}-path/-?\\d+(${separators[format]}-?\\d+)+$`));
      assertValid(get(generated.path));
    }
  });

  it('writes fixtures in each format, and they validate', () => {
    for (const format of FORMATS) {
      const generated = generateRequest(document, { method: 'GET', path: `/${format}` });
      assertValid(get(generated.path));
      if (format === 'tsv') assert.match(generated.path, /^\/tsv\?q=-?\d+(%09-?\d+)+$/);
    }
  });
});
