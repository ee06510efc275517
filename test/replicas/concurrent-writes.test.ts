/** Writes that race across replicas: the database decides, never a lock of one process. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_SKIP_REASON } from '../helpers/postgres';
import { startReplicaSet, usersDocument, within, type ReplicaSet } from './replica-set';

describe('concurrent writes on two replicas', { skip: POSTGRES_SKIP_REASON }, () => {
  let set: ReplicaSet;
  before(async () => {
    set = await startReplicaSet(2);
  });
  after(() => set?.close());

  const register = (replica: number, request: object) => set.replicas[replica]!.client.call('RegisterSchema', request);

  it('the same version with identical content at once succeeds on both', async () => {
    for (let round = 0; round < 5; round++) {
      const request = { schema_id: `same-${round}`, schema_content: usersDocument('1.0.0'), schema_version: '1.0.0' };
      const answers = await Promise.all([register(0, request), register(1, request)]);
      assert.deepEqual(answers.map((answer) => answer.success), [true, true], answers.map((a) => a.message).join(' | '));
      assert.equal(answers[0].metadata.schema_hash, answers[1].metadata.schema_hash);
    }
  });

  it('the same version with different content at once: exactly one content wins, the other is told', async () => {
    for (let round = 0; round < 5; round++) {
      const schemaId = `race-${round}`;
      const contents = [usersDocument('1.0.0'), usersDocument('1.0.0', { '/other': { get: { responses: { 200: { description: 'ok' } } } } })];
      const answers = await Promise.all(contents.map((content, replica) => register(replica, { schema_id: schemaId, schema_content: content, schema_version: '1.0.0' })));
      // Both replicas come to hold one content: a replaced version reaches the other's index by
      // notification, within a second (each writer already holds its own write or a later one).
      let agreed = '';
      await within(1_000, async () => {
        const read = await Promise.all(set.replicas.map((replica) => replica.client.call('GetSchema', { schema_id: schemaId, schema_version: '1.0.0' })));
        agreed = read[0].metadata.schema_hash;
        return read.every((answer) => answer.metadata.schema_hash === agreed);
      });
      const winners = answers.filter((answer) => answer.success);
      // Either both ran one after the other (the second replaced the first: both succeed, the store
      // holds the later one), or they raced and exactly one won while the other was told.
      if (winners.length === 1) {
        const loser = answers.find((answer) => !answer.success)!;
        assert.match(loser.message, /was written at the same time by another registration.*; nothing was stored/);
        assert.equal(agreed, winners[0]!.metadata.schema_hash);
      } else {
        assert.equal(winners.length, 2);
        assert.ok(answers.some((answer) => answer.metadata.schema_hash === agreed));
      }
    }
  });

  it('read-only set on one replica holds on the other', async () => {
    const ownership = { owner: 'alice', team: 'core', contact_email: 'a@example.com', read_only: true };
    const locked = await register(0, { schema_id: 'locked', schema_content: usersDocument('1.0.0'), ownership });
    assert.equal(locked.success, true, locked.message);
    const attempts = await Promise.all([
      register(1, { schema_id: 'locked', schema_content: usersDocument('1.0.0', { '/x': { get: { responses: { 200: { description: 'x' } } } } }), schema_version: '1.0.0' }),
      register(1, { schema_id: 'locked', schema_content: usersDocument('1.0.0'), ownership: { ...ownership, read_only: false } }),
    ]);
    for (const attempt of attempts) {
      assert.equal(attempt.success, false);
      assert.match(attempt.message, /read-only/);
    }
    const stored = await set.replicas[1]!.client.call('GetSchema', { schema_id: 'locked' });
    assert.equal(stored.metadata.schema_hash, locked.metadata.schema_hash);
  });

  it('a consumer deployed and undeployed at once on two replicas: its deployment record and its registration agree', async () => {
    await register(0, { schema_id: 'gated', schema_content: usersDocument('1.0.0') });
    const consumer = { consumer_id: 'web', schema_id: 'gated' };
    const registered = await set.replicas[0]!.client.call('RegisterConsumer', {
      ...consumer, consumer_version: '2.0.0', environment: 'dev',
      used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['email'] }],
    });
    assert.equal(registered.success, true, registered.message);
    const [first, second] = set.replicas.map((replica) => replica.client);
    const deploy = (client: typeof first) => client!.call('RecordDeployment', { ...consumer, version: '2.0.0', environment: 'prod' });
    const undeploy = (client: typeof first) => client!.call('RecordUndeployment', { ...consumer, environment: 'prod' });
    assert.equal((await deploy(first)).success, true);
    for (let round = 0; round < 8; round++) {
      // Undeploy on one replica while the other deploys again, then the other way round.
      const [a, b] = round % 2 === 0 ? [first, second] : [second, first];
      await Promise.all([undeploy(a), deploy(b)]);
      const listed = await first!.call('ListDeployments', { schema_id: 'gated', environment: 'prod' });
      const deployed = listed.current.some((entry: { consumer_id: string }) => entry.consumer_id === 'web');
      const registrations = await second!.call('ListConsumers', { schema_id: 'gated', environment: 'prod' });
      const counted = registrations.consumers.some((info: { consumer_id: string }) => info.consumer_id === 'web');
      // CanIDeploy judges a consumer by its registration: recorded as deployed means counted.
      assert.equal(counted, deployed, `round ${round}: recorded as ${deployed ? '' : 'not '}deployed, registration ${counted ? 'present' : 'absent'}`);
      if (!deployed) assert.equal((await deploy(first)).success, true);
    }
  });

  it('a consumer registered at once on both replicas is one registration', async () => {
    await register(0, { schema_id: 'consumed', schema_content: usersDocument('1.0.0') });
    const request = {
      consumer_id: 'web', consumer_version: '2.0.0', schema_id: 'consumed', environment: 'prod',
      used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['email'] }],
    };
    const answers = await Promise.all(set.replicas.map((replica) => replica.client.call('RegisterConsumer', request)));
    assert.deepEqual(answers.map((answer) => answer.success), [true, true]);
    const listed = await set.replicas[1]!.client.call('ListConsumers', { schema_id: 'consumed', environment: 'prod' });
    assert.equal(listed.consumers.length, 1);
  });
});
