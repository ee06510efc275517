/** The least-recently-used cache bounded by entries and by the weight of what it holds. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache } from '../../src/shared/lru-cache';

describe('LruCache with a weight budget', () => {
  it('never holds more than its budget, evicting the least recently used first', () => {
    const cache = new LruCache<string, string>(100, { maxWeight: 10, weigh: (value) => value.length });
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    assert.equal(cache.get('a'), 'xxxx'); // a is now the most recently used
    cache.set('c', 'xxxx');
    assert.equal(cache.weight, 8);
    assert.equal(cache.get('b'), undefined, 'b, the least recently used, went out');
    assert.deepEqual([cache.get('a'), cache.get('c')], ['xxxx', 'xxxx']);
    for (let i = 0; i < 50; i++) {
      cache.set(`k${i}`, 'x'.repeat(1 + (i % 7)));
      assert.ok(cache.weight <= 10, `weight ${cache.weight} after set ${i}`);
    }
  });

  it('re-weighs a value set again under the same key', () => {
    const cache = new LruCache<string, { size: number }>(100, { maxWeight: 10, weigh: (value) => value.size });
    const grows = { size: 2 };
    cache.set('grows', grows);
    cache.set('other', { size: 6 });
    grows.size = 5;
    cache.set('grows', grows);
    assert.equal(cache.weight, 5);
    assert.equal(cache.get('other'), undefined);
  });

  it('keeps no value heavier than the whole budget, and evicts nothing for it', () => {
    const cache = new LruCache<string, string>(100, { maxWeight: 10, weigh: (value) => value.length });
    cache.set('small', 'xx');
    cache.set('huge', 'x'.repeat(11));
    assert.equal(cache.get('huge'), undefined);
    assert.equal(cache.get('small'), 'xx');
    assert.equal(cache.weight, 2);
  });

  it('still bounds the entry count', () => {
    const cache = new LruCache<number, string>(3, { maxWeight: 1_000, weigh: () => 1 });
    for (let i = 0; i < 10; i++) cache.set(i, 'v');
    assert.equal(cache.size, 3);
    assert.equal(cache.weight, 3);
    assert.equal(cache.get(6), undefined);
    assert.equal(cache.get(9), 'v');
  });

  it('refuses a budget that is not a positive number', () => {
    assert.throws(() => new LruCache(1, { maxWeight: 0, weigh: () => 1 }), /budget.maxWeight must be a positive number/);
  });
});
