/**
 * `svc serve` logs that it listens before its start returns; a SIGTERM or SIGINT sent on that line
 * (what a supervisor or a test does) stops it gracefully with exit code 0. The signal handlers used
 * to be installed only after start returned, and a signal in between ended the process by default.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnServerProcess } from '../helpers/server';

const ATTEMPTS = 3;

test('a stop signal sent on the listening line ends svc serve gracefully', async () => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const server = await spawnServerProcess({ storage: 'memory' });
    assert.equal(await server.stop(attempt % 2 === 0 ? 'SIGTERM' : 'SIGINT'), 0, `attempt ${attempt + 1}`);
    assert.ok(server.output.some((line) => line.includes('svc server stopped')), 'the graceful path ran');
  }
});
