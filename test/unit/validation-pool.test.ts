/**
 * ValidationPool on its own (no gRPC): lifecycle, option errors, documents sent once per worker
 * and fetched once for concurrent calls, loader failures passed through as the caller's error,
 * batches of several contracts answered call by call, single calls ahead of stream items, compiles
 * timed in their worker, answers posted as each batch ends, batches over maxRunMs or maxHeapBytes stopped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, SvcError, schemaNotFound } from '../../src/shared/errors';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { ValidationOperation } from '../../src/shared/pool-protocol/batches';
import { ValidationPool } from '../../src/main/validation-pool';
import type { VersionRef } from '../../src/shared/schema-records';
import { Metrics } from '../../src/main/metrics';
import {
  USERS_SCHEMA_TEXT, VALID_USER, assertNeighbourNotHeld, getUserInteraction, nestedAnyOfSchema, postNested, postSlowPattern, postThings, slowPatternSchema,
  slowPatternText, slowSchema,
} from '../helpers/validation';

const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never);
const decode = (bytes: Buffer) => contractValidatorDefinition().ValidateInteraction.responseDeserialize(bytes);
const REF: VersionRef = { schemaId: 'users', version: '1.0.0', hash: 'h1' };

async function usersDocumentJson(): Promise<string> {
  return JSON.stringify((await loadSchema(USERS_SCHEMA_TEXT)).document);
}

/** Runs `use` with a pool of these options, started, and closes it afterwards whatever `use` does. */
async function withPool(options: ConstructorParameters<typeof ValidationPool>[0], use: (pool: ValidationPool) => Promise<void>): Promise<void> {
  const pool = new ValidationPool(options);
  await pool.start();
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
}

test('start and close are idempotent; calls before start or after close are refused clearly', async () => {
  const pool = new ValidationPool({ threads: 1, loadContract: async () => { throw new Error('unused'); } });
  await assert.rejects(pool.validate({ operation: ValidationOperation.INTERACTION, message: Buffer.alloc(0), contract: REF }),
    (error: SvcError) => error.code === ErrorCode.INTERNAL && /not started/.test(error.message));
  await Promise.all([pool.start(), pool.start()]);
  assert.equal(pool.workers.length, 1);
  await Promise.all([pool.close(), pool.close()]);
  await pool.close();
  await assert.rejects(pool.validate({ operation: ValidationOperation.INTERACTION, message: Buffer.alloc(0), contract: REF }),
    (error: SvcError) => error.code === ErrorCode.UNAVAILABLE && /closed/.test(error.message));
});

test('options are checked once, naming the option', () => {
  const loadContract = async () => { throw new Error('unused'); };
  assert.throws(() => new ValidationPool({ threads: -1, loadContract }), /options\.threads must be an integer of at least 0/);
  assert.throws(() => new ValidationPool({ maxBatchItems: 0, loadContract }), /options\.maxBatchItems/);
  assert.ok(new ValidationPool({ loadContract }).threads >= 1, 'threads 0 means one per core');
});

test('a contract document is fetched once for overlapping misses and built once per worker', async () => {
  const documentJson = await usersDocumentJson();
  let loads = 0;
  const metrics = new Metrics();
  await withPool({
    threads: 2,
    metrics,
    loadContract: async (ref) => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { ref, documentJson };
    },
  }, async (pool) => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => pool.validate({
      operation: ValidationOperation.INTERACTION,
      message: encode({ ...getUserInteraction('users', i % 2 ? String(i) : 'bad', VALID_USER), correlation_id: `c${i}` }),
      contract: REF,
    })));
    answers.forEach((answer, i) => {
      const result = decode(answer.result);
      assert.equal(result.correlation_id, `c${i}`);
      assert.equal(result.valid, i % 2 === 1);
      assert.equal(answer.valid, result.valid);
      assert.equal(answer.category, result.valid ? '' : 'request_invalid');
      assert.equal(result.validated_against_hash, 'h1');
    });
    // Misses that overlap share one fetch; a worker that first misses after it ended fetches again.
    assert.ok(loads >= 1 && loads <= 2, `one fetch per worker at most (${loads})`);
    const misses = (await metrics.cacheMisses.get()).values[0]!.value;
    assert.ok(misses >= 1 && misses <= 2, `built at most once per worker (${misses})`);
    assert.equal((await metrics.cacheItems.get()).values[0]!.value, misses);
    // Every call is a lookup, however many calls of the contract a batch carries.
    const hits = (await metrics.cacheHits.get()).values[0]!.value;
    assert.ok(hits + misses >= 200, `${hits} hits and ${misses} misses for 200 calls`);
  });
});

