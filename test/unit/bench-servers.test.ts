/**
 * The bench's servers: when the svc server fails to start beside the no-op floor, the floor is
 * stopped before the error is thrown. Its process once kept the bench running for good after the
 * suite had failed ("svc bench server exited before listening").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSvcAndFloor } from '../../bench/servers';

test('startSvcAndFloor stops the floor when the svc server fails to start, and rejects', async () => {
  // 1.5 worker threads: the svc server refuses its configuration; the no-op floor does not read it.
  await assert.rejects(startSvcAndFloor({ workerThreads: 1.5 }), /svc bench server exited before listening/);
  await new Promise((resolve) => setTimeout(resolve, 200)); // a child's handle closes a turn after its exit
  const processes = process.getActiveResourcesInfo().filter((resource) => resource === 'ProcessWrap');
  assert.deepEqual(processes, [], 'no server process is left running');
});
