/**
 * PostgreSQL stopped under load and started again: compiled contracts keep validating, writes fail
 * fast with UNAVAILABLE, health stays SERVING, `svc_storage_up` and the log say so, writes recover
 * without restarting svc, and every acknowledged registration is there afterwards.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { checkHealth } from '../helpers/health';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { POSTGRES_SKIP_REASON } from '../helpers/postgres';
import { USER_INTERACTION, startReplicaSet, usersDocument, within, type ReplicaSet } from './replica-set';

/** A write must fail well inside a typical client deadline while the database is gone. */
const FAIL_FAST_MS = 3_000;

describe('PostgreSQL stopped mid-load and restarted', { skip: POSTGRES_SKIP_REASON }, () => {
  let set: ReplicaSet;
  before(async () => {
    set = await startReplicaSet(2);
  });
  after(() => set?.close());

  it('validation continues, writes fail fast then recover, nothing acknowledged is lost', async () => {
    const [a, b] = set.replicas;
    const first = await a!.client.call('RegisterSchema', { schema_id: 'users', schema_content: usersDocument('1.0.0') });
    assert.equal(first.success, true, first.message);
    // Compiled on both replicas before the database goes away; the load validates this version.
    const interaction = { schema_id: 'users', schema_version: '1.0.0', ...USER_INTERACTION };
    for (const replica of set.replicas) {
      assert.equal((await replica.client.call('ValidateInteraction', interaction)).valid, true);
    }

    // Writes go to another schema: new versions of 'users' would change what its latest is.
    const acknowledged: string[] = [];
    let validations = 0;
    let failedValidations = 0;
    let loading = true;
    const validationLoad = (async () => {
      for (let i = 0; loading && i < 100_000; i++) {
        const replica = set.replicas[i % 2]!;
        const result = await replica.client.call('ValidateInteraction', interaction);
        if (result.valid) validations++;
        else failedValidations++;
      }
    })();
    let nextPatch = 1;
    const registerNext = async (): Promise<{ ok: boolean; code?: number; ms: number; message?: string }> => {
      const version = `1.0.${nextPatch++}`;
      const started = Date.now();
      try {
        const answer = await a!.client.call('RegisterSchema', { schema_id: 'writes', schema_content: usersDocument(version) }, { deadlineMs: 10_000 });
        if (answer.success) acknowledged.push(version);
        return { ok: answer.success, ms: Date.now() - started, message: answer.message };
      } catch (error) {
        return { ok: false, code: (error as { code?: number }).code, ms: Date.now() - started, message: (error as Error).message };
      }
    };
    for (let i = 0; i < 5; i++) assert.equal((await registerNext()).ok, true);

    await set.cluster.stop();
    const whileDown = [];
    for (let i = 0; i < 5; i++) whileDown.push(await registerNext());
    for (const attempt of whileDown) {
      assert.equal(attempt.ok, false);
      assert.equal(attempt.code, status.UNAVAILABLE, attempt.message);
      assert.match(attempt.message!, /registry database is unavailable/);
      assert.ok(attempt.ms < FAIL_FAST_MS, `a write took ${attempt.ms} ms to fail`);
    }
    const validatedBefore = validations;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.ok(validations > validatedBefore, 'validation keeps answering while the database is down');
    assert.equal(await checkHealth(a!.process.address), 'SERVING');
    assert.equal((await scrapeMetrics(a!.process.metricsPort)).value('svc_storage_up'), 0);
    assert.ok(a!.process.output.some((line) => line.includes('registry database unreachable')), 'the log says the database is unreachable');

    await set.cluster.start();
    await within(10_000, async () => (await registerNext()).ok);
    for (let i = 0; i < 5; i++) assert.equal((await registerNext()).ok, true);
    loading = false;
    await validationLoad;
    assert.equal(failedValidations, 0);
    await within(2_000, async () => (await scrapeMetrics(a!.process.metricsPort)).value('svc_storage_up') === 1);

    // Every acknowledged version is stored, and the other replica sees it too.
    for (const version of acknowledged) {
      const stored = await b!.client.call('GetSchema', { schema_id: 'writes', schema_version: version });
      assert.equal(stored.found, true, `acknowledged version ${version} is stored`);
    }
  });
});
