/**
 * Issue 12: no validation holds a worker without end. Keywords whose cost grows much faster than the
 * body ran until they ended, holding their worker: an enum of objects compares each item with every
 * entry (4,000 entries against 60,000 items, 840 KB, took 4.6 s here). A batch over validationMaxMs now
 * has its worker stopped and replaced; the call fails with RESOURCE_EXHAUSTED naming the limit, and
 * other schemas go on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import type { TestClient } from '../helpers/server';
import { VALID_USER, getUserInteraction, neighbourWhile, startHostileAndNeighbour, type HostileAndNeighbour } from '../helpers/validation';

/** The budget here (the default is 10 s): far under the hostile call's own time. */
const MAX_RUN_MS = 1_000;
/** Entries of the enum, and items of the hostile list (each matches one of the last ten entries). */
const ENUM_ENTRIES = 4_000;
const ITEMS = 60_000;
/** A neighbour call may wait this long meanwhile (it would wait for the whole call on a shared lane). */
const NEIGHBOUR_BOUND_MS = 600;

const CODE_LIST_SCHEMA = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'code list', version: '1.0.0' },
  paths: { '/lists': { post: {
    requestBody: { required: true, content: { 'application/json': { schema: {
      type: 'array', items: { enum: Array.from({ length: ENUM_ENTRIES }, (_, code) => ({ code })) },
    } } } },
    responses: { 204: { description: 'stored' } },
  } } },
});

let setup: HostileAndNeighbour;
let hostile: TestClient;
let neighbour: TestClient;
before(async () => {
  setup = await startHostileAndNeighbour({ workerThreads: 2, poolTuning: { maxRunMs: MAX_RUN_MS } }, { lists: CODE_LIST_SCHEMA });
  ({ hostile, neighbour } = setup);
});
after(() => setup.close());

function postList(items: number) {
  const list = Array.from({ length: items }, (_, i) => ({ code: ENUM_ENTRIES - 1 - (i % 10) }));
  return {
    schema_id: 'lists',
    request: { method: 'POST', path: '/lists', headers: { 'content-type': 'application/json' }, body: JSON.stringify(list) },
    response: { status_code: 204, headers: {}, body: '' },
  };
}

test('a call that runs past validationMaxMs is stopped with RESOURCE_EXHAUSTED, and other schemas go on meanwhile', async () => {
  const { answer, neighbourMs, hostileMs } = await neighbourWhile(
    () => hostile.call('ValidateInteraction', postList(ITEMS), { deadlineMs: 120_000 }).then(
      (answer) => assert.fail(`the call was answered instead of stopped: ${JSON.stringify(answer).slice(0, 300)}`),
      (error: grpc.ServiceError) => error,
    ),
    (i) => neighbour.call('ValidateInteraction', getUserInteraction('users', String(i + 2), VALID_USER)),
  );
  assert.equal(answer.code, grpc.status.RESOURCE_EXHAUSTED, answer.details);
  assert.match(answer.details, /^validating this call took longer than 1 s and was stopped \(validationMaxMs\); it was not validated/);
  // Stopped once in a batch of its own (it was a first call, so it travelled alone): about the budget,
  // a worker restart and the overrun check's period.
  assert.ok(hostileMs < 4 * MAX_RUN_MS, `the call was stopped only after ${Math.round(hostileMs)} ms`);
  const worst = neighbourMs.at(-1) ?? 0;
  assert.ok(worst < NEIGHBOUR_BOUND_MS, `a neighbour call took ${Math.round(worst)} ms beside the overrunning call`);

  // The worker was replaced: the same schema's ordinary calls are answered, with their verdict.
  const small = await hostile.call('ValidateInteraction', postList(50));
  assert.equal(small.valid, true);
  const unknown = postList(2);
  unknown.request.body = JSON.stringify([{ code: 1 }, { code: ENUM_ENTRIES }]);
  const refused = await hostile.call('ValidateInteraction', unknown);
  assert.equal(refused.valid, false);
  assert.match(refused.errors[0], /^request body \/1: must be one of /);
});
