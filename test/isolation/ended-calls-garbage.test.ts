/**
 * Issue 12 (latency): calls that have ended do not outlive young-generation collections on the main
 * thread. The call observer kept the calls in flight in a Set; V8 replaces a Set's table as it fills
 * with deleted entries, and an old table links to the next, so once one table had reached the old
 * generation, every young collection kept the calls of each later table alive and promoted them
 * (src/shared/linked-map.ts). The main thread then promoted about 4 KB a call instead of under 1 KB,
 * and spent twice as long in young collections; the server answered 6 % fewer calls under ghz.
 * Read from the server's own `--trace-gc-nvp` lines: bytes, not times.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBenchServer, type BenchServer } from '../../bench/servers';
import { createTestClient, type TestClient } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

/** Calls sent, and in flight at once (as the e2e bench and ghz send them). */
const CALLS = 5_000;
const IN_FLIGHT = 64;
/** Promoted bytes a call at most: 0.6–1.1 KB measured, 4.1–5 KB while ended calls were kept. */
const MAX_PROMOTED_BYTES_PER_CALL = 2_500;

interface Scavenge {
  isolate: string;
  promoted: number;
  allocated: number;
}

let server: BenchServer;
let client: TestClient;
const scavenges: Scavenge[] = [];

before(async () => {
  // The bench's svc server, in a process of its own, with the garbage collector's trace on its stdout.
  server = await startBenchServer('svc', {
    workerThreads: 2,
    nodeOptions: ['--trace-gc-nvp'],
    diagnostics: false,
    onOutputLine: (line) => {
      const scavenge = parseScavenge(line);
      if (scavenge) scavenges.push(scavenge);
    },
  });
  client = createTestClient(server.address);
});

after(async () => {
  client?.close();
  await server?.stop();
});

/** One young-generation collection's line of `--trace-gc-nvp` (`[pid:isolate] N ms: pause=… gc=s … promoted=… allocated=…`). */
function parseScavenge(line: string): Scavenge | undefined {
  const match = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (.*)$/.exec(line);
  if (!match) return undefined;
  const fields = new Map(match[2]!.trim().split(' ').map((pair) => pair.split('=') as [string, string]));
  if (fields.get('gc') !== 's') return undefined;
  return { isolate: match[1]!, promoted: Number(fields.get('promoted')), allocated: Number(fields.get('allocated')) };
}

test('ended calls are not promoted by young-generation collections of the main thread', async (t) => {
  await registerSchema(client, 'users', USERS_SCHEMA_TEXT);
  const interaction = getUserInteraction('users', '42', VALID_USER);
  // Warm: the contract compiled on both lanes, the call path optimised.
  for (let i = 0; i < 200; i++) assert.equal((await client.call('ValidateInteraction', interaction)).valid, true);

  const before = scavenges.length;
  let sent = 0;
  const sender = async () => {
    while (sent < CALLS) {
      sent++;
      const answer = await client.call('ValidateInteraction', interaction);
      assert.equal(answer.valid, true);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  // The trace's last lines cross the pipe after the answers.
  await new Promise((resolve) => setTimeout(resolve, 200));

  const during = scavenges.slice(before);
  // The main thread allocates most: the workers' isolates allocate a tenth as much for these calls.
  const byIsolate = new Map<string, { promoted: number; allocated: number; count: number }>();
  for (const { isolate, promoted, allocated } of during) {
    const sum = byIsolate.get(isolate) ?? { promoted: 0, allocated: 0, count: 0 };
    sum.promoted += promoted;
    sum.allocated += allocated;
    sum.count++;
    byIsolate.set(isolate, sum);
  }
  const main = [...byIsolate.values()].sort((a, b) => b.allocated - a.allocated)[0];
  assert.ok(main && main.count >= 5, `the main thread ran ${main?.count ?? 0} young collections during ${CALLS} calls: too few to judge`);
  const promotedPerCall = main.promoted / CALLS;
  t.diagnostic(`main thread: ${Math.round(promotedPerCall)} bytes promoted a call over ${main.count} young collections`);
  assert.ok(promotedPerCall <= MAX_PROMOTED_BYTES_PER_CALL,
    `the main thread promoted ${Math.round(promotedPerCall)} bytes a call over ${main.count} young collections (at most ${MAX_PROMOTED_BYTES_PER_CALL})`);
});
