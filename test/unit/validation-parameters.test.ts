/** Spec "Validation rules" 2: path, query, header and cookie parameters, with coercion and styles. */
import { before, describe, it } from 'node:test';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, fixtureContract, request, textContract } from '../helpers/validation-contracts';

const REQUEST_ID = { 'X-Request-Id': '6f1c0c5e-8a4b-4a8e-9a3e-1f2d3c4b5a69' };
const SESSION = { Cookie: 'theme=dark; session=abcdefgh' };

describe('parameters', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json');
  });
  const listPets = (query: string, headers: Record<string, string> = REQUEST_ID) =>
    contract.validateInteraction({ request: request('GET', `/pets${query}`, { headers }) });
  const search = (query: string, headers: Record<string, string> = SESSION) =>
    contract.validateInteraction({ request: request('GET', `/search?q=ab&${query}`, { headers }) });
  const get = (path: string) => contract.validateInteraction({ request: request('GET', path) });

  describe('in path', () => {
    it('checks minimum and maximum after coercion', () => {
      assertValid(contract.validateInteraction({ request: request('GET', '/pets/1000000') }));
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/pets/0') }),
        'request_invalid',
        'parameter "petId" in path: value "0" must be >= 1',
      );
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/pets/1000001') }),
        'request_invalid',
        'parameter "petId" in path: value "1000001" must be <= 1000000',
      );
    });

    it('reads the label style (/labels/.1.2.3)', () => {
      assertValid(contract.validateInteraction({ request: request('GET', '/labels/.1.2.3') }));
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/labels/.1.x') }),
        'request_invalid',
        'parameter "ids" in path: value "x" is not a valid integer',
      );
    });

    it('reads the matrix style (/matrix/;x=1;y=2)', () => {
      assertValid(contract.validateInteraction({ request: request('GET', '/matrix/;x=1;y=2') }));
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/matrix/;x=1;y=z') }),
        'request_invalid',
        'parameter "point" in path: value "z" is not a valid integer',
      );
    });

    it('splits a path value on its separators as written, then decodes each item (an encoded comma stays in its item)', () => {
      assertValid(get('/tags/Smith%2C%20J,Doe'));
      assertInvalid(get('/tags/a,b,c'), 'request_invalid', 'parameter "names" in path: must have at most 2 items');
      assertInvalid(get('/tags/a,%2C,b'), 'request_invalid', 'parameter "names" in path: must have at most 2 items');
      assertInvalid(get('/labels/.1.2%2E3'), 'request_invalid', 'parameter "ids" in path: value "2.3" is not a valid integer');
      assertValid(get('/labels/.1.%32'));
      // A template the router does not take (two parameters in one segment) is matched by its own matcher.
      assertValid(get('/pets/1/photos/a%2Eb.png'));
      // A literal written with escapes: the router's decoded values stand, and are not decoded twice.
      assertInvalid(get('/t%61gs/a%2525,b,c'), 'request_invalid', 'parameter "names" in path: must have at most 2 items');
    });
  });

  describe('in query', () => {
    it('coerces integers and checks their bounds', () => {
      assertValid(listPets('?limit=100'));
      assertInvalid(listPets('?limit=abc'), 'request_invalid', 'parameter "limit" in query: value "abc" is not a valid integer');
      assertInvalid(listPets('?limit=1.5'), 'request_invalid', 'parameter "limit" in query: value "1.5" is not a valid integer');
      assertInvalid(listPets('?limit=0'), 'request_invalid', 'parameter "limit" in query: value "0" must be >= 1');
      assertInvalid(listPets('?limit=101'), 'request_invalid', 'parameter "limit" in query: value "101" must be <= 100');
    });

    it('checks enum, format and pattern', () => {
      assertValid(listPets('?status=sold&born=2020-02-29&code=ABC'));
      assertInvalid(
        listPets('?status=lost'),
        'request_invalid',
        'parameter "status" in query: value "lost" must be one of "available", "pending", "sold"',
      );
      assertInvalid(listPets('?born=2021-02-29'), 'request_invalid', 'parameter "born" in query: value "2021-02-29" must match format "date"');
      assertInvalid(listPets('?code=abc'), 'request_invalid', 'parameter "code" in query: value "abc" must match pattern "^[A-Z]{3}$"');
    });

    it('coerces booleans and numbers (3.0 boolean exclusiveMinimum)', () => {
      assertValid(listPets('?vaccinated=true&weight=0.5'));
      assertInvalid(listPets('?vaccinated=yes'), 'request_invalid', 'parameter "vaccinated" in query: value "yes" is not a valid boolean');
      assertInvalid(listPets('?weight=heavy'), 'request_invalid', 'parameter "weight" in query: value "heavy" is not a valid number');
      assertInvalid(listPets('?weight=0'), 'request_invalid', 'parameter "weight" in query: value "0" must be > 0');
    });

    it('reads exploded form arrays (?tags=a&tags=b) and comma-separated ones (?ids=1,2)', () => {
      assertValid(listPets('?tags=a&tags=b&ids=1,2,3'));
      assertInvalid(listPets('?tags=a&tags=b&tags=c&tags=d'), 'request_invalid', 'parameter "tags" in query: must have at most 3 items');
      assertInvalid(listPets('?ids=1,x'), 'request_invalid', 'parameter "ids" in query: value "x" is not a valid integer');
    });

    it('allows unknown query parameters and reports every violation', () => {
      assertValid(listPets('?unknown=1&limit=5'));
      assertInvalid(
        listPets('?limit=0&status=lost&vaccinated=maybe'),
        'request_invalid',
        'parameter "limit" in query: value "0" must be >= 1',
        'parameter "status" in query: value "lost" must be one of "available", "pending", "sold"',
        'parameter "vaccinated" in query: value "maybe" is not a valid boolean',
      );
    });

    it('quotes a failing value as received, not as the number it was read as', () => {
      assertInvalid(listPets('?limit=0101'), 'request_invalid', 'parameter "limit" in query: value "0101" must be <= 100');
      assertInvalid(search('filter[size]=011'), 'request_invalid', 'parameter "filter" in query /size: value "011" must be <= 10');
      assertInvalid(get('/pets/01000001'), 'request_invalid', 'parameter "petId" in path: value "01000001" must be <= 1000000');
    });

    it('reports a missing required parameter', () => {
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/search', { headers: SESSION }) }),
        'request_invalid',
        'parameter "q" in query is required',
      );
    });

    it('splits a value on its separators as written, then decodes each item (an encoded comma stays in its item)', () => {
      assertInvalid(listPets('?ids=1%2C2'), 'request_invalid', 'parameter "ids" in query: value "1,2" is not a valid integer');
      assertInvalid(listPets('?ids=3,1%2C2'), 'request_invalid', 'parameter "ids" in query: value "1,2" is not a valid integer');
      assertInvalid(search('point=x,1%2C5,y,2'), 'request_invalid', 'parameter "point" in query: value "1,5" is not a valid number');
      assertInvalid(listPets('?tags=a%2Cb&tags=c&tags=d&tags=e'), 'request_invalid', 'parameter "tags" in query: must have at most 3 items');
      assertValid(listPets('?tags=a%2Cb&tags=c%20d&tags=e'));
      // Pipes and spaces are often encoded themselves: either way they separate.
      assertValid(search('colors=red%7Cblue|green&sizes=1%202+3 4'));
      assertValid(search('filter[color]=dark%20red&filter[size]=%31'));
    });

    it('reads pipeDelimited and spaceDelimited arrays', () => {
      assertValid(search('colors=red|blue&sizes=1%202+3'));
      assertInvalid(search('sizes=1%20x'), 'request_invalid', 'parameter "sizes" in query: value "x" is not a valid integer');
    });

    it('reads deepObject objects (?filter[size]=3) with their property pointer', () => {
      assertValid(search('filter[color]=red&filter[size]=3'));
      assertInvalid(search('filter[size]=11'), 'request_invalid', 'parameter "filter" in query /size: value "11" must be <= 10');
      assertInvalid(search('filter[size]=big'), 'request_invalid', 'parameter "filter" in query: value "big" is not a valid integer');
    });

    it('reads non-exploded form objects (?point=x,1,y,2)', () => {
      assertValid(search('point=x,1,y,2'));
      assertInvalid(search('point=x,1'), 'request_invalid', 'parameter "point" in query: property "y" is required');
    });

    it('honours allowEmptyValue', () => {
      assertValid(search('empty='));
      assertInvalid(search('empty=abc'), 'request_invalid', 'parameter "empty" in query: value "abc" is not a valid integer');
    });

    it('parses parameters described by JSON content', () => {
      assertValid(search(`where=${encodeURIComponent('{"field":"name"}')}`));
      assertInvalid(search('where=%7Bbad'), 'request_invalid', 'parameter "where" in query: value "{bad" is not valid JSON');
      assertInvalid(search('where=%7B%7D'), 'request_invalid', 'parameter "where" in query: property "field" is required');
    });
  });

  describe('in header', () => {
    it('finds header parameters whatever the case of the name', () => {
      const id = REQUEST_ID['X-Request-Id'];
      assertValid(listPets('', { 'x-request-id': id }));
      assertValid(listPets('', { 'X-REQUEST-ID': id }));
    });

    it('reports missing required headers and values against their schema', () => {
      assertInvalid(listPets('', {}), 'request_invalid', 'parameter "X-Request-Id" in header is required');
      assertInvalid(listPets('', { 'X-Request-Id': '123' }), 'request_invalid', 'parameter "X-Request-Id" in header: value "123" must match format "uuid"');
    });

    it('reads arrays in the simple style', () => {
      assertValid(search('', { ...SESSION, 'X-Trace': '1, 2' }));
      assertInvalid(search('', { ...SESSION, 'X-Trace': '1,x' }), 'request_invalid', 'parameter "X-Trace" in header: value "x" is not a valid integer');
    });

    it('ignores Accept, Content-Type and Authorization parameters, as OpenAPI says', () => {
      // /search declares a required "Accept" header parameter; none is sent.
      assertValid(search(''));
    });
  });

  describe('in cookie', () => {
    it('reads the Cookie header', () => {
      assertInvalid(
        contract.validateInteraction({ request: request('GET', '/search?q=ab') }),
        'request_invalid',
        'parameter "session" in cookie is required',
      );
      assertInvalid(
        search('', { Cookie: 'session=short' }),
        'request_invalid',
        'parameter "session" in cookie: value "short" must have at least 8 characters',
      );
    });
  });
});

