/** Metrics.render: concurrent scrapes share one rendering of the registry; a later scrape renders anew. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Metrics } from '../../src/main/metrics';

test('eight concurrent scrapes render the registry once and get the same text; the next scrape sees later counts', async () => {
  const metrics = new Metrics();
  const renderRegistry = metrics.registry.metrics.bind(metrics.registry);
  let renderings = 0;
  metrics.registry.metrics = () => {
    renderings += 1;
    return renderRegistry();
  };
  metrics.cacheHits.inc();
  const texts = await Promise.all(Array.from({ length: 8 }, () => metrics.render()));
  assert.equal(renderings, 1);
  assert.equal(new Set(texts).size, 1);
  assert.match(texts[0], /^svc_cache_hits_total 1$/m);

  metrics.cacheHits.inc();
  const later = await metrics.render();
  assert.equal(renderings, 2);
  assert.match(later, /^svc_cache_hits_total 2$/m);
});
