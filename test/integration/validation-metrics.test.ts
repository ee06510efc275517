/**
 * Validation metrics as scraped from /metrics: counts by schema, method and result, all seven
 * error categories, cache counters from the workers, and labels that stay bounded under a flood
 * of unknown schema ids and odd methods.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { UNKNOWN_LABEL } from '../../src/main/metrics';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});

after(() => server.close());

async function scrape(): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${server.server.metricsPort}/metrics`);
  assert.equal(response.status, 200);
  return response.text();
}

/** The value of one sample line, e.g. sample(text, 'svc_cache_items_total'); undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('a flood of unknown schema ids and odd methods never becomes label values', async () => {
  const flood = 400;
  await Promise.all(Array.from({ length: flood }, (_, i) => server.client.call('ValidateInteraction', {
    schema_id: `ghost-${i}`,
    request: { method: i % 2 === 0 ? 'GET' : `BREW${i}`, path: '/users/1', headers: {}, body: '' },
  })));
  const text = await scrape();
  assert.doesNotMatch(text, /ghost-/);
  assert.doesNotMatch(text, /BREW/);
  assert.equal(sample(text, `svc_validations_total{schema_id="${UNKNOWN_LABEL}",method="GET",result="invalid"}`), flood / 2);
  assert.equal(sample(text, `svc_validations_total{schema_id="${UNKNOWN_LABEL}",method="${UNKNOWN_LABEL}",result="invalid"}`), flood / 2);
  assert.ok((sample(text, 'svc_validation_errors_total{error_category="schema_not_found"}') ?? 0) >= flood);
  const seriesCount = text.split('\n').filter((l) => l.startsWith('svc_validations_total{')).length;
  assert.ok(seriesCount <= 4, `svc_validations_total has ${seriesCount} series`);
});

test('registered schemas are labelled by id; every error category is exported', async () => {
  await server.client.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  await server.client.call('ValidateInteraction', getUserInteraction('users', 'x', VALID_USER));
  await server.client.call('ValidateProducerResponse', {
    schema_id: 'users', method: 'delete', path: '/users/1', response: { status_code: 204, headers: {}, body: '' },
  });
  const text = await scrape();
  assert.ok((sample(text, 'svc_validations_total{schema_id="users",method="GET",result="valid"}') ?? 0) >= 1);
  assert.ok((sample(text, 'svc_validations_total{schema_id="users",method="GET",result="invalid"}') ?? 0) >= 1);
  assert.ok((sample(text, 'svc_validations_total{schema_id="users",method="DELETE",result="valid"}') ?? 0) >= 1);
  assert.ok((sample(text, 'svc_validation_duration_seconds_count{schema_id="users",method="GET"}') ?? 0) >= 2);
  assert.ok((sample(text, 'svc_validation_errors_total{error_category="request_invalid"}') ?? 0) >= 1);
  for (const category of ['input_validation', 'schema_not_found', 'http_request_creation', 'router_creation', 'route_not_found', 'request_invalid', 'response_invalid']) {
    assert.notEqual(sample(text, `svc_validation_errors_total{error_category="${category}"}`), undefined, category);
  }
});

test('the workers\' contract caches show up as hits, misses, items and bytes', async () => {
  await Promise.all(Array.from({ length: 50 }, (_, i) => server.client.call('ValidateInteraction', getUserInteraction('users', String(i), VALID_USER))));
  const text = await scrape();
  const misses = sample(text, 'svc_cache_misses_total') ?? 0;
  assert.ok(misses >= 1 && misses <= 2, `one contract build per worker at most, got ${misses}`);
  assert.ok((sample(text, 'svc_cache_hits_total') ?? 0) >= 50 - misses);
  const items = sample(text, 'svc_cache_items_total') ?? 0;
  assert.ok(items >= 1 && items <= 2, `items ${items}`);
  assert.ok((sample(text, 'svc_cache_size_bytes') ?? 0) > 1000);
});
