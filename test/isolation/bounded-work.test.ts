/**
 * Issue 12: work that scales with what one caller sends is bounded. Bytes waiting for validation
 * have an aggregate limit (beyond it: OVERLOADED, RESOURCE_EXHAUSTED on the wire); repeated consumer
 * endpoints merge in linear time and their total is limited.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { LIMITS } from '../../src/shared/limits';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import type { VersionDocument } from '../../src/shared/schema-records';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, registerSchema } from '../helpers/validation';

test('calls beyond maxQueuedBytes fail at once with OVERLOADED; the queued ones are answered', async () => {
  let release!: (document: VersionDocument) => void;
  const documentReady = new Promise<VersionDocument>((resolve) => { release = resolve; });
  const pool = new ValidationPool({ threads: 1, maxQueuedBytes: 1_000, loadContract: () => documentReady });
  await pool.start();
  try {
    const contract = { schemaId: 's', version: '1.0.0', hash: 'h1' };
    const message = new Uint8Array(600);
    // Waits for its contract's document, holding its 600 bytes.
    const first = pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
    await assert.rejects(pool.validate({ operation: ValidationOperation.INTERACTION, message, contract }), (error: SvcError) => {
      assert.equal(error.code, ErrorCode.OVERLOADED);
      assert.match(error.message, /at its limit of 1000 bytes \(validationMaxQueuedBytes\)/);
      return true;
    });
    release({ ref: contract, documentJson: '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}}' });
    // Not protobuf: the call itself fails, but it was taken and answered, and its bytes are released.
    await assert.rejects(first, (error: SvcError) => error.code === ErrorCode.INVALID_ARGUMENT);
    await assert.rejects(pool.validate({ operation: ValidationOperation.INTERACTION, message, contract }), (error: SvcError) => error.code === ErrorCode.INVALID_ARGUMENT);
  } finally {
    await pool.close();
  }
});

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
});
after(() => server.close());

function usage(repeats: number, fieldsEach: number) {
  return Array.from({ length: repeats }, (_, r) => ({
    method: 'GET',
    path: '/users/{id}',
    used_fields: Array.from({ length: fieldsEach }, (_, f) => `f${r}_${f}`),
  }));
}

test('one endpoint repeated with distinct fields merges in linear time', async () => {
  const started = performance.now();
  const answer = await server.client.call('RegisterConsumer', {
    consumer_id: 'wide', consumer_version: '1', schema_id: 'users', schema_version: '1.0.0', environment: 'dev',
    used_endpoints: usage(100, 1_000),
  });
  const ms = performance.now() - started;
  assert.equal(answer.success, true, answer.message);
  assert.equal(answer.consumer.used_endpoints.length, 1);
  assert.equal(answer.consumer.used_endpoints[0].used_fields.length, 100_000);
  assert.ok(ms < 5_000, `${Math.round(ms)} ms`);
});

test('more used fields in all than consumerMaxUsedFieldsTotal are refused before any merging', async () => {
  const started = performance.now();
  const answer = await server.client.call('RegisterConsumer', {
    consumer_id: 'wider', consumer_version: '1', schema_id: 'users', schema_version: '1.0.0', environment: 'dev',
    used_endpoints: usage(300, 1_000),
  });
  assert.equal(answer.success, false);
  assert.match(answer.message, new RegExp(`300000 used fields in all, over the limit of ${LIMITS.consumerMaxUsedFieldsTotal} \\(consumerMaxUsedFieldsTotal\\)`));
  assert.ok(performance.now() - started < 5_000);
});
