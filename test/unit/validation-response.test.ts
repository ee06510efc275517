/** Spec "Validation rules" 3–5: status codes, response headers, content type and body; producer mode. */
import { before, describe, it } from 'node:test';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, fixtureContract, request, response } from '../helpers/validation-contracts';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const REQUEST_ID = { 'X-Request-Id': '6f1c0c5e-8a4b-4a8e-9a3e-1f2d3c4b5a69' };
const PET = { id: 42, name: 'Rex', tag: null, owner: { email: 'owner@example.com' } };

describe('response', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json');
  });
  const getPet = (status: number, init: Parameters<typeof response>[1] = {}) =>
    contract.validateInteraction({ request: request('GET', '/pets/42'), response: response(status, init) });
  const listPets = (status: number, init: Parameters<typeof response>[1] = {}) =>
    contract.validateInteraction({ request: request('GET', '/pets', { headers: REQUEST_ID }), response: response(status, init) });

  describe('status code', () => {
    it('accepts a status code the operation declares', () => {
      assertValid(getPet(200, { headers: JSON_TYPE, body: PET }));
      assertValid(getPet(404, { body: { code: 404, message: 'no such pet' } }));
    });

    it('reports a status code the operation does not declare', () => {
      assertInvalid(getPet(500, { body: {} }), 'response_invalid', 'response status 500 is not defined for GET /pets/{petId}');
    });

    it('falls back to the default response', () => {
      assertValid(listPets(503, { body: { code: 503, message: 'busy' } }));
      assertInvalid(
        listPets(503, { body: {} }),
        'response_invalid',
        'response body: property "code" is required',
        'response body: property "message" is required',
      );
    });

    it('matches NXX ranges, after exact codes', () => {
      const order = { items: [{ sku: 'a', price: 1 }], customer: { email: 'a@example.com' } };
      const createOrder = (status: number, body: unknown) =>
        contract.validateInteraction({ request: request('POST', '/orders', { body: order }), response: response(status, { body }) });
      assertValid(createOrder(202, { queued: true }));
      assertInvalid(createOrder(202, {}), 'response_invalid', 'response body: property "queued" is required');
      assertValid(createOrder(201, { orderId: 'o-1', total: 1 }));
      assertInvalid(createOrder(201, { queued: true }), 'response_invalid', 'response body: property "orderId" is required', 'response body: property "total" is required');
      assertInvalid(createOrder(302, {}), 'response_invalid', 'response status 302 is not defined for POST /orders');
    });

    it('matches 4XX ranges given by a $ref response', () => {
      const createPet = (status: number, body: unknown) =>
        contract.validateInteraction({ request: request('POST', '/pets', { body: { name: 'Rex' } }), response: response(status, { body }) });
      assertValid(createPet(422, { code: 422, message: 'bad' }));
      assertInvalid(createPet(409, { code: 'conflict', message: 'taken' }), 'response_invalid', 'response body /code: must be integer');
    });

    it('refuses a status code outside 100–599 as an input error', () => {
      assertInvalid(getPet(0), 'http_request_creation', 'response status 0 is not a valid HTTP status code (100-599)');
    });
  });

  describe('headers', () => {
    const body = [PET];
    it('requires declared required headers, whatever their case', () => {
      assertValid(listPets(200, { headers: { 'x-rate-limit': '10' }, body }));
      assertInvalid(listPets(200, { body }), 'response_invalid', 'response header "X-Rate-Limit" is required');
    });

    it('checks header values against their schema', () => {
      assertInvalid(
        listPets(200, { headers: { 'X-Rate-Limit': 'abc' }, body }),
        'response_invalid',
        'response header "X-Rate-Limit": value "abc" is not a valid integer',
      );
      assertInvalid(
        listPets(200, { headers: { 'X-Rate-Limit': '-1', 'X-Next': 'not a uri' }, body }),
        'response_invalid',
        'response header "X-Rate-Limit": value "-1" must be >= 0',
        'response header "X-Next": value "not a uri" must match format "uri"',
      );
    });
  });

  describe('content type and body', () => {
    it('matches the declared media type (the document key may carry parameters)', () => {
      assertValid(getPet(200, { headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: PET }));
      assertInvalid(
        getPet(200, { headers: { 'Content-Type': 'text/html' }, body: '<p>Rex</p>' }),
        'response_invalid',
        'response content type "text/html" is not allowed (expected application/json)',
      );
    });

    it('matches media type ranges (image/*) without reading the body', () => {
      const photo = (contentType: string) =>
        contract.validateInteraction({
          request: request('GET', '/pets/7/photos/rex.png'),
          response: response(200, { headers: { 'Content-Type': contentType }, body: '\u0089PNG' }),
        });
      assertValid(photo('image/png'));
      assertInvalid(photo('application/json'), 'response_invalid', 'response content type "application/json" is not allowed (expected image/*)');
    });

    it('reports a missing response property in the spec shape, with the pointer when nested', () => {
      assertInvalid(getPet(200, { body: { name: 'Rex' } }), 'response_invalid', 'response body: property "id" is required');
      assertInvalid(getPet(200, { body: { ...PET, owner: {} } }), 'response_invalid', 'response body /owner: property "email" is required');
    });

    it('checks types and accepts null for nullable properties', () => {
      assertInvalid(getPet(200, { body: { ...PET, tag: 7 } }), 'response_invalid', 'response body /tag: must be string or null');
    });

    it('validates a body only when there is one', () => {
      assertValid(getPet(200));
      assertValid(contract.validateInteraction({ request: request('DELETE', '/pets/1'), response: response(204, { body: 'ignored' }) }));
    });

    it('reports request and response violations together, the category of the first', () => {
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/pets/abc'), response: response(200, { body: {} }) }),
        'request_invalid',
        'parameter "petId" in path: value "abc" is not a valid integer',
        'response body: property "id" is required',
        'response body: property "name" is required',
      );
    });
  });
});

