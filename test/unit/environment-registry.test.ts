/** EnvironmentRegistry against a real (in-memory) store: what concurrent creates answer. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EnvironmentRegistry } from '../../src/main/registry/environment-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';

test('two concurrent creates of one environment: one creates it, and both answer with the stored record', async () => {
  const registry = new EnvironmentRegistry(new MemoryStorage(), { now: () => 1_700_000_000 });
  const answers = await Promise.all([
    registry.create('qa', 'from the first caller', 'alice'),
    registry.create('qa', 'from the second caller', 'bob'),
  ]);
  assert.deepEqual(answers.map((answer) => answer.created).sort(), [false, true]);
  const [stored] = (await registry.list()).filter((environment) => environment.name === 'qa');
  assert.equal(stored.description, 'from the first caller');
  for (const answer of answers) assert.deepEqual(answer.environment, stored);
});
