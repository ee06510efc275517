/**
 * A consumer registration weighs in its schema's listings what it costs them (storage.ts
 * listedChars): the characters of its paths and used fields, and a weight per endpoint and per
 * used field. Counted by their characters alone, registrations of many short used fields passed
 * every limit and made listings that held every call: five registrations of 100,000 used fields
 * of two to four characters were all stored (the limits let 42 through), and their ListConsumers
 * answer held a neighbour's validation 415-441 ms (2-core machine, load average 5).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { listedChars } from '../../src/main/storage/storage';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerSchema } from '../helpers/validation';

const ENDPOINTS = 100;
/** 100 endpoints of 1,000 fields: consumerMaxUsedFieldsTotal, in fields of two to four characters. */
const USED_FIELDS = Array.from({ length: LIMITS.consumerMaxUsedFieldsTotal / ENDPOINTS }, (_, f) => `f${f}`);
const PATHS = Array.from({ length: ENDPOINTS }, (_, i) => `/r${i}`);
/** What one such registration weighs in a listing. */
const LISTED = listedChars(PATHS.map((path) => ({ method: 'GET', path, usedFields: USED_FIELDS })));
/** A listing the limits allow still costs its building; this bounds it well above what it took (see the test). */
const NEIGHBOUR_BOUND_MS = 1_000;

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  const operation = { get: { responses: { 200: { description: 'ok' } } } };
  await registerSchema(server.client, 'wide', JSON.stringify({
    openapi: '3.0.3', info: { title: 'wide', version: '1.0.0' }, paths: Object.fromEntries(PATHS.map((path) => [path, operation])),
  }), '1.0.0');
  await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
});
after(() => server.close());

const register = (consumerId: string, environment: string) => server.client.call('RegisterConsumer', {
  consumer_id: consumerId, consumer_version: '1', schema_id: 'wide', schema_version: '1.0.0', environment,
  used_endpoints: PATHS.map((path) => ({ method: 'GET', path, used_fields: USED_FIELDS })),
});
const neighbourCall = () => server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));

test('registrations of many short used fields weigh what they cost a listing: the schema\'s limit refuses the third, and a listing over its limit is refused at once', async () => {
  // Each weighs about 13 Mi characters in a listing, under 0.4 Mi by its characters alone.
  assert.ok(2 * LISTED <= LIMITS.consumerSchemaMaxUsedFieldChars && 3 * LISTED > LIMITS.consumerSchemaMaxUsedFieldChars, `${LISTED}`);
  assert.equal((await register('web', 'dev')).success, true);
  assert.equal((await register('app', 'staging')).success, true);
  const third = await register('batch', 'prod');
  assert.equal(third.success, false);
  assert.equal(third.message, `the registrations of wide weigh ${2 * LISTED} characters in a listing, and this one ${LISTED} `
    + '(paths and used fields, each endpoint counting 256 characters more and each used field 128): '
    + `over the limit of ${LIMITS.consumerSchemaMaxUsedFieldChars} for one schema, every environment together (consumerSchemaMaxUsedFieldChars); `
    + 'deregister consumers that are no longer deployed, or list fewer endpoints or used fields');

  // Both environments together are over what one answer carries: refused from the stored counts, before anything is read.
  const { answer: refused, neighbourMs } = await neighbourWhile(
    () => server.client.call('ListConsumers', { schema_id: 'wide' }).then(() => undefined, (error: { code: number; details: string }) => error),
    neighbourCall,
  );
  assert.equal(refused?.code, 8); // RESOURCE_EXHAUSTED
  assert.equal(refused?.details, `the 2 consumers of wide weigh ${2 * LISTED} characters in a listing `
    + '(paths and used fields, each endpoint counting 256 characters more and each used field 128), '
    + `over the limit of ${LIMITS.consumerListMaxUsedFieldChars} one answer carries (consumerListMaxUsedFieldChars); list them one environment at a time`);
  assert.ok((neighbourMs.at(-1) ?? 0) < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(neighbourMs.at(-1)!)} ms`);
});

test('the largest listing of one environment is answered whole, and a neighbour is held at most its building', async () => {
  const { answer, hostileMs, neighbourMs } = await neighbourWhile(() => server.client.call('ListConsumers', { schema_id: 'wide', environment: 'dev' }), neighbourCall, { pauseMs: 0 });
  assert.deepEqual(answer.consumers.map((consumer: { consumer_id: string }) => consumer.consumer_id), ['web']);
  const fields = (answer.consumers[0].used_endpoints as Array<{ used_fields: string[] }>).reduce((sum, endpoint) => sum + endpoint.used_fields.length, 0);
  assert.equal(fields, LIMITS.consumerMaxUsedFieldsTotal);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour's validation took ${Math.round(worst)} ms while ListConsumers took ${Math.round(hostileMs)} ms`);
});
