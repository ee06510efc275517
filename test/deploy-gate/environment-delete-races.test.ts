/**
 * RecordUndeployment interleaved at its worst points with another call: the answers agree with what
 * was stored. It appends an entry and removes the consumer's registration. With the registration
 * removed first, an environment delete could slip in before the entry, which the store then refused:
 * the caller was told "nothing was written" with the registration gone. With the entry first, a
 * RegisterConsumer between the two was told it succeeded, and then its registration was removed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Storage } from '../../src/main/storage/storage';
import { startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT } from '../helpers/validation';

test('RecordUndeployment racing the delete of its environment: answered as stored', async () => {
  const server = await startTestServer({ storage: 'memory' });
  try {
    const call = server.client.call.bind(server.client);
    await call('RegisterSchema', { schema_id: 'users', schema_content: USERS_SCHEMA_TEXT, schema_version: '1.0.0' });
    assert.equal((await call('CreateEnvironment', { name: 'qa', description: '' })).success, true);
    const registered = await call('RegisterConsumer', { consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'users', schema_version: '1.0.0', environment: 'qa', used_endpoints: [] });
    assert.equal(registered.success, true, registered.message);

    // Whichever of the undeployment's two writes comes first, another call deletes the environment right after it.
    const storage = server.server.context.storage as Storage;
    const deletions: string[] = [];
    let raced = false;
    for (const method of ['deleteConsumer', 'appendDeployment'] as const) {
      const original = storage[method].bind(storage) as (...args: unknown[]) => Promise<unknown>;
      (storage as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
        const result = await original(...args);
        if (!raced) {
          raced = true;
          const deletion = await call('DeleteEnvironment', { name: 'qa' });
          deletions.push(`${deletion.success} ${deletion.message}`);
        }
        return result;
      };
    }
    const answer = await call('RecordUndeployment', { schema_id: 'users', environment: 'qa', consumer_id: 'web' });
    const consumers = await storage.listConsumers({ schemaId: 'users' });
    const history = await storage.listDeployments({ environment: 'qa' }, 10);
    assert.equal(deletions.length, 1);
    assert.equal(answer.success, true, `${answer.message}; the delete: ${deletions[0]}`);
    assert.deepEqual([consumers, history.map((entry) => entry.action)], [[], ['undeployed']]);
    assert.match(deletions[0]!, /^false environment qa is still in use: 1 consumer registration/);
  } finally {
    await server.close();
  }
});

test('RecordUndeployment and a RegisterConsumer between its two writes: the newer registration stays', async () => {
  const server = await startTestServer({ storage: 'memory' });
  try {
    const call = server.client.call.bind(server.client);
    const register = (version: string) => call('RegisterConsumer', { consumer_id: 'web', consumer_version: version, schema_id: 'users', schema_version: '1.0.0', environment: 'dev', used_endpoints: [] });
    await call('RegisterSchema', { schema_id: 'users', schema_content: USERS_SCHEMA_TEXT, schema_version: '1.0.0' });
    assert.equal((await register('1.0.0')).success, true);
    const storage = server.server.context.storage as Storage;
    const append = storage.appendDeployment.bind(storage);
    let registered: { success: boolean; message: string } | undefined;
    storage.appendDeployment = async (...args) => {
      await append(...args);
      registered ??= await register('2.0.0');
    };
    const answer = await call('RecordUndeployment', { schema_id: 'users', environment: 'dev', consumer_id: 'web' });
    assert.equal(answer.success, true, answer.message);
    assert.equal(registered?.success, true, registered?.message);
    const consumers = await storage.listConsumers({ schemaId: 'users' });
    assert.deepEqual(consumers.map((consumer) => `${consumer.consumerId}@${consumer.consumerVersion}`), ['web@2.0.0'], 'the registration answered as made is there');
  } finally {
    await server.close();
  }
});
