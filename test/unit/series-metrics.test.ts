/**
 * SeriesCounter and SeriesHistogram against prom-client's Counter and Histogram: the same
 * observations must give the same exposition, text and JSON, Prometheus and OpenMetrics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import client from 'prom-client';
import { SeriesCounter, SeriesHistogram } from '../../src/main/series-metrics';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Values on, between, below and past the bounds. */
const OBSERVED = [0, 0.0001, 0.0005, 0.0007, 0.001, 0.003, 0.01, 0.04, 0.2, 0.5, 0.9, 3, 10, 11, 250];
const SERIES = [['users', 'GET'], ['users', 'POST'], ['orders "eu"\\', 'GET']] as const;

function fill(observe: (labels: readonly string[], value: number) => void, inc: (labels: readonly string[], amount: number) => void): void {
  SERIES.forEach((labels, index) => {
    for (const value of OBSERVED.slice(index)) observe(labels, value);
    inc([...labels, 'valid'], index + 1);
    inc([...labels, 'invalid'], 0);
  });
  inc(['users', 'GET', 'valid'], 2.5);
}

type ContentType = typeof client.Registry.PROMETHEUS_CONTENT_TYPE;

function promClientRegistry(contentType: string): client.Registry {
  const registry = new client.Registry();
  registry.setContentType(contentType as ContentType);
  const histogram = new client.Histogram({ name: 'x_duration_seconds', help: 'Duration', labelNames: ['schema_id', 'method'], buckets: BUCKETS, registers: [registry] });
  const counter = new client.Counter({ name: 'x_total', help: 'Calls', labelNames: ['schema_id', 'method', 'result'], registers: [registry] });
  fill((labels, value) => histogram.labels(...labels).observe(value), (labels, amount) => counter.labels(...labels).inc(amount));
  return registry;
}

function seriesRegistry(contentType: string): { registry: client.Registry; histogram: SeriesHistogram<string>; counter: SeriesCounter<string> } {
  const registry = new client.Registry();
  registry.setContentType(contentType as ContentType);
  const histogram = new SeriesHistogram({ name: 'x_duration_seconds', help: 'Duration', labelNames: ['schema_id', 'method'], buckets: BUCKETS, registry });
  const counter = new SeriesCounter({ name: 'x_total', help: 'Calls', labelNames: ['schema_id', 'method', 'result'], registry });
  // Handles held across observations, as the hot path holds them.
  const held = new Map<string, { observe(value: number): void } | { inc(amount: number): void }>();
  const handle = <T>(key: string, make: () => T): T => {
    if (!held.has(key)) held.set(key, make() as never);
    return held.get(key) as T;
  };
  fill(
    (labels, value) => handle(`h${labels.join('|')}`, () => histogram.labels(...labels)).observe(value),
    (labels, amount) => handle(`c${labels.join('|')}`, () => counter.labels(...labels)).inc(amount),
  );
  return { registry, histogram, counter };
}

describe('series metrics', () => {
  for (const contentType of [client.Registry.PROMETHEUS_CONTENT_TYPE, client.Registry.OPENMETRICS_CONTENT_TYPE]) {
    it(`write the same exposition as prom-client (${contentType.split(';')[0]})`, async () => {
      const expected = await promClientRegistry(contentType).metrics();
      assert.match(expected, /x_duration_seconds_bucket\{le="0.001",schema_id="users",method="GET"\} 5/);
      assert.equal(await seriesRegistry(contentType).registry.metrics(), expected);
    });
  }

  it('give the same JSON as prom-client, but for the exemplars prom-client leaves empty', async () => {
    // prom-client writes `exemplar: null` (or undefined) on samples when exemplars are off; these metrics have none.
    const withoutEmptyExemplars = (value: unknown) => JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'exemplar' && field == null ? undefined : field))) as unknown;
    const expected = withoutEmptyExemplars(await promClientRegistry(client.Registry.PROMETHEUS_CONTENT_TYPE).getMetricsAsJSON());
    assert.deepEqual(withoutEmptyExemplars(await seriesRegistry(client.Registry.PROMETHEUS_CONTENT_TYPE).registry.getMetricsAsJSON()), expected);
  });

  it('reset every series to zero and keep held handles counting', async () => {
    const { registry, histogram, counter } = seriesRegistry(client.Registry.PROMETHEUS_CONTENT_TYPE);
    const held = histogram.labels('users', 'GET');
    const heldCounter = counter.labels('users', 'GET', 'valid');
    registry.resetMetrics();
    assert.match(await registry.metrics(), /x_total\{schema_id="users",method="GET",result="valid"\} 0\n/);
    held.observe(0.002);
    heldCounter.inc();
    const text = await registry.metrics();
    assert.match(text, /x_duration_seconds_count\{schema_id="users",method="GET"\} 1\n/);
    assert.match(text, /x_duration_seconds_bucket\{le="0.001",schema_id="users",method="GET"\} 0\n/);
    assert.match(text, /x_duration_seconds_bucket\{le="0.0025",schema_id="users",method="GET"\} 1\n/);
    assert.match(text, /x_total\{schema_id="users",method="GET",result="valid"\} 1\n/);
  });

  it('refuse what prom-client refuses', () => {
    const registry = new client.Registry();
    const histogram = new SeriesHistogram({ name: 'y_seconds', help: 'y', labelNames: ['a'], buckets: [1, 2], registry });
    const counter = new SeriesCounter({ name: 'y_total', help: 'y', labelNames: ['a'], registry });
    assert.throws(() => histogram.labels('one', 'two'), /y_seconds has 1 labels \(a\), given 2/);
    assert.throws(() => histogram.labels('one').observe(Number.NaN), /finite values/);
    assert.throws(() => counter.labels('one').inc(-1), /only goes up/);
    assert.throws(() => new SeriesHistogram({ name: 'z', help: 'z', labelNames: [], buckets: [2, 1], registry }), /increasing/);
    assert.throws(() => new SeriesCounter({ name: 'y_total', help: 'again', labelNames: [], registry }), /already been registered/);
  });
});
