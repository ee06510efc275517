/**
 * rateLimited: at most its lines per window, and a flood that stops is told when its window ends.
 * Before, the lines left out were told only by the next line written: after a flood of refused keys
 * and then quiet, the log held 60 lines of 200 refusals and never the other 140.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { rateLimited } from '../../src/main/log-rate-limit';

const WINDOW_MS = 150;

test('lines left out in a window that ends quietly are written at its end: the last one, carrying how many came before it', async () => {
  const limited = rateLimited(2, WINDOW_MS);
  const lines: Array<{ id: number; suppressed: number }> = [];
  for (let id = 1; id <= 7; id++) limited((suppressed) => lines.push({ id, suppressed }));
  assert.deepEqual(lines, [{ id: 1, suppressed: 0 }, { id: 2, suppressed: 0 }]);
  await sleep(WINDOW_MS * 3);
  assert.deepEqual(lines.slice(2), [{ id: 7, suppressed: 4 }], 'the flood is told once its window ends');
  // The summary opened a window of its own: one more line fits in it, then lines are left out again.
  limited((suppressed) => lines.push({ id: 8, suppressed }));
  assert.deepEqual(lines.slice(3), [{ id: 8, suppressed: 0 }]);
});

test('a line written after the window ends carries the count, and no summary is written besides', async () => {
  const limited = rateLimited(1, WINDOW_MS);
  const lines: Array<{ id: number; suppressed: number }> = [];
  limited((suppressed) => lines.push({ id: 1, suppressed }));
  limited((suppressed) => lines.push({ id: 2, suppressed }));
  limited((suppressed) => lines.push({ id: 3, suppressed }));
  await sleep(WINDOW_MS + 20);
  // The window's end has come: the next line may already have been the summary (id 3); either way each is told once.
  limited((suppressed) => lines.push({ id: 4, suppressed }));
  await sleep(WINDOW_MS * 2);
  const told = lines.slice(1).reduce((sum, line) => sum + 1 + line.suppressed, 0);
  assert.equal(told, 3, JSON.stringify(lines));
  assert.equal(lines.at(-1)!.id, 4);
});