test('a loader failure reaches the caller as its own error; a re-registered version follows the new hash', async () => {
  const documentJson = await usersDocumentJson();
  await withPool({
    threads: 1,
    loadContract: async (ref) => {
      if (ref.schemaId === 'gone') throw schemaNotFound('gone');
      return { ref: { ...ref, hash: 'h2-newer' }, documentJson };
    },
  }, async (pool) => {
    const message = encode(getUserInteraction('users', '1', VALID_USER));
    await assert.rejects(pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: { ...REF, schemaId: 'gone' } }),
      (error: SvcError) => error.code === ErrorCode.SCHEMA_NOT_FOUND);
    const answer = await pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: REF });
    assert.equal(decode(answer.result).validated_against_hash, 'h2-newer');
  });
});

test('a document the engine cannot use answers every call with router_creation, built once', async () => {
  let loads = 0;
  await withPool({ threads: 1, loadContract: async (ref) => { loads++; return { ref, documentJson: '{not json' }; } }, async (pool) => {
    for (let i = 0; i < 3; i++) {
      const answer = await pool.validate({ operation: ValidationOperation.INTERACTION, message: encode(getUserInteraction('users', '1', VALID_USER)), contract: REF });
      assert.equal(answer.category, 'router_creation');
      assert.match(decode(answer.result).errors[0], /^the schema could not be prepared for validation: /);
    }
    assert.equal(loads, 1);
  });
});

test('one batch of several contracts and outcomes: each call gets its own answer, version and failure', async () => {
  const documentJson = await usersDocumentJson();
  await withPool({ threads: 1, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const refs: VersionRef[] = [REF, { schemaId: 'users-copy', version: '2.0.0', hash: 'h-copy' }];
    const call = (i: number, message: Uint8Array) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: refs[i % 2]! });
    // Compile both contracts first, so the calls below travel in shared batches.
    await Promise.all(refs.map((_, i) => call(i, encode(getUserInteraction('users', '1', VALID_USER)))));
    const malformed = Buffer.from([0x0a, 0xff]); // field 1, length 255, nothing after it
    const settled = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => call(i, i % 5 === 4
      ? malformed
      : encode({ ...getUserInteraction('users', i % 3 === 0 ? 'bad' : String(i), VALID_USER), correlation_id: `c${i}` }))));
    settled.forEach((outcome, i) => {
      if (i % 5 === 4) {
        assert.equal(outcome.status, 'rejected');
        assert.equal((outcome as PromiseRejectedResult).reason.code, ErrorCode.INVALID_ARGUMENT);
        return;
      }
      assert.equal(outcome.status, 'fulfilled', `call ${i}`);
      const answer = (outcome as PromiseFulfilledResult<{ valid: boolean; category: string; result: Buffer }>).value;
      const result = decode(answer.result);
      assert.equal(result.correlation_id, `c${i}`);
      assert.equal(result.valid, i % 3 !== 0);
      assert.equal(answer.category, i % 3 === 0 ? 'request_invalid' : '');
      assert.equal(result.validated_against_version, refs[i % 2]!.version);
      assert.equal(result.validated_against_hash, refs[i % 2]!.hash);
    });
  });
});

test('affinity: with lanes free, each contract is compiled by one worker only', async () => {
  const documentJson = await usersDocumentJson();
  const metrics = new Metrics();
  await withPool({ threads: 2, metrics, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const refs: VersionRef[] = [REF, { schemaId: 'users-copy', version: '1.0.0', hash: 'h-copy' }];
    const message = encode(getUserInteraction('users', '1', VALID_USER));
    // One call at a time: the lane holding the contract is always free to take it.
    for (let i = 0; i < 40; i++) {
      const answer = await pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: refs[i % 2]! });
      assert.equal(answer.valid, true);
    }
    assert.equal((await metrics.cacheMisses.get()).values[0]!.value, 2, 'each contract built once, not once per worker');
  });
});