describe('producer mode (ValidateProducerResponse)', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json');
  });

  it('checks only the response, found by method and path', () => {
    assertValid(contract.validateProducerResponse({ method: 'GET', path: '/api/v1/pets/42', response: response(200, { body: PET }) }));
    assertInvalid(
      contract.validateProducerResponse({ method: 'GET', path: '/pets/42', response: response(200, { body: { id: 'x' } }) }),
      'response_invalid',
      'response body: property "name" is required',
      'response body /id: must be integer',
    );
    // Request rules are not applied: a path value that would fail as a request parameter is fine.
    assertValid(contract.validateProducerResponse({ method: 'GET', path: '/pets/abc', response: response(200, { body: PET }) }));
  });

  it('accepts the path template itself', () => {
    assertValid(contract.validateProducerResponse({ method: 'GET', path: '/pets/{petId}', response: response(200, { body: PET }) }));
  });

  it('uses the optional request only to find the route', () => {
    const invalidRequest = request('POST', '/pets', { headers: { 'Content-Type': 'text/plain' }, body: 'not json' });
    assertValid(
      contract.validateProducerResponse({ method: '', path: '', request: invalidRequest, response: response(201, { body: PET }) }),
    );
    assertValid(
      contract.validateProducerResponse({
        method: 'GET',
        path: '/a/path/the/document/does/not/have',
        request: request('GET', '/api/v1/pets/42'),
        response: response(200, { body: PET }),
      }),
    );
    assertInvalid(
      contract.validateProducerResponse({ method: 'POST', path: '/pets', request: invalidRequest, response: response(500, { body: {} }) }),
      'response_invalid',
      'response status 500 is not defined for POST /pets',
    );
  });

  it('reports an unknown route', () => {
    assertInvalid(
      contract.validateProducerResponse({ method: 'GET', path: '/nothing', response: response(200) }),
      'route_not_found',
      'Path not found: /nothing',
    );
  });
});
