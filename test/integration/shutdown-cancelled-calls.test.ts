/**
 * A call the server cancels at shutdown (a second stop signal, `hurry()`, or the end of
 * shutdownGraceMs) is logged as cancelled by the server, not as ended by the client: the line an
 * operator reads after a deploy says who stopped the call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { minimalDocument } from '../helpers/documents';
import { captureLogs } from '../helpers/log-capture';
import { startTestServer, type TestServer } from '../helpers/server';

/** Opens a ValidateInteractionStream and leaves it open; resolves when the client sees it end. */
function openStream(server: TestServer): Promise<void> {
  const stream = (server.client.raw as unknown as { ValidateInteractionStream(): grpc.ClientDuplexStream<object, object> }).ValidateInteractionStream();
  return new Promise<void>((resolve) => {
    stream.on('error', () => resolve());
    stream.on('end', () => resolve());
  });
}

function assertCancelledAtShutdown(logs: ReturnType<typeof captureLogs>): void {
  const line = logs.lines().find((entry) => entry.caller === 'rpc' && entry.operation === 'ValidateInteractionStream');
  assert.ok(line, logs.text());
  assert.equal(line.code, 'CANCELLED');
  assert.equal(line.details, 'call cancelled by the server at shutdown');
}

test('a call cancelled by a second stop (hurry) is logged as cancelled by the server at shutdown', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger });
  const ended = openStream(server);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closed = server.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  server.server.hurry();
  await closed;
  await ended;
  assertCancelledAtShutdown(logs);
});

test('a call still in flight when shutdownGraceMs ends is logged as cancelled by the server at shutdown', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ logger: logs.logger, shutdownGraceMs: 200 });
  const ended = openStream(server);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await server.close();
  await ended;
  assertCancelledAtShutdown(logs);
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
