/**
 * A call still in flight when a graceful stop's grace is over (shutdownGraceMs, or at once on a
 * second stop signal, `hurry()`) is answered UNAVAILABLE, which tells its client to try again on
 * another replica; a cut connection read CANCELLED, which clients do not retry. Its log line says
 * the server ended it, not the client.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { SHUTDOWN_DETAILS } from '../../src/main/call-observer';
import { minimalDocument } from '../helpers/documents';
import { captureLogs } from '../helpers/log-capture';
import { waitUntil } from '../helpers/polling';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawClient, rawUnary } from '../helpers/validation';

/** Opens a ValidateInteractionStream and leaves it open; resolves with the status its client sees. */
function openStream(server: TestServer): Promise<grpc.StatusObject> {
  const stream = (server.client.raw as unknown as { ValidateInteractionStream(): grpc.ClientDuplexStream<object, object> }).ValidateInteractionStream();
  stream.on('data', () => undefined);
  stream.on('error', () => undefined);
  return new Promise((resolve) => stream.on('status', resolve));
}

/**
 * Waits (5 s at most) until the server holds `calls` calls in flight, and asserts it does: a fixed
 * pause was too short for a stream to arrive on a loaded machine.
 */
async function untilCallsInFlight(server: TestServer, calls: number): Promise<void> {
  await waitUntil(() => server.server.callsInFlight === calls, 5_000);
  assert.equal(server.server.callsInFlight, calls);
}

function assertEndedAtShutdown(logs: ReturnType<typeof captureLogs>, seen: grpc.StatusObject): void {
  assert.equal(seen.code, grpc.status.UNAVAILABLE, `the client saw ${grpc.status[seen.code]}: ${seen.details}`);
  assert.equal(seen.details, SHUTDOWN_DETAILS);
  const line = logs.lines().find((entry) => entry.caller === 'rpc' && entry.operation === 'ValidateInteractionStream');
  assert.ok(line, logs.text());
  assert.equal(line.code, 'UNAVAILABLE');
  assert.equal(line.details, SHUTDOWN_DETAILS);
  assert.ok(logs.lines().some((entry) => entry.caller === 'server' && entry.calls === 1 && /answered UNAVAILABLE/.test(String(entry.msg))), logs.text());
}

test('a call still in flight at a second stop (hurry) is answered UNAVAILABLE', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  const ended = openStream(server);
  await untilCallsInFlight(server, 1);
  const closed = server.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  server.server.hurry();
  await closed;
  assertEndedAtShutdown(logs, await ended);
});

test('a call still in flight when shutdownGraceMs ends is answered UNAVAILABLE, and the stop does not wait for the flush time', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger, shutdownGraceMs: 200 });
  const ended = openStream(server);
  await untilCallsInFlight(server, 1);
  const started = Date.now();
  await server.close();
  // tryShutdown ends once the status is sent: well before grace + shutdownStatusFlushMs (1.2 s).
  assert.ok(Date.now() - started < 1_000, `stopped after ${Date.now() - started} ms`);
  assertEndedAtShutdown(logs, await ended);
});

test('a client that goes away is still logged as ending the call itself', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  try {
    // A large document keeps the registration busy while the client cancels.
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) paths[`/r${i}/{id}`] = { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } };
    const raw = server.client.raw as unknown as { RegisterSchema(request: object, callback: () => void): grpc.ClientUnaryCall };
    const call = raw.RegisterSchema({ schema_id: 'big', schema_content: minimalDocument('1.0.0', paths) }, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    call.cancel();
    const line = () => logs.lines().find((entry) => entry.caller === 'rpc' && entry.operation === 'RegisterSchema');
    const deadline = Date.now() + 5_000;
    while (line() === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(line(), logs.text());
    assert.equal(line()!.code, 'CANCELLED');
    assert.equal(line()!.details, 'call ended by the client');
  } finally {
    await server.close();
  }
});

test('every call is forgotten when it ends, however it ends: a stop answers only the calls still running', async () => {
  const server = await startTestServer();
  try {
    const raw = server.client.raw as unknown as Record<string, (request: object, options: object, callback: (error: grpc.ServiceError | null) => void) => grpc.ClientUnaryCall>;
    const outcome = (operation: string, request: object, options: object = {}) => new Promise<number>((resolve) => {
      raw[operation]!(request, options, (error) => resolve(error?.code ?? grpc.status.OK));
    });
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) paths[`/r${i}/{id}`] = { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } };
    const large = minimalDocument('1.0.0', paths);
    const codes = await Promise.all([
      outcome('ListSchemas', {}),
      outcome('ListConsumers', { schema_id: 'nothing' }),
      outcome('RegisterSchema', { schema_id: 'late', schema_content: large }, { deadline: Date.now() + 5 }),
      rawUnary(rawClient(server.address), 'ValidateInteraction', Buffer.from([0xff, 0xff])).then(() => grpc.status.OK, (error: grpc.ServiceError) => error.code),
    ]);
    assert.deepEqual(codes, [grpc.status.OK, grpc.status.NOT_FOUND, grpc.status.DEADLINE_EXCEEDED, grpc.status.INVALID_ARGUMENT]);
    const cancelled = raw.RegisterSchema!({ schema_id: 'gone', schema_content: large }, {}, () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancelled.cancel();
    const stream = (server.client.raw as unknown as { ValidateInteractionStream(): grpc.ClientDuplexStream<object, object> }).ValidateInteractionStream();
    stream.on('data', () => undefined);
    await new Promise((resolve) => stream.on('status', resolve).end());
    const dropped = (server.client.raw as unknown as { ValidateInteractionStream(): grpc.ClientDuplexStream<object, object> }).ValidateInteractionStream();
    dropped.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    dropped.cancel();
    await untilCallsInFlight(server, 0);
  } finally {
    await server.close();
  }
});