test('a compile is timed in its worker: a main thread held up meanwhile does not make a quick contract count as slow', async () => {
  const documents: Record<string, string> = {
    slow: JSON.stringify((await loadSchema(slowSchema())).document),
    // About 15–20 ms to compile on a quiet machine, several times that under the whole suite on a slow
    // one: under slowCompileMs either way.
    neighbour: JSON.stringify((await loadSchema(slowSchema(20, 'neighbour'))).document),
  };
  const usersJson = await usersDocumentJson();
  const slowCompileMs = 250;
  await withPool({
    threads: 2,
    slowCompileMs,
    loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash] ?? usersJson }),
  }, async (pool) => {
    const call = (hash: string, message: Buffer) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: { schemaId: hash, version: '1.0.0', hash } });
    const usersCall = encode(getUserInteraction('users', '1', VALID_USER));
    const neighbourCall = encode(postThings('neighbour'));
    // Both workers compile something first, so the timed compile below runs in a warm thread.
    await Promise.all([call('warm-a', usersCall), call('warm-b', usersCall)]);
    // The neighbour compiles while this thread is held for three times slowCompileMs: timed as the
    // round trip, it would count as slow.
    const neighbourCompiled = call('neighbour', neighbourCall);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const heldUntil = performance.now() + 3 * slowCompileMs;
    while (performance.now() < heldUntil) { /* the main thread is busy */ }
    assert.equal((await neighbourCompiled).valid, true);
    // The neighbour went to the first lane (each held one contract); one more for the second lane.
    assert.equal((await call('warm-c', usersCall)).valid, true);

    // The slow first compile goes to the neighbour's lane (each lane holds two contracts, the first
    // is taken), so the neighbour's calls must compile it on the other lane, the last one free of slow
    // work: allowed only for a contract that counts as quick.
    await assertNeighbourNotHeld(() => call('slow', encode(postThings('slow'))), () => call('neighbour', neighbourCall), 50);
  });
});

test('a single call does not wait behind queued stream items, and stream items keep moving under many single calls', async () => {
  const documentJson = await usersDocumentJson();
  await withPool({ threads: 1, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const message = encode(getUserInteraction('users', '1', VALID_USER));
    const validate = (streamed: boolean) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: REF, streamed });
    await validate(false); // compiled: what follows is queueing alone

    // 2,000 stream items queued (a few streams' worth), then one single call.
    const finished: string[] = [];
    const streamItems = Array.from({ length: 2_000 }, (_, i) => validate(true).then(() => finished.push(`item ${i}`)));
    const single = validate(false).then(() => finished.push('single'));
    await Promise.all([...streamItems, single]);
    const position = finished.indexOf('single');
    assert.ok(position < 2 * 64, `the single call finished after ${position} stream items (a batch holds at most 64)`);

    // The other way round: 2,000 single calls queued, then 20 stream items; each batch carries stream items.
    finished.length = 0;
    const singles = Array.from({ length: 2_000 }, (_, i) => validate(false).then(() => finished.push(`single ${i}`)));
    const items = Array.from({ length: 20 }, () => validate(true).then(() => finished.push('item')));
    await Promise.all([...singles, ...items]);
    const lastItem = finished.lastIndexOf('item');
    assert.ok(lastItem < 2 * 64, `the last stream item finished after ${lastItem} calls`);
  });
});

test('stream items past maxQueuedStreamItems leave no room: a waiting stream is told once the queue has room again', async () => {
  const documentJson = await usersDocumentJson();
  await withPool({ threads: 1, maxQueuedStreamItems: 8, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const message = encode(getUserInteraction('users', '1', VALID_USER));
    const validate = (streamed: boolean) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: REF, streamed });
    await validate(true);
    assert.equal(pool.hasStreamRoom(), true);
    const items = Array.from({ length: 40 }, () => validate(true));
    assert.equal(pool.hasStreamRoom(), false, '40 stream items queued, over the limit of 8');
    let resumed = 0;
    const room = new Promise<void>((resolve) => pool.whenStreamRoom(() => {
      resumed++;
      resolve();
    }));
    await room;
    assert.equal(pool.hasStreamRoom(), true);
    await Promise.all(items);
    assert.equal(resumed, 1, 'told once');
    // Single calls never count against it.
    const singles = Array.from({ length: 40 }, () => validate(false));
    assert.equal(pool.hasStreamRoom(), true);
    await Promise.all(singles);
  });
});

/** The slow-pattern contract (test/helpers/validation.ts): its calls cost what their text's length says. */
const SLOW_PATTERN_REF: VersionRef = { schemaId: 'pattern', version: '1.0.0', hash: 'pattern' };

