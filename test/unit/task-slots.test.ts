/** TaskSlots: at most n tasks at once, the others in the order they came, a slot freed whether a task resolves or throws. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TaskSlots } from '../../src/main/storage/task-slots';

test('runs at most its slots at once, the rest in order, and frees a slot when a task throws', { timeout: 5_000 }, async () => {
  const slots = new TaskSlots(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const task = (id: number, fail = false) => slots.run(async () => {
    started.push(id);
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    running--;
    if (fail) throw new Error(`task ${id} failed`);
    return id;
  });
  const results = await Promise.allSettled([task(1, true), task(2), task(3, true), task(4), task(5)]);
  assert.equal(most, 2);
  assert.deepEqual(started, [1, 2, 3, 4, 5]);
  assert.deepEqual(results.map((result) => result.status), ['rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  assert.equal(await slots.run(async () => 'free again'), 'free again', 'no slot was kept by a failed task');
});
