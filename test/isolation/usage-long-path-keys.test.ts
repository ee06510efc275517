/**
 * Usage keys of an operation whose path template is over 16 Ki characters (a schema's own:
 * `/{a parameter name of any length}` matches the real path `/x`). V8 hashes a string that long by
 * its length alone, so keys that differ by their status only made each look-up of the usage registry
 * compare them all: 3,000 recorded interactions took 33 s and held other callers' calls 1.3 s (p50).
 * A long template stands in a key by its digest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageRegistry, type UsageObservation } from '../../src/main/evidence/usage-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { usageKeyString } from '../../src/main/storage/usage-keys';

const KEYS = 2_000;
const TEMPLATE = `/{${'a'.repeat(17_000)}}`;

const observation = (status: number): UsageObservation => ({
  consumerId: 'web', schemaId: 'long', schemaVersion: '1.0.0', environment: 'dev', method: 'GET', path: TEMPLATE, status, valid: true,
  usedFields: [], receivedFields: [], shape: 'one', interactionJson: '{}',
});

test('usage keys of a long path template are told apart at once', async () => {
  const registry = await UsageRegistry.open(new MemoryStorage(), { limits: { flushIntervalMs: 3_600_000 } });
  try {
    const started = performance.now();
    for (let i = 0; i < KEYS; i++) assert.equal(registry.observe(observation(100_000_000 + i)), undefined);
    const ms = performance.now() - started;
    assert.equal(registry.size, KEYS);
    // About 20 ms measured on the 2-core test machine; several seconds when every look-up compared the keys.
    assert.ok(ms < 500, `${KEYS} observations took ${Math.round(ms)} ms`);
    const [usage] = await registry.list({ schemaId: 'long' });
    assert.equal(usage?.path, TEMPLATE, 'the stored row keeps the template itself');
  } finally {
    await registry.close();
  }
});

test('keys differ by their template, long or short', () => {
  const key = (path: string) => usageKeyString({ ...observation(200), path });
  assert.notEqual(key(TEMPLATE), key(`${TEMPLATE.slice(0, -2)}b}`));
  assert.notEqual(key('/users'), key('/users/{id}'));
  assert.equal(key(TEMPLATE), key(`/{${'a'.repeat(17_000)}}`));
});