async function slowPatternDocumentJson(): Promise<string> {
  return JSON.stringify((await loadSchema(slowPatternSchema())).document);
}

function postPattern(text: string): Buffer {
  return encode(postSlowPattern(SLOW_PATTERN_REF.schemaId, text));
}

/** A call of about 5 µs a character (30,000 characters: about 150 ms). */
function longPatternCall(seed: number, chars = 30_000): Buffer {
  return postPattern(slowPatternText(seed, chars));
}

test('a batch\'s answers leave when it ends, not after the batch sent behind it', async () => {
  const documentJson = await slowPatternDocumentJson();
  // Batches of two calls, and up to three batches in the worker at once.
  await withPool({ threads: 1, maxBatchItems: 2, concurrentTasksPerWorker: 3, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const validate = (message: Buffer) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: SLOW_PATTERN_REF });
    await validate(postPattern('ab'));
    const blocker = validate(longPatternCall(9));
    await new Promise((resolve) => setImmediate(resolve));
    // While the blocker runs, both batches of these four wait in the worker: it takes them together.
    const answeredAt = await Promise.all([1, 2, 3, 4].map((seed) => validate(longPatternCall(seed)).then(() => performance.now())));
    await blocker;
    // Each batch runs about 300 ms; the first one's answers waited for the second (no gap) when the
    // worker started both before posting the first's answers.
    const gapMs = Math.min(answeredAt[2]!, answeredAt[3]!) - Math.max(answeredAt[0]!, answeredAt[1]!);
    assert.ok(gapMs > 100, `the first batch was answered only ${gapMs.toFixed(1)} ms before the second`);
  });
});

test('a batch over maxRunMs has its thread replaced: its calls go again one by one, and the one that overruns alone fails with LIMIT_EXCEEDED', async () => {
  const documents: Record<string, string> = { [SLOW_PATTERN_REF.hash]: await slowPatternDocumentJson() };
  const usersJson = await usersDocumentJson();
  // maxRunMs of 1 s: a short call compiling its contract on a new thread overran 300 ms on a loaded machine.
  await withPool({ threads: 1, maxRunMs: 1_000, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash] ?? usersJson }) }, async (pool) => {
    const validate = (message: Buffer, contract: VersionRef) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
    const usersCall = encode(getUserInteraction('users', '1', VALID_USER));
    // 2-8 s of RE2, stopped at maxRunMs (under maxBatchBytes, so not slow work by its size).
    const overlong = longPatternCall(7, 400_000);
    // Both contracts compiled, so the next two calls share one batch.
    await validate(postPattern('ab'), SLOW_PATTERN_REF);
    assert.equal((await validate(usersCall, REF)).valid, true);
    const threadBefore = pool.workers[0]!.threadId;
    const [overrun, neighbour] = await Promise.allSettled([validate(overlong, SLOW_PATTERN_REF), validate(usersCall, REF)]);
    assert.equal(neighbour.status, 'fulfilled', 'the call that shared the stopped batch is validated again');
    assert.equal(neighbour.value.valid, true);
    assert.equal(overrun.status, 'rejected');
    assert.ok(overrun.reason instanceof SvcError);
    assert.equal(overrun.reason.code, ErrorCode.LIMIT_EXCEEDED);
    assert.match(overrun.reason.message, /took longer than 1 s and was stopped \(validationMaxMs\); it was not validated/);
    assert.notEqual(pool.workers[0]?.threadId, threadBefore, 'the lane has a new thread');
    // The new thread answers, and the contract's short calls still validate.
    assert.equal((await validate(usersCall, REF)).valid, true);
    assert.equal((await validate(postPattern('ab'), SLOW_PATTERN_REF)).valid, false);

    // Calls that arrive together for a contract no worker holds share its compile: after the
    // overrun each compiles on its own, so the short call is answered.
    const fresh: VersionRef = { ...SLOW_PATTERN_REF, hash: 'pattern-fresh' };
    documents[fresh.hash] = documents[SLOW_PATTERN_REF.hash]!;
    const [again, short] = await Promise.allSettled([validate(overlong, fresh), validate(postPattern('ab'), fresh)]);
    assert.equal(again.status, 'rejected');
    assert.equal((again.reason as SvcError).code, ErrorCode.LIMIT_EXCEEDED);
    assert.equal(short.status, 'fulfilled', 'the short call of the same compile is answered');
    assert.equal(short.value.valid, false);
  });
});

