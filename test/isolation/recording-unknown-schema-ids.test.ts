/**
 * A RecordInteractions stream naming a new, long schema id in every message. A stream remembered
 * each version it found in no store, whatever its length, and V8 hashes a string over 16 Ki characters
 * by its length alone: 1,500 ids of 256 Ki characters made each look-up compare them all, held a
 * neighbour's ValidateInteraction 290 ms (p50 10.7 ms), took 29 s and kept 406 MiB. An id or version
 * no registration accepts is now unknown without a look-up, and not remembered.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { recordEncoded } from '../helpers/recording';
import { createTestClient, startTestServer, type TestClient, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, neighbourWhile, registerSchema } from '../helpers/validation';

const MESSAGES = 400;
const ID_CHARS = 256 * 1024;
/**
 * Slowest neighbour call: 9–13 ms measured with the fix on the 2-core test machine, 58–172 ms before
 * it; the bound leaves room for a loaded machine, the count of look-ups is the exact check.
 */
const MAX_NEIGHBOUR_MS = 250;

let server: TestServer;
let neighbour: TestClient;
let sender: grpc.Client;

before(async () => {
  server = await startTestServer();
  neighbour = createTestClient(server.address);
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT, '1.0.0');
  await neighbour.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  sender = new grpc.Client(server.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes });
});
after(async () => {
  sender.close();
  neighbour.close();
  await server.close();
});

test('interactions naming long unknown schema ids are dropped as unknown without holding a neighbour', async () => {
  const encode = contractValidatorDefinition().RecordInteractions.requestSerialize;
  const prefix = 'x'.repeat(ID_CHARS);
  const messages = Array.from({ length: MESSAGES }, (_, i) => encode({
    // One length for all: V8 gives strings of a length over 16 Ki characters one hash.
    ...getUserInteraction(`${prefix}${String(i).padStart(4, '0')}`, '1', VALID_USER), schema_version: '1.0.0', consumer_id: 'long-ids', valid: true,
  }));

  let lookups = 0;
  const { schemas } = server.server.context;
  const readThrough = schemas.readThrough.bind(schemas);
  schemas.readThrough = (schemaId, version) => {
    lookups++;
    return readThrough(schemaId, version);
  };

  const { answer, neighbourMs } = await neighbourWhile(
    () => recordEncoded(sender, messages),
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 1), VALID_USER)),
  );
  assert.deepEqual(answer, { accepted: 0, dropped: MESSAGES, message: `not kept: ${MESSAGES} unknown schema` });
  assert.equal(lookups, 0, 'an id no registration accepts is not looked up');
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(neighbourMs.length >= 3, `only ${neighbourMs.length} neighbour calls ran`);
  assert.ok(worst < MAX_NEIGHBOUR_MS, `a neighbour call took ${Math.round(worst)} ms`);
});
