/**
 * Issue 12: a tenant whose schema takes long to compile never holds the validations of another
 * schema. The first call of the slow operation compiles in a batch of its own, on one lane; the
 * other lane answers everyone else meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  USERS_SCHEMA_TEXT, VALID_USER, assertNeighbourNotHeld, getUserInteraction, postThings, registerSchema, slowSchema,
} from '../helpers/validation';

/** Time for a first call's document to be read and its compile batch sent (a few milliseconds here). */
const COMPILE_SENT_MS = 150;

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'slow', slowSchema());
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  // Warm the neighbour: its contract and operation are compiled before the slow call starts.
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

/** The first call of `slowSchemaId` against `neighbour`'s calls, on `target` (see assertNeighbourNotHeld). */
function firstCallBeside(target: TestServer, slowSchemaId: string, neighbour: (i: number) => object, headStartMs = 0): Promise<void> {
  return assertNeighbourNotHeld(
    () => target.client.call('ValidateInteraction', postThings(slowSchemaId), { deadlineMs: 60_000 }),
    (i) => target.client.call('ValidateInteraction', neighbour(i)),
    headStartMs,
  );
}

test("a slow first compile holds only its own schema's calls", async () => {
  await firstCallBeside(server, 'slow', (i) => getUserInteraction('users', String(i + 1), { ...VALID_USER, id: i + 1 }));
});

test('a neighbour whose own compile was slow is not held either: the first compile goes to the lane that holds nothing', async () => {
  // A server of its own, so which lane holds what depends on this test alone. The neighbour's
  // compile takes longer than slowCompileMs, so it may not spread to the last lane free of slow work:
  // had the slow compile gone to the neighbour's lane, the neighbour's calls would wait for all of it.
  // The neighbour waits until the slow compile has been sent, when both lanes were idle: its lane
  // then depends on the pool's choice alone, not on whether a neighbour call happened to be out.
  const own = await startTestServer({ workerThreads: 2 });
  try {
    await registerSchema(own.client, 'slow', slowSchema());
    await registerSchema(own.client, 'wide-neighbour', slowSchema(150, 'wide neighbour'));
    const warm = await own.client.call('ValidateInteraction', postThings('wide-neighbour'), { deadlineMs: 60_000 });
    assert.equal(warm.valid, true, warm.errors.join('\n'));
    await firstCallBeside(own, 'slow', () => postThings('wide-neighbour'), COMPILE_SENT_MS);
  } finally {
    await own.close();
  }
});