test('a batch that needs more than maxHeapBytes stops its thread: its calls go again one by one, and the one that needs it fails with LIMIT_EXCEEDED', async () => {
  const NESTED_REF: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const levels = 24;
  const documents: Record<string, string> = { [NESTED_REF.hash]: JSON.stringify((await loadSchema(nestedAnyOfSchema(levels))).document) };
  const usersJson = await usersDocumentJson();
  await withPool({ threads: 1, maxHeapBytes: 128 * 1024 * 1024, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash] ?? usersJson }) }, async (pool) => {
    const validate = (message: Buffer, contract: VersionRef) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
    const usersCall = encode(getUserInteraction('users', '1', VALID_USER));
    // Both contracts compiled, so the next two calls share one batch; a shallow body is cheap.
    assert.equal((await validate(encode(postNested(NESTED_REF.schemaId, 2)), NESTED_REF)).valid, false);
    assert.equal((await validate(usersCall, REF)).valid, true);
    const threadBefore = pool.workers[0]!.threadId;
    const [refused, neighbour] = await Promise.allSettled([validate(encode(postNested(NESTED_REF.schemaId, levels)), NESTED_REF), validate(usersCall, REF)]);
    assert.equal(neighbour.status, 'fulfilled', 'the call that shared the stopped batch is validated again');
    assert.equal(neighbour.value.valid, true);
    assert.equal(refused.status, 'rejected');
    assert.ok(refused.reason instanceof SvcError);
    assert.equal(refused.reason.code, ErrorCode.LIMIT_EXCEEDED);
    assert.match(refused.reason.message, /needed more than 128 MiB of memory and its worker was stopped \(validationWorkerMaxHeapBytes\); it was not validated/);
    assert.notEqual(pool.workers[0]?.threadId, threadBefore, 'the lane has a new thread');
    assert.equal((await validate(usersCall, REF)).valid, true);
  });
});

test('a batch pipelined behind one that runs out of heap never started: its call is validated, not refused', async () => {
  const NESTED_REF: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const levels = 24;
  const documents: Record<string, string> = { [NESTED_REF.hash]: JSON.stringify((await loadSchema(nestedAnyOfSchema(levels))).document) };
  const usersJson = await usersDocumentJson();
  // One call a batch, so the second call leaves as a batch of its own, queued in the worker behind the first.
  const options = { threads: 1, maxBatchItems: 1, lingerItems: 1, maxHeapBytes: 128 * 1024 * 1024 };
  await withPool({ ...options, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash] ?? usersJson }) }, async (pool) => {
    const validate = (message: Buffer, contract: VersionRef) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
    const usersCall = encode(getUserInteraction('users', '1', VALID_USER));
    assert.equal((await validate(encode(postNested(NESTED_REF.schemaId, 2)), NESTED_REF)).valid, false);
    assert.equal((await validate(usersCall, REF)).valid, true);
    const [refused, behind] = await Promise.allSettled([validate(encode(postNested(NESTED_REF.schemaId, levels)), NESTED_REF), validate(usersCall, REF)]);
    assert.equal(refused.status, 'rejected');
    assert.equal((refused.reason as SvcError).code, ErrorCode.LIMIT_EXCEEDED);
    assert.equal(behind.status, 'fulfilled', `the call behind it was answered ${behind.status === 'rejected' ? String(behind.reason) : ''}`);
    assert.equal(behind.value.valid, true);
    // Its contract was not marked slow: the next calls of it still share batches.
    assert.equal((await validate(usersCall, REF)).valid, true);
  });
});

