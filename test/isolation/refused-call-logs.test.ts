/**
 * A client that hammers the server with a wrong API key cannot flood the log through the per-call
 * lines either: "call failed" lines of refused calls (UNAUTHENTICATED, PERMISSION_DENIED) are written
 * at most refusedCallLogLinesPerMinute, the next one after the minute carries how many were left out,
 * and other failed calls are still logged, up to failedCallLogLinesPerMinute for each status (any client
 * can fail calls at will: a rapid-reset flood wrote a line per stream). No part of a key reaches the log.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { apiKeyMetadata } from '../helpers/api-keys';
import { startTestServer } from '../helpers/server';

setFlagsFromString('--expose-gc');

const RIGHT_KEY = 'right-key-Qw8Er4Ty6Ui2';
const WRONG_KEY = 'wrong-key-Zx3Cv5Bn7Mm1';
const REFUSED_CALLS = 300;
const IN_FLIGHT = 20;

test('refused calls write at most refusedCallLogLinesPerMinute "call failed" lines, the next carries suppressed; other failures are all logged', async (t) => {
  const logs = captureLogs('info');
  const server = await startTestServer({ apiKeyAuth: true, logger: logs.logger, env: { SVC_API_KEYS: RIGHT_KEY } });
  try {
    const refusedOnce = () => assert.rejects(server.client.call('ListSchemas', {}, { metadata: apiKeyMetadata(WRONG_KEY), deadlineMs: 10_000 }),
      (error: grpc.ServiceError) => error.code === grpc.status.UNAUTHENTICATED);
    // IN_FLIGHT workers share REFUSED_CALLS calls: bounded in count, each call bounded by its deadline.
    let started = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (started < REFUSED_CALLS) {
        started += 1;
        await refusedOnce();
      }
    }));
    const refusalLines = () => logs.lines().filter((line) => line.msg === 'call failed' && line.code === 'UNAUTHENTICATED');
    const duringFlood = refusalLines();
    assert.ok(duringFlood.length >= 1, 'the first refusals are logged');
    assert.ok(duringFlood.length <= LIMITS.refusedCallLogLinesPerMinute,
      `${duringFlood.length} lines for ${REFUSED_CALLS} refusals (refusedCallLogLinesPerMinute ${LIMITS.refusedCallLogLinesPerMinute})`);

    // Other failures are not held back by the exhausted refusal budget: every one has its line.
    const notFoundCalls = LIMITS.refusedCallLogLinesPerMinute + 10;
    for (let i = 0; i < notFoundCalls; i++) {
      await assert.rejects(server.client.call('ListEndpoints', { schema_id: `nobody-${i}` }, { metadata: apiKeyMetadata(RIGHT_KEY), deadlineMs: 10_000 }),
        (error: grpc.ServiceError) => error.code === grpc.status.NOT_FOUND);
    }
    const notFoundLines = logs.lines().filter((line) => line.msg === 'call failed' && line.code === 'NOT_FOUND');
    assert.equal(notFoundLines.length, notFoundCalls);
    assert.equal(refusalLines().length, duringFlood.length, 'no refusal line written meanwhile');

    // A minute later (the clock moved on, not waited for), the next refusal's line says how many were left out.
    const now = performance.now.bind(performance);
    t.mock.method(performance, 'now', () => now() + 61_000);
    await refusedOnce();
    const lines = refusalLines();
    assert.equal(lines.length, duringFlood.length + 1);
    const next = lines.at(-1)!;
    assert.equal(next.suppressed, REFUSED_CALLS - duringFlood.length, JSON.stringify(next));
    assert.equal(lines.filter((line) => line.suppressed !== undefined).length, 1, 'only the line after the quiet spell carries suppressed');

    const text = logs.text();
    for (const key of [RIGHT_KEY, WRONG_KEY]) {
      for (const part of [key, key.slice(-12)]) assert.ok(!text.includes(part), `"${part}" appears in the log`);
    }
  } finally {
    await server.close();
  }
});

test('other failed calls write at most failedCallLogLinesPerMinute lines for each status; a flood of one status leaves another\'s lines', async (t) => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  try {
    const failedCalls = LIMITS.failedCallLogLinesPerMinute + 40;
    let started = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (started < failedCalls) {
        started += 1;
        await assert.rejects(server.client.call('ListEndpoints', { schema_id: `nobody-${started}` }, { deadlineMs: 10_000 }),
          (error: grpc.ServiceError) => error.code === grpc.status.NOT_FOUND);
      }
    }));
    const linesOf = (code: string) => logs.lines().filter((line) => line.msg === 'call failed' && line.code === code);
    assert.equal(linesOf('NOT_FOUND').length, LIMITS.failedCallLogLinesPerMinute, `${failedCalls} NOT_FOUND calls`);

    // Another status has a budget of its own.
    await assert.rejects(server.client.call('GetSchema', { schema_id: '' }, { deadlineMs: 10_000 }),
      (error: grpc.ServiceError) => error.code === grpc.status.INVALID_ARGUMENT);
    assert.equal(linesOf('INVALID_ARGUMENT').length, 1);

    // A minute later the next NOT_FOUND line says how many were left out.
    const now = performance.now.bind(performance);
    t.mock.method(performance, 'now', () => now() + 61_000);
    await assert.rejects(server.client.call('ListEndpoints', { schema_id: 'nobody-after' }, { deadlineMs: 10_000 }));
    assert.equal(linesOf('NOT_FOUND').at(-1)!.suppressed, 40);
  } finally {
    await server.close();
  }
});

test('a failed call\'s line left out keeps only what it says, not the call\'s request message, until the minute ends', async () => {
  const gc = runInNewContext('gc') as () => void;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  const client = new grpc.Client(server.address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': -1 });
  const call = (bytes: Buffer) => new Promise<grpc.status | undefined>((resolve) => {
    client.makeUnaryRequest('/svc.ContractValidator/ValidateInteraction', (x: Buffer) => x, (x: Buffer) => x, bytes, { deadline: Date.now() + 20_000 },
      (error) => resolve(error?.code));
  });
  try {
    // Not protobuf (a varint that never ends): INVALID_ARGUMENT, a line each until the minute's budget is spent.
    const small = Buffer.alloc(11, 0xff);
    for (let i = 0; i < LIMITS.failedCallLogLinesPerMinute; i++) assert.equal(await call(small), grpc.status.INVALID_ARGUMENT);
    await settle();
    const before = process.memoryUsage().arrayBuffers;
    assert.equal(await call(Buffer.alloc(32 * 1024 * 1024, 0xff)), grpc.status.INVALID_ARGUMENT);
    await settle();
    const held = process.memoryUsage().arrayBuffers - before;
    assert.ok(held < 8 * 1024 * 1024, `${Math.round(held / 1024 / 1024)} MiB still held after the call whose line was left out`);
    assert.equal(logs.lines().filter((line) => line.msg === 'call failed' && line.code === 'INVALID_ARGUMENT').length, LIMITS.failedCallLogLinesPerMinute);
  } finally {
    client.close();
    await server.close();
  }
});
