/**
 * Issue 12: work that scales with what one caller sends is bounded. Bytes waiting for validation
 * have an aggregate limit (beyond it: OVERLOADED, RESOURCE_EXHAUSTED on the wire); repeated consumer
 * endpoints merge in linear time, the fields of one endpoint stay within consumerMaxUsedFields once
 * merged, and their total is limited.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { LIMITS } from '../../src/shared/limits';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import { LISTED_ENDPOINT_CHARS, LISTED_USED_FIELD_CHARS } from '../../src/main/storage/storage';
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

/** One endpoint listed `repeats` times with `fieldsEach` fields each: distinct per repeat, or the same ones. */
function usage(repeats: number, fieldsEach: number, distinct = true) {
  return Array.from({ length: repeats }, (_, r) => ({
    method: 'GET',
    path: '/users/{id}',
    used_fields: Array.from({ length: fieldsEach }, (_, f) => (distinct ? `f${r}_${f}` : `f${f}`)),
  }));
}

test('one endpoint repeated merges in linear time: the same fields are kept once, more distinct ones than consumerMaxUsedFields are refused', async () => {
  const register = (consumerId: string, usedEndpoints: ReturnType<typeof usage>) => server.client.call('RegisterConsumer', {
    consumer_id: consumerId, consumer_version: '1', schema_id: 'users', schema_version: '1.0.0', environment: 'dev', used_endpoints: usedEndpoints,
  });
  let started = performance.now();
  const same = await register('repeating', usage(100, 1_000, false));
  assert.equal(same.success, true, same.message);
  assert.equal(same.consumer.used_endpoints.length, 1);
  assert.equal(same.consumer.used_endpoints[0].used_fields.length, 1_000);
  assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);

  started = performance.now();
  const wide = await register('wide', usage(100, 1_000));
  assert.equal(wide.success, false);
  assert.equal(wide.message, `used_endpoints lists GET /users/{id} more than once, with 100000 distinct used fields in all, over the limit of ${LIMITS.consumerMaxUsedFields} per endpoint (consumerMaxUsedFields)`);
  assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
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

test('used-field characters: a registration over consumerMaxUsedFieldChars, a listing over consumerListMaxUsedFieldChars and a schema\'s registrations over consumerSchemaMaxUsedFieldChars are refused, naming the limit', async () => {
  /** `count` fields of maxMetadataLength characters each, distinct per `tag`. */
  const longFields = (tag: string, count: number) => Array.from({ length: count }, (_, f) => `${tag}_${f}_`.padEnd(LIMITS.maxMetadataLength, 'x'));
  const register = (consumerId: string, environment: string, usedEndpoints: object[]) => server.client.call('RegisterConsumer', {
    consumer_id: consumerId, consumer_version: '1', schema_id: 'users', schema_version: '1.0.0', environment, used_endpoints: usedEndpoints,
  });

  /** Characters of one endpoint's fields at their limits and its path: a registration of one endpoint. */
  const perRegistration = LIMITS.consumerMaxUsedFields * LIMITS.maxMetadataLength + '/users/{id}'.length;
  /** What it weighs in a listing (storage.ts listedChars). */
  const perRegistrationListed = perRegistration + LISTED_ENDPOINT_CHARS + LIMITS.consumerMaxUsedFields * LISTED_USED_FIELD_CHARS;
  const endpointsOver = Math.ceil(LIMITS.consumerMaxUsedFieldChars / perRegistration) + 1;
  const refused = await register('long-fields', 'dev', Array.from({ length: endpointsOver }, (_, e) => ({
    method: 'GET', path: '/users/{id}', used_fields: longFields(`e${e}`, LIMITS.consumerMaxUsedFields),
  })));
  assert.equal(refused.success, false);
  const chars = endpointsOver * perRegistration;
  assert.equal(refused.message, `used_endpoints list ${chars} characters of paths and used fields in all, over the limit of ${LIMITS.consumerMaxUsedFieldChars} (consumerMaxUsedFieldChars)`);

  // Registrations each under the limit, together over what one listing carries.
  const registrations = Math.floor(LIMITS.consumerListMaxUsedFieldChars / perRegistration) + 1;
  for (let i = 0; i < registrations; i++) {
    const answer = await register(`wide-${i}`, 'dev', [{ method: 'GET', path: '/users/{id}', used_fields: longFields(`c${i}`, LIMITS.consumerMaxUsedFields) }]);
    assert.equal(answer.success, true, answer.message);
  }
  assert.equal((await register('narrow', 'staging', [{ method: 'GET', path: '/users/{id}', used_fields: ['id'] }])).success, true);
  await assert.rejects(server.client.call('ListConsumers', { schema_id: 'users', environment: 'dev' }), (error: { code: number; details: string }) => {
    assert.equal(error.code, 8); // RESOURCE_EXHAUSTED
    // The earlier tests' registrations in dev count too.
    const listed = /^the \d+ consumers of users in dev weigh (\d+) characters in a listing \(paths and used fields, each endpoint counting 256 characters more and each used field 128\), over the limit of (\d+) one answer carries \(consumerListMaxUsedFieldChars\)$/.exec(error.details);
    assert.ok(listed, error.details);
    assert.ok(Number(listed[1]) >= registrations * perRegistration);
    assert.equal(Number(listed[2]), LIMITS.consumerListMaxUsedFieldChars);
    return true;
  });
  const staging = await server.client.call('ListConsumers', { schema_id: 'users', environment: 'staging' });
  assert.deepEqual(staging.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['narrow']);

  // More registrations in another environment, until the schema's registrations together reach
  // consumerSchemaMaxUsedFieldChars: the one that would pass it is refused, naming the limit.
  let refusedAt: { index: number; message: string } | undefined;
  for (let i = 0; i <= Math.ceil(LIMITS.consumerSchemaMaxUsedFieldChars / perRegistration) && !refusedAt; i++) {
    const answer = await register(`prod-${i}`, 'prod', [{ method: 'GET', path: '/users/{id}', used_fields: longFields(`p${i}`, LIMITS.consumerMaxUsedFields) }]);
    if (!answer.success) refusedAt = { index: i, message: answer.message };
  }
  assert.ok(refusedAt, 'a registration past the schema\'s limit was refused');
  const total = /^the registrations of users weigh (\d+) characters in a listing, and this one (\d+) \(paths and used fields, each endpoint counting 256 characters more and each used field 128\): over the limit of (\d+) for one schema, every environment together \(consumerSchemaMaxUsedFieldChars\); deregister consumers that are no longer deployed, or list fewer endpoints or used fields$/.exec(refusedAt.message);
  assert.ok(total, refusedAt.message);
  assert.equal(Number(total[2]), perRegistrationListed);
  assert.equal(Number(total[3]), LIMITS.consumerSchemaMaxUsedFieldChars);
  assert.ok(Number(total[1]) + perRegistrationListed > LIMITS.consumerSchemaMaxUsedFieldChars && Number(total[1]) <= LIMITS.consumerSchemaMaxUsedFieldChars);
  // A registration that does not grow is let through; a deregistration makes room.
  assert.equal((await register('prod-0', 'prod', [{ method: 'GET', path: '/users/{id}', used_fields: longFields('p0', LIMITS.consumerMaxUsedFields) }])).success, true);
  assert.equal((await server.client.call('DeregisterConsumer', { consumer_id: 'prod-0', schema_id: 'users', environment: 'prod' })).success, true);
  const again = await register(`prod-${refusedAt.index}`, 'prod', [{ method: 'GET', path: '/users/{id}', used_fields: longFields(`p${refusedAt.index}`, LIMITS.consumerMaxUsedFields) }]);
  assert.equal(again.success, true, again.message);
  // RecordDeployment copies a registration into its environment: the copy is held to the same limit.
  const deployed = await server.client.call('RecordDeployment', { schema_id: 'users', version: '1', environment: 'staging', consumer_id: 'wide-1' });
  assert.equal(deployed.success, false);
  assert.match(deployed.message, /over the limit of \d+ for one schema, every environment together \(consumerSchemaMaxUsedFieldChars\)/);
  const staged = await server.client.call('ListConsumers', { schema_id: 'users', environment: 'staging' });
  assert.deepEqual(staged.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['narrow'], 'nothing was copied');
});

/** A document whose operations have the given paths, each answering 200 with no body. */
function documentWithPaths(title: string, paths: string[]): string {
  const operation = { get: { responses: { '200': { description: 'ok' } } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1.0.0' }, paths: Object.fromEntries(paths.map((path) => [path, operation])) });
}

test('endpoint paths count in consumerMaxUsedFieldChars, as stored: long templates, or short paths naming long templates, are refused', async () => {
  // 30 registrations of 1,000 such endpoints made a 120 MB ListConsumers answer (the main thread held
  // 1.3 s, then grpc-js refused to send it), and CanIDeploy held the main thread 0.9 s.
  const long = Array.from({ length: 600 }, (_, i) => `/long-${i}/${'x'.repeat(4_000)}`);
  await registerSchema(server.client, 'long-paths', documentWithPaths('long paths', long), '1.0.0');
  const register = (consumerId: string, schemaId: string, paths: string[]) => server.client.call('RegisterConsumer', {
    consumer_id: consumerId, consumer_version: '1', schema_id: schemaId, schema_version: '1.0.0', environment: 'dev',
    used_endpoints: paths.map((path) => ({ method: 'GET', path, used_fields: ['id'] })),
  });
  const chars = long.reduce((sum, path) => sum + path.length + 'id'.length, 0);
  const refused = await register('long', 'long-paths', long);
  assert.equal(refused.success, false);
  assert.equal(refused.message, `used_endpoints list ${chars} characters of paths and used fields in all, over the limit of ${LIMITS.consumerMaxUsedFieldChars} (consumerMaxUsedFieldChars)`);

  // Sent as `{p}`, stored under the document's template with its 40,000-character parameter name.
  const named = Array.from({ length: 60 }, (_, i) => `/named-${i}/{${'p'.repeat(40_000)}}`);
  await registerSchema(server.client, 'long-names', documentWithPaths('long names', named), '1.0.0');
  const short = await register('short', 'long-names', named.map((_, i) => `/named-${i}/{p}`));
  assert.equal(short.success, false);
  assert.match(short.message, /^used_endpoints list \d+ characters of paths and used fields in all, over the limit of \d+ \(consumerMaxUsedFieldChars\)$/);
  assert.equal((await register('few', 'long-names', named.slice(0, 2).map((_, i) => `/named-${i}/{p}`))).success, true);
  const listed = await server.client.call('ListConsumers', { schema_id: 'long-names', environment: 'dev' });
  assert.deepEqual(listed.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['few']);
});

test('registrations of one schema past consumerSchemaMaxRegistrations are refused, naming the limit; updates and other schemas go on', async () => {
  await registerSchema(server.client, 'counted', USERS_SCHEMA_TEXT, '1.0.0');
  const register = (consumerId: string, environment = 'dev', schemaId = 'counted') => server.client.call('RegisterConsumer', {
    consumer_id: consumerId, consumer_version: '1', schema_id: schemaId, schema_version: '1.0.0', environment, used_endpoints: [],
  });
  // Registrations that list no fields: the used-field limits never apply to them.
  const limit = LIMITS.consumerSchemaMaxRegistrations;
  const inFlight = 32;
  for (let first = 0; first < limit; first += inFlight) {
    const answers = await Promise.all(Array.from({ length: Math.min(inFlight, limit - first) }, (_, i) => register(`c-${first + i}`)));
    for (const answer of answers) assert.equal(answer.success, true, answer.message);
  }
  const refused = await register('one-too-many', 'prod');
  assert.equal(refused.success, false);
  assert.equal(refused.message, `counted has ${limit} consumer registrations, every environment together: the limit for one schema (consumerSchemaMaxRegistrations) is ${limit}; deregister consumers that are no longer deployed`);
  // A registration replaced is not a new one; other schemas have their own count.
  assert.equal((await register('c-7')).success, true);
  assert.equal((await register('one-too-many', 'prod', 'users')).success, true);
  // RecordDeployment's copy of a registration into another environment is a new one: refused, nothing copied.
  const deployed = await server.client.call('RecordDeployment', { schema_id: 'counted', version: '1', environment: 'staging', consumer_id: 'c-1' });
  assert.equal(deployed.success, false);
  assert.match(deployed.message, /\(consumerSchemaMaxRegistrations\)/);
  assert.equal((await server.client.call('ListConsumers', { schema_id: 'counted', environment: 'staging' })).consumers.length, 0);
  // A deregistration makes room.
  assert.equal((await server.client.call('DeregisterConsumer', { consumer_id: 'c-0', schema_id: 'counted', environment: 'dev' })).success, true);
  assert.equal((await register('one-too-many', 'prod')).success, true);
});
