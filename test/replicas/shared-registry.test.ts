/** Three replicas on one PostgreSQL database: what one registers, the others see at once. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_SKIP_REASON } from '../helpers/postgres';
import { USER_INTERACTION, startReplicaSet, usersDocument, within, type ReplicaSet } from './replica-set';

describe('three replicas share one registry', { skip: POSTGRES_SKIP_REASON }, () => {
  let set: ReplicaSet;
  before(async () => {
    set = await startReplicaSet(3);
  });
  after(() => set?.close());

  it('registered on A: validated on B and C at once, read on C at once, listed on C within one second', async () => {
    const [a, b, c] = set.replicas.map((replica) => replica.client);
    const registered = await a!.call('RegisterSchema', { schema_id: 'users', schema_content: usersDocument('1.0.0') });
    assert.equal(registered.success, true, registered.message);
    const hash = registered.metadata.schema_hash;

    const [onB, onC] = await Promise.all([b, c].map((client) => client!.call('ValidateInteraction', { schema_id: 'users', ...USER_INTERACTION })));
    assert.deepEqual([onB.valid, onB.validated_against_hash], [true, hash], onB.errors?.join('; '));
    assert.deepEqual([onC.valid, onC.validated_against_hash], [true, hash], onC.errors?.join('; '));

    const read = await c!.call('GetSchema', { schema_id: 'users', schema_version: '1.0.0' });
    assert.deepEqual([read.found, read.metadata.schema_hash], [true, hash]);

    await within(1_000, async () => (await c!.call('ListSchemas', {})).schemas.some((s: { schema_id: string }) => s.schema_id === 'users'));
  });

  it('a newer version registered on B becomes "latest" on every replica within one second', async () => {
    const [a, b, c] = set.replicas.map((replica) => replica.client);
    const registered = await b!.call('RegisterSchema', { schema_id: 'users', schema_content: usersDocument('1.1.0') });
    assert.equal(registered.success, true, registered.message);
    for (const client of [a!, c!]) {
      await within(1_000, async () => {
        const listed = await client.call('ListSchemas', {});
        return listed.schemas.find((s: { schema_id: string }) => s.schema_id === 'users')?.schema_version === '1.1.0';
      });
      const latest = await client.call('GetSchema', { schema_id: 'users' });
      assert.equal(latest.metadata.schema_version, '1.1.0');
    }
  });

  it('a consumer registered on C is listed on A at once and counts in CanIDeploy on B', async () => {
    const [a, b, c] = set.replicas.map((replica) => replica.client);
    const consumer = await c!.call('RegisterConsumer', {
      consumer_id: 'web', consumer_version: '1.0.0', schema_id: 'users', schema_version: '1.0.0', environment: 'prod',
      used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['email'] }],
    });
    assert.equal(consumer.success, true, consumer.message);
    const listed = await a!.call('ListConsumers', { schema_id: 'users', environment: 'prod' });
    assert.deepEqual(listed.consumers.map((info: { consumer_id: string }) => info.consumer_id), ['web']);
    const verdict = await b!.call('CanIDeploy', { schema_id: 'users', new_version: '1.1.0', environment: 'prod' });
    assert.equal(verdict.affected_consumers.length, 1);
  });
});
