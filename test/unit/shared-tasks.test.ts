/**
 * Identical asks in flight share one task (shared-tasks.ts): its `allGone` holds once every asker
 * has gone; an asker without `gone` never goes; a task whose askers have all gone is not joined, and
 * one that has ended is forgotten.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSharedTasks } from '../../src/main/shared-tasks';

test('askers of one key share a task until every one of them has gone; then a new asker starts another', async () => {
  const tasks = createSharedTasks<string>();
  const started: Array<{ allGone: () => boolean; resolve: (value: string) => void }> = [];
  const start = (allGone: () => boolean) => new Promise<string>((resolve) => started.push({ allGone, resolve }));
  const gone = [false, false];
  const first = tasks.run('k', () => gone[0]!, start);
  const second = tasks.run('k', () => gone[1]!, start);
  const other = tasks.run('other', undefined, start);
  assert.equal(started.length, 2, 'one task for k, one for other');
  assert.equal(first, second);
  gone[0] = true;
  assert.equal(started[0]!.allGone(), false);
  gone[1] = true;
  assert.equal(started[0]!.allGone(), true);
  assert.equal(started[1]!.allGone(), false, 'an asker without gone never goes');

  const third = tasks.run('k', undefined, start);
  assert.equal(started.length, 3, 'a task whose askers have all gone is not joined');
  started[2]!.resolve('third');
  assert.equal(await third, 'third');
  const fourth = tasks.run('k', undefined, start);
  assert.equal(started.length, 4, 'an ended task is forgotten');
  for (const task of started) task.resolve('done');
  assert.deepEqual(await Promise.all([first, other, fourth]), ['done', 'done', 'done']);
});
