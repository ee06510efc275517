/** Spec "Validation rules" 1 and "Schema loading rules" 3–4: routes by method and path template. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CompiledContract } from '../../src/shared/validation';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, fixtureContract, request, response } from '../helpers/validation-contracts';

const PET = { id: 42, name: 'Rex' };
const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('routing', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json');
  });

  it('extracts path parameters from the real path', () => {
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/42'), response: response(200, { body: PET }) }));
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/pets/abc') }),
      'request_invalid',
      'parameter "petId" in path: value "abc" is not a valid integer',
    );
  });

  it('prefers a static template over a parameter (/pets/mine, not /pets/{petId})', () => {
    // myPets declares no body for 200; getPet would require id and name.
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/mine'), response: response(200, { body: {} }) }));
  });

  it('matches a real path with or without the server URL path prefix', () => {
    for (const path of ['/api/v1/pets/42', '/pets/42', 'https://api.example.com/api/v1/pets/42?x=1#top']) {
      assertValid(contract.validateInteraction({ request: request('GET', path), response: response(200, { body: PET }) }));
    }
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/api/v1x/pets/42') }),
      'route_not_found',
      'Path not found: /api/v1x/pets/42',
    );
  });

  it('answers "Path not found: <path>" without the query string', () => {
    assertInvalid(contract.validateInteraction({ request: request('GET', '/unknown?x=1') }), 'route_not_found', 'Path not found: /unknown');
  });

  it('names the defined methods when the path exists but not the method', () => {
    assertInvalid(
      contract.validateInteraction({ request: request('PATCH', '/api/v1/pets/42') }),
      'route_not_found',
      'method PATCH is not defined for /pets/{petId} (defined: DELETE, GET, PUT)',
    );
  });

  it('checks a HEAD request to an operation described only as GET as that GET, without the response body', () => {
    // Frameworks answer HEAD for every GET route (RFC 9110 §9.3.2); it was "method HEAD is not defined".
    const head = (path: string, body = '') => contract.validateInteraction({ request: request('HEAD', path), response: response(200, { headers: { 'content-type': 'application/json' }, body }) });
    assertValid(head('/api/v1/pets/42'));
    assertValid(head('/api/v1/pets/42', '{"unexpected":"content"}'));
    assertInvalid(head('/api/v1/pets/abc'), 'request_invalid', 'parameter "petId" in path: value "abc" is not a valid integer');
    assertInvalid(
      contract.validateProducerResponse({ method: 'HEAD', path: '/api/v1/pets/42', response: response(418) }),
      'response_invalid',
      'response status 418 is not defined for GET /pets/{petId}',
    );
  });

  it('accepts methods in any case and refuses unknown ones as invalid input', () => {
    assertValid(contract.validateInteraction({ request: request('get', '/pets/42') }));
    assertInvalid(
      contract.validateInteraction({ request: request('FETCH', '/pets/42') }),
      'input_validation',
      'invalid HTTP method "FETCH" (expected one of GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE)',
    );
  });

  it('refuses a path that does not start with "/"', () => {
    assertInvalid(
      contract.validateInteraction({ request: request('GET', 'pets/42') }),
      'http_request_creation',
      'request path "pets/42" is not valid: it must start with "/"',
    );
  });

  it('ignores a trailing slash and decodes percent-escapes', () => {
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/42/') }));
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/%34%32'), response: response(200, { body: PET }) }));
  });

  it('splits several parameters in one segment ({name}.{ext})', () => {
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/7/photos/summer.beach.jpg') }));
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/pets/7/photos/summer.bmp') }),
      'request_invalid',
      'parameter "ext" in path: value "bmp" must be one of "jpg", "png"',
    );
  });

  it('matches templates with router syntax in literals (/files/{file-id}:download)', () => {
    assertValid(contract.validateInteraction({ request: request('GET', `/files/${UUID}:download`) }));
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/files/nope:download') }),
      'request_invalid',
      'parameter "file-id" in path: value "nope" must match format "uuid"',
    );
  });

  it('validates an operation that declares security, without credentials (not enforced)', () => {
    // POST /pets declares `security: [{ apiKey: [] }]`; no X-API-Key header is sent.
    assertValid(
      contract.validateInteraction({
        request: request('POST', '/pets', { body: { name: 'Rex' } }),
        response: response(201, { body: { id: 1, name: 'Rex' } }),
      }),
    );
  });

  it('accepts any response for an operation that declares no responses', () => {
    assertValid(contract.validateInteraction({ request: request('GET', '/health'), response: response(503, { body: 'down' }) }));
  });
});

describe('routing: Swagger 2.0 basePath (converted to a server URL)', () => {
  it('matches paths with and without the basePath', async () => {
    const contract = await fixtureContract('pets-2.0-basepath.json');
    const pet = { id: 5, name: 'Tom' };
    assertValid(contract.validateInteraction({ request: request('GET', '/api/v2/pets/5'), response: response(200, { body: pet }) }));
    assertValid(contract.validateInteraction({ request: request('GET', '/pets/5'), response: response(200, { body: pet }) }));
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/api/v2/pets/0') }),
      'request_invalid',
      'parameter "petId" in path: value "0" must be >= 1',
    );
    assertInvalid(contract.validateInteraction({ request: request('GET', '/api/v3/pets/5') }), 'route_not_found', 'Path not found: /api/v3/pets/5');
  });
});

describe('routing: server variables and the servers of a path or an operation', () => {
  it('matches a prefix with any value a server variable\'s enum allows, and the prefixes of servers declared in place of the document\'s', () => {
    const contract = new CompiledContract({
      openapi: '3.0.3',
      info: { title: 'servers', version: '1.0.0' },
      servers: [{ url: 'https://{region}.example.com/{version}', variables: { region: { default: 'eu' }, version: { default: 'v1', enum: ['v1', 'v2'] } } }],
      paths: {
        '/pets': { get: { responses: { 204: { description: 'listed' } } } },
        '/legacy': { servers: [{ url: '/old' }], get: { responses: { 204: { description: 'listed' } } } },
        '/files': { post: { servers: [{ url: 'https://uploads.example.com/upload' }], responses: { 204: { description: 'stored' } } } },
      },
    } as OpenApiDocument);
    for (const [method, path] of [['GET', '/v1/pets'], ['GET', '/v2/pets'], ['GET', '/pets'], ['GET', '/old/legacy'], ['POST', '/upload/files'], ['POST', '/files']]) {
      assertValid(contract.validateInteraction({ request: request(method!, path!), response: response(204) }));
    }
    assertInvalid(contract.validateInteraction({ request: request('GET', '/v3/pets') }), 'route_not_found', 'Path not found: /v3/pets');
  });
});

describe('routing: documents that are unusual or broken never crash the constructor', () => {
  const operation = { responses: { '200': { description: 'ok' } } };
  const document = {
    openapi: '3.0.3',
    paths: {
      'no-leading-slash': { get: operation },
      '/joined/{a}{b}': {
        get: {
          parameters: [
            { name: 'a', in: 'path', required: true, schema: { type: 'string', maxLength: 1 } },
            { name: 'b', in: 'path', required: true, schema: { type: 'integer' } },
          ],
          ...operation,
        },
      },
      '/star/a*b': { get: operation },
      '/group/(x)': { get: operation },
      '/dup/{a}': { get: operation },
      '/dup/{b}': { get: operation },
      '/dangling': { $ref: '#/components/pathItems/missing' },
      '/not-an-operation': { get: 'nope', post: operation },
      '/{}': { get: operation },
    },
  } as unknown as OpenApiDocument;

  it('builds a router from what can be routed', () => {
    const contract = new CompiledContract(document);
    assertValid(contract.validateInteraction({ request: request('GET', '/joined/x7') }));
    // Adjacent parameters are split by their schemas (issue 15): `b` takes the digits, so `xy` matches no template.
    assertInvalid(contract.validateInteraction({ request: request('GET', '/joined/xy') }), 'route_not_found', 'Path not found: /joined/xy');
    assertInvalid(
      contract.validateInteraction({ request: request('GET', '/joined/ab7') }),
      'request_invalid',
      'parameter "a" in path: value "ab" must have at most 1 character',
    );
    assertValid(contract.validateInteraction({ request: request('GET', '/star/a*b') }));
    assertValid(contract.validateInteraction({ request: request('GET', '/group/(x)') }));
    assertValid(contract.validateInteraction({ request: request('GET', '/dup/1') }));
    assertValid(contract.validateInteraction({ request: request('POST', '/not-an-operation') }));
    assertInvalid(contract.validateInteraction({ request: request('GET', '/dangling') }), 'route_not_found', 'Path not found: /dangling');
  });

  it('treats a value that is not a document as one without paths', () => {
    for (const value of [null, 'text', { openapi: '3.0.0', paths: 'none', servers: 'none' }]) {
      const contract = new CompiledContract(value as unknown as OpenApiDocument);
      assertInvalid(contract.validateInteraction({ request: request('GET', '/x') }), 'route_not_found', 'Path not found: /x');
    }
  });
});

describe('CompiledContract lifecycle', () => {
  it('prepares operations on first use and counts them', async () => {
    const contract = await fixtureContract('petstore-3.0.json');
    assert.equal(contract.compiledOperationCount, 0);
    contract.validateInteraction({ request: request('GET', '/pets/1') });
    contract.validateInteraction({ request: request('GET', '/pets/2') });
    assert.equal(contract.compiledOperationCount, 1);
    contract.validateInteraction({ request: request('DELETE', '/pets/2') });
    assert.equal(contract.compiledOperationCount, 2);
  });

  it('close() is idempotent and later calls fail loudly', async () => {
    const contract = await fixtureContract('petstore-3.0.json');
    contract.validateInteraction({ request: request('GET', '/pets/1') });
    contract.close();
    contract.close();
    assert.throws(() => contract.validateInteraction({ request: request('GET', '/pets/1') }), /CompiledContract is closed/);
  });

  it('refuses bad options by name', () => {
    const document = { openapi: '3.0.0', paths: {} } as OpenApiDocument;
    assert.throws(() => new CompiledContract(document, { maxErrors: 0 }), /options\.maxErrors must be a positive integer/);
    assert.throws(() => new CompiledContract(document, { maxBodyBytes: 1.5 }), /options\.maxBodyBytes must be a positive integer/);
  });
});
