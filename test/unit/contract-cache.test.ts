/** The workers' compiled-contract cache: entry and byte budgets, least recently used out, idle TTL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractCache, DEFAULT_CONTRACT_CACHE_OPTIONS } from '../../src/workers/contract-cache';
import { LIMITS } from '../../src/shared/limits';

test('defaults are the spec limits: 1000 entries, 24 hours', () => {
  assert.equal(DEFAULT_CONTRACT_CACHE_OPTIONS.maxEntries, 1000);
  assert.equal(DEFAULT_CONTRACT_CACHE_OPTIONS.ttlMs, 24 * 60 * 60 * 1000);
  assert.equal(DEFAULT_CONTRACT_CACHE_OPTIONS.maxBytes, LIMITS.contractCacheMaxBytesPerWorker);
});

test('the least recently used entry leaves first when the entry budget is full', () => {
  const cache = new ContractCache<string>({ maxEntries: 2 });
  cache.set('a', 'A', 1);
  cache.set('b', 'B', 1);
  assert.equal(cache.get('a'), 'A'); // a is now the most recently used
  cache.set('c', 'C', 1);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 'A');
  assert.equal(cache.get('c'), 'C');
  assert.equal(cache.size, 2);
});

test('the byte budget evicts old entries but keeps the newest even when it alone is over', () => {
  const cache = new ContractCache<string>({ maxBytes: 100 });
  cache.set('a', 'A', 60);
  cache.set('b', 'B', 30);
  cache.set('c', 'C', 30);
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.bytes, 60);
  cache.set('huge', 'H', 500);
  assert.equal(cache.get('huge'), 'H');
  assert.equal(cache.size, 1);
  assert.equal(cache.bytes, 500);
});

test('an entry unused for longer than the TTL is gone; use keeps it alive', () => {
  let now = 0;
  const cache = new ContractCache<string>({ ttlMs: 1000, now: () => now });
  cache.set('used', 'U', 10);
  cache.set('idle', 'I', 10);
  now = 900;
  assert.equal(cache.get('used'), 'U');
  now = 1500;
  assert.equal(cache.get('used'), 'U', 'last used at 900, still within 1000 ms');
  assert.equal(cache.get('idle'), undefined);
  assert.equal(cache.size, 1);
  assert.equal(cache.bytes, 10);
  now = 5000;
  cache.set('fresh', 'F', 10); // setting sweeps expired entries from the old end
  assert.equal(cache.size, 1);
});

test('replacing a key keeps the byte count right', () => {
  const cache = new ContractCache<string>();
  cache.set('a', 'A1', 10);
  cache.set('a', 'A2', 25);
  assert.equal(cache.get('a'), 'A2');
  assert.equal(cache.bytes, 25);
});

test('invalid options name the option', () => {
  assert.throws(() => new ContractCache({ maxEntries: 0 }), /options\.maxEntries must be a positive integer/);
  assert.throws(() => new ContractCache({ ttlMs: 1.5 }), /options\.ttlMs/);
});

test('every value that leaves is handed to onEvict once', () => {
  const evicted: string[] = [];
  let now = 0;
  const cache = new ContractCache<string>({ maxEntries: 2, ttlMs: 100, now: () => now, onEvict: (value) => evicted.push(value) });
  cache.set('a', 'A', 1);
  cache.set('b', 'B', 1);
  cache.set('c', 'C', 1); // over the entry budget: A leaves
  cache.set('b', 'B2', 1); // replaced: B leaves
  now = 500;
  assert.equal(cache.get('c'), undefined); // expired: C leaves
  assert.deepEqual(evicted, ['A', 'B', 'C']);
});
