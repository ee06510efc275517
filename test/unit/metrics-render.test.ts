/**
 * Metrics.render: the registry's own exposition, byte for byte, written a metric per turn of the
 * event loop; concurrent scrapes share one rendering, a later scrape renders anew.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Metrics } from '../../src/main/metrics';
import { countTurns } from '../helpers/event-loop-turns';

/** Process metrics move between two renderings; these lines are left out of comparisons. */
const PROCESS_LINE = /^(process_|nodejs_)/;

function withoutProcessMetrics(text: string): string {
  return text.split('\n').filter((line) => !PROCESS_LINE.test(line) && !/^# (HELP|TYPE) (process_|nodejs_)/.test(line)).join('\n');
}

test('the rendering is what the registry writes, escaped label values and hot-path series included', async () => {
  const metrics = new Metrics();
  for (const schemaId of ['users', 'odd "quoted" \\ back\nslash', metrics.schemaIdLabel('orders')]) {
    metrics.validations.labels(schemaId, 'ValidateInteraction', 'valid').inc(3);
    metrics.validations.labels(schemaId, 'ValidateInteraction', 'invalid').inc(0.5);
    for (const seconds of [0.0001, 0.003, 0.2, 11, 0]) metrics.validationDuration.labels(schemaId, 'ValidateInteraction').observe(seconds);
  }
  metrics.grpcRequests.labels('ValidateInteraction', 'OK').inc();
  metrics.grpcDuration.labels('ValidateInteraction').observe(0.004);
  metrics.schemasByOwner.labels('team "a"').set(2);
  const [ours, registry] = [await metrics.render(), await metrics.registry.metrics()];
  assert.match(ours, /^svc_validation_duration_seconds_bucket\{le="0\.0005",schema_id="odd \\"quoted\\" \\\\ back\\nslash",method="ValidateInteraction"\} 2$/m);
  assert.equal(withoutProcessMetrics(ours), withoutProcessMetrics(registry));
});

test('eight concurrent scrapes render once and get the same text; the next scrape sees later counts', async () => {
  const metrics = new Metrics();
  const renderMetric = metrics.registry.getSingleMetricAsString.bind(metrics.registry);
  let cacheHitsRendered = 0;
  metrics.registry.getSingleMetricAsString = (name: string) => {
    if (name === 'svc_cache_hits_total') cacheHitsRendered += 1;
    return renderMetric(name);
  };
  metrics.cacheHits.inc();
  const texts = await Promise.all(Array.from({ length: 8 }, () => metrics.render()));
  assert.equal(cacheHitsRendered, 1);
  assert.equal(new Set(texts).size, 1);
  assert.match(texts[0]!, /^svc_cache_hits_total 1$/m);

  metrics.cacheHits.inc();
  const later = await metrics.render();
  assert.equal(cacheHitsRendered, 2);
  assert.match(later, /^svc_cache_hits_total 2$/m);
});

test('no turn of the event loop writes more than one metric', async () => {
  const metrics = new Metrics();
  const turns = countTurns();
  const turnsWritten: number[] = [];
  const renderMetric = metrics.registry.getSingleMetricAsString.bind(metrics.registry);
  metrics.registry.getSingleMetricAsString = (name: string) => {
    turnsWritten.push(turns.turn);
    return renderMetric(name);
  };
  await metrics.render();
  turns.stop();
  assert.ok(turnsWritten.length > 10, `${turnsWritten.length} metrics through the registry`);
  assert.equal(new Set(turnsWritten).size, turnsWritten.length, 'two metrics were written in one turn');
});
