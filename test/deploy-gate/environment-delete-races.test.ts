/**
 * A deployment write and the delete of its environment, interleaved at the worst point: the answer
 * agrees with what was stored. RecordUndeployment removes a consumer's registration and appends an
 * entry; with the registration removed first, a delete could slip in before the entry, which the
 * store then refused, and the caller was told "nothing was written" with the registration gone.
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