describe('nullable scalar parameters', () => {
  /** GET /n with an integer query parameter `n` that admits null as each version writes it. */
  const nullableContract = async (openapi: string, schema: object) => (await textContract(JSON.stringify({
    openapi,
    info: { title: 'nullable', version: '1.0.0' },
    paths: { '/n': { get: { parameters: [{ name: 'n', in: 'query', schema }], responses: { 204: { description: 'none' } } } } },
  }))).contract;
  const call = (contract: CompiledContract, query: string) => contract.validateInteraction({ request: request('GET', `/n${query}`) });

  it('read the text null, or an empty value, as null (3.1 type list, 3.0 nullable): both were "not a valid integer"', async () => {
    for (const contract of [await nullableContract('3.1.0', { type: ['integer', 'null'] }), await nullableContract('3.0.3', { type: 'integer', nullable: true })]) {
      assertValid(call(contract, '?n=null'));
      assertValid(call(contract, '?n='));
      assertValid(call(contract, '?n=7'));
      assertInvalid(call(contract, '?n=seven'), 'request_invalid', 'parameter "n" in query: value "seven" must be integer or null');
    }
  });

  it('a parameter that does not admit null still refuses the text null (3.1 has no nullable keyword)', async () => {
    for (const contract of [await nullableContract('3.0.3', { type: 'integer' }), await nullableContract('3.1.0', { type: 'integer', nullable: true })]) {
      assertInvalid(call(contract, '?n=null'), 'request_invalid', 'parameter "n" in query: value "null" is not a valid integer');
    }
  });
});
