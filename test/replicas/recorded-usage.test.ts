/**
 * Traffic recorded on two replicas is one body of evidence: counts add and fields unite in the shared
 * store, and can-i-deploy on either replica judges by what both saw.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_SKIP_REASON } from '../helpers/postgres';
import { recordInteractions } from '../helpers/recording';
import { startReplicaSet, type ReplicaSet } from './replica-set';

const SCHEMA = 'people';

/** GET /users/{id} answering a user; version 2.0.0 no longer has `nick`. */
function document(version: string, withNick: boolean): string {
  const properties = { id: { type: 'string' }, name: { type: 'string' }, ...(withNick ? { nick: { type: 'string' } } : {}) };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'people', version },
    paths: {
      '/users/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties } } } } },
        },
      },
    },
  });
}

function interaction(consumer: string, reads: string[] | undefined) {
  return {
    schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod', consumer_id: consumer,
    request: { method: 'GET', path: '/users/1', headers: {}, body: '' },
    response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '1', name: 'Ann', nick: 'a' }) },
    valid: true, read_fields: reads ?? [], read_fields_tracked: reads !== undefined,
  };
}

describe('recorded traffic on two replicas', { skip: POSTGRES_SKIP_REASON }, () => {
  let set: ReplicaSet;
  before(async () => {
    set = await startReplicaSet(2);
  });
  after(() => set?.close());

  it('adds up: counts, fields and consumers seen on either replica count on both', async () => {
    const [first, second] = set.replicas.map((replica) => replica.client);
    for (const [version, withNick] of [['1.0.0', true], ['2.0.0', false]] as const) {
      const registered = await first!.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document(version, withNick), schema_version: version });
      assert.equal(registered.success, true, registered.message);
    }
    assert.equal((await first!.call('RecordDeployment', { schema_id: SCHEMA, environment: 'prod', version: '1.0.0' })).success, true);

    // web reads id and name through the first replica, id and nick through the second; app is seen on the second only.
    assert.equal((await recordInteractions(first!, [interaction('web', ['id', 'name'])])).accepted, 1);
    assert.equal((await recordInteractions(second!, [interaction('web', ['id', 'nick']), interaction('web', ['id']), interaction('app', undefined)])).accepted, 3);
    // A read flushes the replica's own recording first; the second's is then in the store for the first to read.
    await second!.call('GetCoverage', { schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod' });

    for (const client of [first!, second!]) {
      const coverage = await client.call('GetCoverage', { schema_id: SCHEMA, schema_version: '1.0.0', environment: 'prod' });
      const [status] = coverage.operations[0].statuses;
      const calls = Object.fromEntries(status.consumers.map((consumer: { consumer_id: string; call_count: string }) => [consumer.consumer_id, Number(consumer.call_count)]));
      assert.deepEqual(calls, { app: 1, web: 3 });
    }
    // Removing nick breaks web, which read it through the second replica only: the first must say so.
    const verdict = await first!.call('CanIDeploy', {
      schema_id: SCHEMA, new_version: '2.0.0', environment: 'prod', field_level_impact: true, include_observed: true, skip_replay: true,
    });
    const impacts = Object.fromEntries(verdict.affected_consumers.map((impact: { consumer_id: string }) => [impact.consumer_id, impact]));
    assert.equal(verdict.safe_to_deploy, false);
    assert.equal((impacts.web as { will_break: boolean }).will_break, true, 'web read nick on the other replica');
    assert.ok(impacts.app, 'app, seen on the other replica only, is judged too');
  });
});
