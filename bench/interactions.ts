/**
 * The fixed interactions the benches validate: for a small, a medium and a large public
 * description, valid ones and ones with one known violation each. Both engines run exactly this
 * set, and the engine bench checks that each engine's verdicts match `valid` before timing.
 */
import type { HttpRequestInput, HttpResponseInput } from '../src/shared/validation/types';

export interface BenchInteraction {
  name: string;
  request: HttpRequestInput;
  response: HttpResponseInput;
  valid: boolean;
}

export interface BenchSchema {
  size: 'small' | 'medium' | 'large';
  title: string;
  /** The document inside .cache/corpora. */
  corpusFile: string;
  interactions: BenchInteraction[];
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

function get(path: string, statusCode: number, body: unknown, valid: boolean, name: string): BenchInteraction {
  return {
    name,
    valid,
    request: { method: 'GET', path, headers: {}, body: '' },
    response: { statusCode, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) },
  };
}

function send(method: string, path: string, requestBody: unknown, statusCode: number, responseBody: unknown, valid: boolean, name: string): BenchInteraction {
  return {
    name,
    valid,
    request: { method, path, headers: { ...JSON_HEADERS }, body: JSON.stringify(requestBody) },
    response: {
      statusCode,
      headers: responseBody === undefined ? {} : { ...JSON_HEADERS },
      body: responseBody === undefined ? '' : JSON.stringify(responseBody),
    },
  };
}

const pet = (id: number) => ({
  id, name: `doggie-${id}`, photoUrls: ['https://example.com/a.png'], status: 'available',
  category: { id: 1, name: 'dogs' }, tags: [{ id: 1, name: 'friendly' }],
});

export const PETSTORE: BenchSchema = {
  size: 'small',
  title: 'Swagger Petstore (20 operations)',
  corpusFile: '@readme/oas-examples/3.0/json/petstore.json',
  interactions: [
    get('/pet/42', 200, pet(42), true, 'get pet'),
    get('/pet/findByStatus?status=available', 200, [pet(1), pet(2), pet(3)], true, 'find pets by status'),
    get('/store/order/5', 200, { id: 5, petId: 42, quantity: 1, shipDate: '2024-05-01T10:00:00Z', status: 'placed', complete: false }, true, 'get order'),
    send('POST', '/pet', { name: 'rex', photoUrls: [] }, 405, undefined, true, 'add pet'),
    get('/pet/abc', 200, pet(1), false, 'path parameter not an integer'),
    get('/pet/42', 200, { id: 42, name: 'doggie' }, false, 'response misses photoUrls'),
    get('/store/order/5', 200, { id: 5, status: 'lost' }, false, 'response enum violated'),
    send('POST', '/pet', { name: 5, photoUrls: 'x' }, 405, undefined, false, 'request body types wrong'),
  ],
};

const animal = (uid: string) => ({ uid, name: 'Tribble', earthAnimal: false, earthInsect: false, avian: false, canine: false, feline: false });

export const STAR_TREK: BenchSchema = {
  size: 'medium',
  title: 'Star Trek API (120 operations, 0.5 MB)',
  corpusFile: '@readme/oas-examples/3.0/json/star-trek.json',
  interactions: [
    get('/animal?uid=ANMA0000001', 200, { animal: animal('ANMA0000001') }, true, 'get animal'),
    get('/animal/search?pageNumber=0&pageSize=3', 200, {
      page: { pageNumber: 0, pageSize: 3, numberOfElements: 3, totalElements: 90, totalPages: 30, firstPage: true, lastPage: false },
      sort: { clauses: [] },
      animals: [animal('A1'), animal('A2'), animal('A3')],
    }, true, 'search animals'),
    get('/animal?uid=ANMA0000001', 200, { animal: { uid: 'x', name: 'y', avian: 'no' } }, false, 'response property type wrong'),
    get('/animal', 200, { animal: animal('A1') }, false, 'required query parameter missing'),
    get('/animal/search?pageNumber=first', 200, { animals: [] }, false, 'query parameter not an integer'),
    get('/animal?uid=A1', 200, { animal: { name: 'no uid' } }, false, 'nested required property missing'),
  ],
};

const label = (name: string) => ({
  id: 208045946, node_id: 'MDU6TGFiZWwyMDgwNDU5NDY=', url: `https://api.github.com/repos/octocat/hello/labels/${name}`,
  name, description: 'Something is not working', color: 'f29513', default: true,
});
const rate = { limit: 5000, remaining: 4999, reset: 1372700873, used: 1 };

export const GITHUB: BenchSchema = {
  size: 'large',
  title: "GitHub REST API (api.github.com, ~1,100 operations, 13 MB)",
  corpusFile: '@octokit/openapi/generated/api.github.com.json',
  interactions: [
    get('/repos/octocat/hello/labels/bug', 200, label('bug'), true, 'get label'),
    get('/repos/octocat/hello/labels?per_page=30&page=1', 200, [label('bug'), label('docs')], true, 'list labels'),
    send('POST', '/repos/octocat/hello/labels', { name: 'bug', color: 'f29513' }, 201, label('bug'), true, 'create label'),
    get('/rate_limit', 200, { resources: { core: rate, search: rate }, rate }, true, 'rate limit'),
    get('/repos/octocat/hello/labels/bug', 200, { ...label('bug'), color: undefined }, false, 'response misses color'),
    get('/repos/octocat/hello/labels?per_page=many', 200, [], false, 'query parameter not an integer'),
    send('POST', '/repos/octocat/hello/labels', { color: 'f29513' }, 201, label('bug'), false, 'request misses name'),
    get('/rate_limit', 200, { resources: { core: { ...rate, used: 'one' }, search: rate }, rate }, false, 'nested type wrong'),
  ],
};

export const BENCH_SCHEMAS: readonly BenchSchema[] = Object.freeze([PETSTORE, STAR_TREK, GITHUB]);
