import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LinkedMap } from '../../src/shared/linked-map';

const key = (name: string) => ({ name });

test('keeps insertion order; setting a known key changes its value in place', () => {
  const map = new LinkedMap<{ name: string }, number>();
  const [a, b, c] = [key('a'), key('b'), key('c')];
  map.set(a, 1).set(b, 2).set(c, 3);
  map.set(a, 10);
  assert.equal(map.size, 3);
  assert.deepEqual(map.entries().map(([k, v]) => [k.name, v]), [['a', 10], ['b', 2], ['c', 3]]);
  assert.deepEqual(map.keys().map((k) => k.name), ['a', 'b', 'c']);
  assert.deepEqual(map.first(), [a, 10]);
  assert.equal(map.get(b), 2);
  assert.equal(map.has(c), true);
  assert.equal(map.get(key('a')), undefined, 'keys are compared by identity');
});

test('deletes from the front, the middle and the end, and a key can come back last', () => {
  const map = new LinkedMap<{ name: string }, string>();
  const keys = ['a', 'b', 'c', 'd', 'e'].map(key);
  for (const k of keys) map.set(k, k.name);
  assert.equal(map.delete(keys[2]!), true);
  assert.equal(map.delete(keys[2]!), false, 'a key deleted twice');
  assert.equal(map.delete(keys[0]!), true);
  assert.equal(map.delete(keys[4]!), true);
  assert.deepEqual(map.keys().map((k) => k.name), ['b', 'd']);
  assert.equal(map.size, 2);
  map.set(keys[0]!, 'again');
  assert.deepEqual(map.entries().map(([k, v]) => [k.name, v]), [['b', 'b'], ['d', 'd'], ['a', 'again']]);
  for (const k of map.keys()) map.delete(k);
  assert.equal(map.size, 0);
  assert.equal(map.first(), undefined);
  assert.deepEqual(map.entries(), []);
  map.set(keys[1]!, 'alone');
  assert.deepEqual(map.first(), [keys[1], 'alone']);
});

test('what entries() returned stays as it was while the map changes', () => {
  const map = new LinkedMap<{ name: string }, number>();
  const keys = ['a', 'b', 'c'].map(key);
  keys.forEach((k, i) => map.set(k, i));
  const seen: string[] = [];
  for (const [k] of map.entries()) {
    seen.push(k.name);
    map.delete(k);
    map.set(key(`${k.name}2`), 0);
  }
  assert.deepEqual(seen, ['a', 'b', 'c']);
  assert.deepEqual(map.keys().map((k) => k.name), ['a2', 'b2', 'c2']);
});
