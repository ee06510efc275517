/**
 * ValidateInteractionStream over real gRPC: one result per request, in order, correlation ids
 * echoed; failures stay per message; a slow reader is held back, not dropped; streams held back by
 * the pool's stream queue resume; a malformed message ends the stream with INVALID_ARGUMENT after
 * the results before it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, rawClient, registerSchema,
} from '../helpers/validation';

let server: TestServer;
let hash: string;

before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  hash = (await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT)).schema_hash;
});

after(() => server.close());

/** Writes every request, ends the stream, collects every result (and the final status). */
function runStream(requests: object[], options: { pauseReadingMs?: number } = {}, on: TestServer = server): Promise<{ results: any[]; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const call = on.client.raw.ValidateInteractionStream();
    const results: any[] = [];
    call.on('data', (result) => results.push(result));
    call.on('error', (error: grpc.ServiceError) => resolve({ results, error }));
    call.on('end', () => resolve({ results }));
    if (options.pauseReadingMs) {
      call.pause();
      setTimeout(() => call.resume(), options.pauseReadingMs);
    }
    for (const request of requests) call.write(request);
    call.end();
  });
}

/** Kinds of request mixed on one stream, each with the answer it must get. */
const KINDS = [
  { request: (i: number) => getUserInteraction('users', String(i), VALID_USER), check: (r: any) => r.valid && r.validated_against_hash === hash },
  { request: (i: number) => getUserInteraction('users', `x${i}`, VALID_USER), check: (r: any) => !r.valid && r.errors[0].startsWith('parameter "id" in path') },
  { request: () => getUserInteraction('ghost', '1', VALID_USER), check: (r: any) => !r.valid && r.errors[0] === 'Schema not found: ghost' },
  { request: () => getUserInteraction('users', '1', VALID_USER, { schema_version: '3.0.0' }), check: (r: any) => r.errors[0] === 'schema version not found' },
  { request: () => getUserInteraction('', '1', VALID_USER), check: (r: any) => r.errors[0] === 'schema_id is required' },
];

test('results come back in request order with their correlation ids, failures per message', async () => {
  const count = 1500;
  const requests = Array.from({ length: count }, (_, i) => ({ ...KINDS[i % KINDS.length]!.request(i), correlation_id: `c-${i}` }));
  const { results, error } = await runStream(requests);
  assert.equal(error, undefined);
  assert.equal(results.length, count);
  results.forEach((result, i) => {
    assert.equal(result.correlation_id, `c-${i}`);
    assert.ok(KINDS[i % KINDS.length]!.check(result), `result ${i}: ${JSON.stringify(result)}`);
  });
});

test('a client that stops reading for a while still gets every result, in order', async () => {
  const count = 3000; // several times the per-stream in-flight bound
  const requests = Array.from({ length: count }, (_, i) => ({ ...getUserInteraction('users', String(i), VALID_USER), correlation_id: String(i) }));
  const { results, error } = await runStream(requests, { pauseReadingMs: 300 });
  assert.equal(error, undefined);
  assert.deepEqual(results.map((r) => r.correlation_id), requests.map((r) => r.correlation_id));
});

test('a stream with no requests ends cleanly', async () => {
  const { results, error } = await runStream([]);
  assert.equal(error, undefined);
  assert.deepEqual(results, []);
});

test('a malformed message ends the stream with INVALID_ARGUMENT after the results before it', async () => {
  const encode = (request: object) => contractValidatorDefinition().ValidateInteractionStream.requestSerialize(request as never);
  const decode = (bytes: Buffer) => contractValidatorDefinition().ValidateInteractionStream.responseDeserialize(bytes);
  const client = rawClient(server.address);
  try {
    const outcome = await new Promise<{ results: any[]; error?: grpc.ServiceError }>((resolve) => {
      const call = client.makeBidiStreamRequest('/svc.ContractValidator/ValidateInteractionStream', (b: Buffer) => b, (b: Buffer) => b);
      const results: any[] = [];
      call.on('data', (bytes: Buffer) => results.push(decode(bytes)));
      call.on('error', (error: grpc.ServiceError) => resolve({ results, error }));
      call.on('end', () => resolve({ results }));
      call.write(encode({ ...getUserInteraction('users', '1', VALID_USER), correlation_id: 'before-1' }));
      call.write(encode({ ...getUserInteraction('users', '2', VALID_USER), correlation_id: 'before-2' }));
      call.write(Buffer.from([0x0a, 0xff, 0xff, 0x03])); // schema_id claims more bytes than there are
      call.write(encode({ ...getUserInteraction('users', '3', VALID_USER), correlation_id: 'after' }));
      call.end();
    });
    assert.deepEqual(outcome.results.map((r) => r.correlation_id), ['before-1', 'before-2']);
    assert.equal(outcome.error?.code, grpc.status.INVALID_ARGUMENT);
    assert.match(outcome.error!.details, /not a valid svc\.InteractionRequest message/);
  } finally {
    client.close();
  }
  // The server goes on serving streams.
  const { results } = await runStream([{ ...getUserInteraction('users', '9', VALID_USER), correlation_id: 'next' }]);
  assert.equal(results[0].correlation_id, 'next');
});