test('the batch blamed for a worker\'s death is the one it was running, even when the answer of the one before has not been read yet', async () => {
  const NESTED_REF: VersionRef = { schemaId: 'nested', version: '1.0.0', hash: 'nested' };
  const levels = 24;
  const documents: Record<string, string> = {
    [NESTED_REF.hash]: JSON.stringify((await loadSchema(nestedAnyOfSchema(levels))).document),
    [SLOW_PATTERN_REF.hash]: await slowPatternDocumentJson(),
  };
  const options = { threads: 1, maxBatchItems: 1, lingerItems: 1, maxHeapBytes: 128 * 1024 * 1024 };
  await withPool({ ...options, loadContract: async (ref) => ({ ref, documentJson: documents[ref.hash]! }) }, async (pool) => {
    const validate = (message: Buffer, contract: VersionRef) => pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
    assert.equal((await validate(encode(postNested(NESTED_REF.schemaId, 2)), NESTED_REF)).valid, false);
    await validate(postPattern('ab'), SLOW_PATTERN_REF);
    // About 50 ms in the worker, then the batch behind it runs out of heap. This thread is held
    // meanwhile, so the first answer and the worker's death wait to be read in the same turn.
    const answered = validate(longPatternCall(3, 10_000), SLOW_PATTERN_REF);
    const killing = validate(encode(postNested(NESTED_REF.schemaId, levels)), NESTED_REF);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    const heldUntil = performance.now() + 4_000;
    while (performance.now() < heldUntil) { /* hold this thread while the worker runs both */ }
    const [first, second] = await Promise.allSettled([answered, killing]);
    assert.equal(first.status, 'fulfilled', `the call before the one that ran out of heap was answered ${first.status === 'rejected' ? String(first.reason) : ''}`);
    assert.equal(second.status, 'rejected');
    assert.equal((second.reason as SvcError).code, ErrorCode.LIMIT_EXCEEDED);
  });
});

test('a call that overruns inside RE2 fails at the budget: its lane does not wait for the native call to return', async () => {
  const documentJson = await slowPatternDocumentJson();
  await withPool({ threads: 2, maxRunMs: 1_000, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    // 4.5-18 s of RE2; a thread asked to stop inside it ends only when it returns.
    const started = performance.now();
    await assert.rejects(
      pool.validate({ operation: ValidationOperation.INTERACTION, message: longPatternCall(7, 900_000), contract: SLOW_PATTERN_REF }),
      (error: SvcError) => error.code === ErrorCode.LIMIT_EXCEEDED,
    );
    const elapsedMs = performance.now() - started;
    assert.ok(elapsedMs < 3_000, `the overrunning call failed after ${Math.round(elapsedMs)} ms`);
    // Both lanes take work again.
    const answers = await Promise.all([1, 2, 3, 4].map(() => pool.validate({ operation: ValidationOperation.INTERACTION, message: postPattern('ab'), contract: SLOW_PATTERN_REF })));
    assert.equal(answers.length, 4);
  });
});

test('calls whose callers have gone are dropped from the queue, and a slow batch that holds only such calls is stopped', async () => {
  const documentJson = await slowPatternDocumentJson();
  await withPool({ threads: 1, loadContract: async (ref) => ({ ref, documentJson }) }, async (pool) => {
    const validate = (message: Buffer, isCancelled?: () => boolean) =>
      pool.validate({ operation: ValidationOperation.INTERACTION, message, contract: SLOW_PATTERN_REF, isCancelled });
    await validate(postPattern('ab'));
    // Queued behind a 1.5 s call, a caller that has gone: its own 1.5 s are never spent.
    const blocker = validate(longPatternCall(1, 300_000)).then(() => performance.now());
    await new Promise((resolve) => setImmediate(resolve));
    const gone = validate(longPatternCall(2, 300_000), () => true).then(
      () => assert.fail('a call whose caller had gone was validated'),
      (error: unknown) => ({ error, at: performance.now() }),
    );
    const [blockerDone, dropped] = await Promise.all([blocker, gone]);
    assert.equal((dropped.error as SvcError).code, ErrorCode.CANCELLED);
    assert.ok(dropped.at - blockerDone < 500, `the dropped call was answered ${Math.round(dropped.at - blockerDone)} ms after the call before it`);

    // A 4.5 s call whose caller goes after 100 ms: stopped once it has run slowCallMs (100 ms) and
    // the lanes are next checked (four times a second), not when RE2 returns.
    let cancelled = false;
    setTimeout(() => { cancelled = true; }, 100);
    const started = performance.now();
    await assert.rejects(validate(longPatternCall(3, 900_000), () => cancelled), (error: SvcError) => error.code === ErrorCode.CANCELLED);
    const stoppedMs = performance.now() - started;
    assert.ok(stoppedMs < 2_500, `the abandoned call was stopped after ${Math.round(stoppedMs)} ms`);
    // The lane's new thread answers the next call at once.
    const nextStarted = performance.now();
    assert.equal((await validate(postPattern('ab'))).valid, false);
    assert.ok(performance.now() - nextStarted < 1_500, 'the next call waited for the abandoned one');
  });
});
