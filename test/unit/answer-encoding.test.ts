/**
 * Answers with long lists are encoded a slice per turn of the event loop (encodedInTurns in
 * src/main/message-codecs.ts): a CanIDeploy answer of 1,500 consumers (4.3 MB) held the main thread
 * 160-235 ms in one piece when the protobuf library encoded it whole. The slices must decode to
 * exactly what the library's one piece decodes to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { encodedInTurns, withMessageCodecs } from '../../src/main/message-codecs';
import { countTurns } from '../helpers/event-loop-turns';

const definition = contractValidatorDefinition();
const codecs = withMessageCodecs(definition);

function change(consumer: number, property: number) {
  return { type: 'TYPE_CHANGED' as const, path: `/r${consumer}/{id}`, method: 'GET', description: `response property p${property} changed type`, old_value: 'string', new_value: 'integer' };
}

/** A CanIDeploy answer of `consumers` affected consumers, each with 18 changes (4.3 MB at 1,500). */
function canIDeployAnswer(consumers: number) {
  return {
    safe_to_deploy: false,
    summary: `${consumers} consumers would break`,
    breaking_changes: Array.from({ length: 9 }, (_, property) => change(0, property)),
    affected_consumers: Array.from({ length: consumers }, (_, consumer) => ({
      consumer_id: `c${consumer}`, consumer_version: '1.0.0', current_schema_version: '1.0.0', environment: 'dev', will_break: true,
      relevant_changes: Array.from({ length: 9 }, (_, property) => change(consumer, property)),
      unreached_changes: Array.from({ length: 9 }, (_, property) => change(consumer + 1, property)),
      omitted_changes: consumer % 3,
    })),
    compared_with_version: '1.0.0', compared_with: 'deployed', checked_version: '2.0.0', replayed_interactions: 7,
  };
}

const notCancelled = { cancelled: false };

test('an answer with long lists, encoded in slices over turns of the event loop, decodes as the library encodes it whole', async () => {
  const answer = canIDeployAnswer(1_500);
  const turns = countTurns();
  const encoded = await encodedInTurns('CanIDeploy', answer, notCancelled);
  turns.stop();
  assert.ok(turns.turn >= 2, `encoded within ${turns.turn} turn(s) of the event loop`);
  const bytes = codecs.CanIDeploy!.responseSerialize(encoded);
  const whole = definition.CanIDeploy.responseSerialize(answer);
  assert.equal(bytes.length, whole.length);
  assert.deepEqual(definition.CanIDeploy.responseDeserialize(bytes), definition.CanIDeploy.responseDeserialize(whole));
});

test('an answer whose lists hold few entries is left to the library, as are answers already bytes', async () => {
  const answer = canIDeployAnswer(2);
  assert.equal(await encodedInTurns('CanIDeploy', answer, notCancelled), answer);
  const bytes = Buffer.from([8, 1]);
  assert.equal(await encodedInTurns('ValidateInteraction', bytes, notCancelled), bytes);
});

test('entries whose own fields hold lists and numbers keep their order and values', async () => {
  const answer = { consumers: Array.from({ length: 500 }, (_, i) => ({ consumer_id: `c${i}`, consumer_version: `${i}.0.0`, registered_at: 1_700_000_000 + i, used_endpoints: [{ method: 'GET', path: `/p${i}`, used_fields: [`f${i}`, `g${i}`] }] })) };
  const encoded = await encodedInTurns('ListConsumers', answer, notCancelled);
  assert.notEqual(encoded, answer);
  assert.deepEqual(definition.ListConsumers.responseDeserialize(codecs.ListConsumers!.responseSerialize(encoded)), definition.ListConsumers.responseDeserialize(definition.ListConsumers.responseSerialize(answer as never)));
});

test('a call cancelled while its answer is encoded stops the encoding', async () => {
  const call = { cancelled: false };
  setImmediate(() => { call.cancelled = true; });
  const answer = canIDeployAnswer(1_500);
  assert.equal(await encodedInTurns('CanIDeploy', answer, call), answer, 'what grpc-js does not send on a cancelled call');
});