test('streams that stop reading while the pool holds as many stream items as it queues resume: every result, in order', { timeout: 60_000 }, async () => {
  // A queue of one stream item: a stream whose own items are all answered often finds it full and
  // waits with nothing in flight, so only the pool's word that it has room again resumes it.
  const tight = await startTestServer({ workerThreads: 1, poolTuning: { maxQueuedStreamItems: 1 } });
  try {
    await registerSchema(tight.client, 'users', USERS_SCHEMA_TEXT);
    const runs = Array.from({ length: 8 }, (_, stream) => {
      const requests = Array.from({ length: 300 }, (_, i) => ({ ...getUserInteraction('users', String(i), VALID_USER), correlation_id: `${stream}-${i}` }));
      return runStream(requests, {}, tight).then(({ results, error }) => ({ requests, results, error }));
    });
    for (const { requests, results, error } of await Promise.all(runs)) {
      assert.equal(error, undefined);
      assert.deepEqual(results.map((r) => r.correlation_id), requests.map((r) => r.correlation_id));
      assert.ok(results.every((r) => r.valid));
    }
  } finally {
    await tight.close();
  }
});

test('streams with nothing in flight that wait for room in the pool\'s stream queue are resumed by the pool', { timeout: 60_000 }, async () => {
  // Two streams share a one-item stream queue: one writes its requests all at once, the other one at
  // a time. Each keeps finding the queue full of the other's item with nothing of its own left in
  // flight, and then no answer or drain of its own can resume it: only the pool's word that the queue
  // has room again does (without it, the first stream stalled after 2 and after 48 answers).
  const tight = await startTestServer({ workerThreads: 1, poolTuning: { maxQueuedStreamItems: 1 } });
  const STEPS = 40;
  const FLOOD = 4_000;
  const STALL_MS = 15_000;
  const calls: grpc.ClientDuplexStream<object, any>[] = [];
  const open = () => {
    const call = tight.client.raw.ValidateInteractionStream() as grpc.ClientDuplexStream<object, any>;
    calls.push(call);
    return call;
  };
  const request = (id: string) => ({ ...getUserInteraction('users', '1', VALID_USER), correlation_id: id });
  let stall: NodeJS.Timeout | undefined;
  try {
    await registerSchema(tight.client, 'users', USERS_SCHEMA_TEXT);
    const flooded: string[] = [];
    const flooding = new Promise<void>((resolve, reject) => {
      const call = open();
      call.on('data', (result) => flooded.push(result.correlation_id));
      call.on('error', reject);
      call.on('end', () => resolve());
      for (let i = 0; i < FLOOD; i++) call.write(request(`flood-${i}`));
      call.end();
    });
    const answered: string[] = [];
    const stepwise = new Promise<void>((resolve, reject) => {
      const call = open();
      call.on('data', (result) => {
        answered.push(result.correlation_id);
        if (answered.length < STEPS) call.write(request(`step-${answered.length}`));
        else call.end();
      });
      call.on('error', reject);
      call.on('end', () => resolve());
      call.write(request('step-0'));
    });
    const stalled = new Promise<never>((_, reject) => {
      stall = setTimeout(() => reject(new Error(`stalled: ${answered.length} of ${STEPS} one-at-a-time answers, ${flooded.length} of ${FLOOD} flood answers`)), STALL_MS);
    });
    await Promise.race([Promise.all([stepwise, flooding]), stalled]);
    assert.deepEqual(answered, Array.from({ length: STEPS }, (_, step) => `step-${step}`));
    assert.equal(flooded.length, FLOOD);
  } finally {
    clearTimeout(stall);
    for (const call of calls) call.cancel();
    await tight.close();
  }
});
