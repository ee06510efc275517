/** Three replicas on one PostgreSQL database: what one registers, the others see (and record against) at once. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { POSTGRES_SKIP_REASON } from '../helpers/postgres';
import { recordInteractions } from '../helpers/recording';
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

  /** Every replica's change listener loses its connection; each reconnects after reconnectDelayMs (500 ms), hearing nothing meanwhile. */
  const deafenReplicas = async () => {
    const admin = new pg.Client({ connectionString: set.databaseUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'");
      assert.ok(rows.length >= 2, 'the replicas listen');
    } finally {
      await admin.end();
    }
  };

  it('traffic recorded on B against a version registered on A a moment ago is kept, while B has not heard of it', async () => {
    const [a, b] = set.replicas.map((replica) => replica.client);
    await deafenReplicas();
    const registered = await a!.call('RegisterSchema', { schema_id: 'orders', schema_content: usersDocument('1.0.0'), schema_version: '1.0.0' });
    assert.equal(registered.success, true, registered.message);
    const answer = await recordInteractions(b!, [{
      schema_id: 'orders', schema_version: '1.0.0', environment: 'prod', consumer_id: 'web', valid: true, read_fields: [], read_fields_tracked: false,
      ...USER_INTERACTION,
    }]);
    // Before, it was dropped as "unknown schema" until B's listener was back and had resynchronised.
    assert.deepEqual(answer, { accepted: 1, dropped: 0, message: '' });
  });

  it('a version assigned on B (no version given) comes after the latest, even one A registered a moment ago', async () => {
    const [a, b] = set.replicas.map((replica) => replica.client);
    // info.version "draft" is no semantic version: a registration without schema_version gets the next patch.
    const draft = (path: string) => usersDocument('draft', { [path]: { get: { responses: { 204: { description: 'none' } } } } });
    assert.equal((await a!.call('RegisterSchema', { schema_id: 'drafts', schema_content: draft('/one') })).metadata.schema_version, '1.0.0');
    await within(1_000, async () => (await b!.call('ListSchemas', {})).schemas.some((s: { schema_id: string }) => s.schema_id === 'drafts'));
    await deafenReplicas();
    const onA = await a!.call('RegisterSchema', { schema_id: 'drafts', schema_content: draft('/two'), schema_version: '1.0.5' });
    assert.equal(onA.success, true, onA.message);
    const onB = await b!.call('RegisterSchema', { schema_id: 'drafts', schema_content: draft('/three') });
    // Before, B chose from its stale index: 1.0.1, below the latest (or, had A written 1.0.1, over it).
    assert.deepEqual([onB.success, onB.metadata.schema_version], [true, '1.0.6'], onB.message);
    const kept = await a!.call('GetSchema', { schema_id: 'drafts', schema_version: '1.0.5' });
    assert.equal(kept.metadata.schema_hash, onA.metadata.schema_hash);
  });
});
