/**
 * Regression: ListEndpoints (and RegisterConsumer, GetCoverage, RecordInteractions) parsed the whole
 * document on the main thread on every miss of the registry's document cache: a 27 MB document of
 * 16,000 operations held every other caller 370 ms, again after 65 small registrations evicted it.
 * The operations are now listed on a document-task thread and kept per version.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import { recordInteractions } from '../helpers/recording';
import { USERS_SCHEMA_TEXT, VALID_USER, assertNeighbourNotHeld, getUserInteraction, registerSchema } from '../helpers/validation';

/** Few operations with deep schemas: the parse is long, the answer short (the client decodes it in this process too). */
const OPERATIONS = 1_000;
const SCHEMA_DEPTH = 24;

/** About 12 MB of JSON made of small objects, generated here. */
function largeDocument(): string {
  const schema = (depth: number): object => ({
    type: 'object',
    required: ['f0'],
    properties: Object.fromEntries(Array.from({ length: 6 }, (_, p) => [`f${p}`,
      depth > 1 && p === 5 ? schema(depth - 1) : p % 2 ? { type: 'string', maxLength: 64 } : { type: 'integer', minimum: 0 }])),
  });
  const paths: Record<string, object> = {};
  for (let i = 0; i < OPERATIONS; i++) {
    paths[`/r${i}/{id}`] = {
      put: {
        operationId: `put${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { required: true, content: { 'application/json': { schema: schema(SCHEMA_DEPTH) } } },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: schema(SCHEMA_DEPTH) } } } },
      },
    };
  }
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'large', version: '1.0.0' }, paths });
}

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  const response = await server.client.call('RegisterSchema', { schema_id: 'large', schema_content: largeDocument(), schema_version: '1.0.0' }, { deadlineMs: 120_000 });
  assert.equal(response.success, true, response.message);
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

test("ListEndpoints on a large document does not hold a neighbour's validations", async () => {
  await assertNeighbourNotHeld(
    async () => {
      const { endpoints } = await server.client.call('ListEndpoints', { schema_id: 'large' }, { deadlineMs: 60_000 });
      const ok = endpoints.length === OPERATIONS && endpoints[0].path === '/r0/{id}' && endpoints[0].operation_id === 'put0';
      return { valid: ok, errors: ok ? [] : [`${endpoints.length} endpoints, first ${JSON.stringify(endpoints[0])}`] };
    },
    (i) => server.client.call('ValidateInteraction', getUserInteraction('users', String(i + 1), { ...VALID_USER, id: i + 1 })),
  );
});

test('RegisterConsumer checks its endpoints against the listed operations', async () => {
  const registered = await server.client.call('RegisterConsumer', {
    consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'large', schema_version: '1.0.0', environment: '',
    used_endpoints: [{ method: 'put', path: '/r999/{key}', used_fields: [] }],
  });
  assert.equal(registered.success, true, registered.message);
  assert.deepEqual(registered.consumer.used_endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`), ['PUT /r999/{id}']);
  const refused = await server.client.call('RegisterConsumer', {
    consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'large', schema_version: '1.0.0', environment: '',
    used_endpoints: [{ method: 'GET', path: '/r1/{id}', used_fields: [] }],
  });
  assert.equal(refused.success, false);
  assert.match(refused.message, /1 endpoint is not in schema large version 1\.0\.0: GET \/r1\/\{id\}/);
});

test('RecordInteractions and GetCoverage use the listed operations: the main thread parses no document', async () => {
  // Any parse of a text this long on the main thread is the document's (it is about 12 MB).
  const parse = JSON.parse;
  let documentParses = 0;
  JSON.parse = ((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (typeof text === 'string' && text.length > 1_000_000) documentParses++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  try {
    const recorded = await recordInteractions(server.client, [{
      schema_id: 'large', schema_version: '1.0.0', environment: 'dev', consumer_id: 'web', valid: true,
      request: { method: 'PUT', path: '/r7/3', headers: {}, body: '' },
      response: { status_code: 200, headers: {}, body: '' },
    }]);
    assert.equal(recorded.accepted, 1, recorded.message);
    const coverage = await server.client.call('GetCoverage', { schema_id: 'large', schema_version: '1.0.0', environment: 'dev' });
    assert.equal(coverage.operations.length, OPERATIONS);
    const exercised = coverage.operations.find((operation: { path: string }) => operation.path === '/r7/{id}');
    assert.deepEqual(exercised.statuses.map((status: { status: string; call_count: string }) => [status.status, Number(status.call_count)]), [['200', 1]]);
  } finally {
    JSON.parse = parse;
  }
  assert.equal(documentParses, 0, 'the document was parsed on the main thread');
});
