/**
 * Issue 12: connections that never complete the HTTP/2 preface (silent, one byte, part of it) are
 * closed; malformed protobuf is the caller's mistake
 * (INVALID_ARGUMENT) on every operation; header maps over their limit fail the call at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { CLIENT_MAGIC, EMPTY_SETTINGS_FRAME, closedAfter, connectAndWrite } from '../helpers/raw-connections';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, rawClient, rawUnary, registerSchema } from '../helpers/validation';
import { contractValidatorDefinition } from '@svc/client/protocol';

const PREFACE_TIMEOUT_MS = 300;

let server: TestServer;
before(async () => {
  server = await startTestServer({ connectionPrefaceTimeoutMs: PREFACE_TIMEOUT_MS });
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});
after(() => server.close());

test('a connection that sends nothing is closed after connectionPrefaceTimeoutMs; one that talks is not', async () => {
  const silent = net.connect(server.server.port, '127.0.0.1');
  const opened = performance.now();
  const closedAfter = await new Promise<number>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error('the silent connection stayed open')), PREFACE_TIMEOUT_MS * 10);
    silent.once('close', () => {
      clearTimeout(guard);
      resolve(performance.now() - opened);
    });
    silent.on('error', () => undefined);
  });
  assert.ok(closedAfter >= PREFACE_TIMEOUT_MS * 0.8, `closed after ${Math.round(closedAfter)} ms`);
  // A real client on the same server is served well past the timeout.
  await new Promise((resolve) => setTimeout(resolve, PREFACE_TIMEOUT_MS * 2));
  const answer = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
  assert.equal(answer.valid, true);
});

test('connections that send one byte, part of the preface or the magic without SETTINGS are closed like silent ones', async () => {
  const partial = {
    'one byte': Buffer.from('P'),
    'the first line of the magic': Buffer.from('PRI * HTTP/2.0\r\n'),
    'the whole magic, no SETTINGS': CLIENT_MAGIC,
    'the magic and half a SETTINGS frame header': Buffer.concat([CLIENT_MAGIC, EMPTY_SETTINGS_FRAME.subarray(0, 4)]),
  };
  const connections = await Promise.all(Object.entries(partial).map(async ([label, bytes]) => ({
    label, ...await connectAndWrite(server.server.port, bytes),
  })));
  const closed = connections.map(({ label, socket, opened }) => closedAfter(socket, opened, PREFACE_TIMEOUT_MS * 10, label));
  // A real client on the same server is served while they wait, and after they are gone.
  const during = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
  assert.equal(during.valid, true);
  const times = await Promise.all(closed);
  times.forEach((ms, i) => assert.ok(ms >= PREFACE_TIMEOUT_MS * 0.8, `${connections[i]!.label}: closed after ${Math.round(ms)} ms`));
  const afterwards = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER));
  assert.equal(afterwards.valid, true);
});

test('a connection that completes the preface (magic and SETTINGS) and then waits stays open past the timeout', async () => {
  const { socket } = await connectAndWrite(server.server.port, Buffer.concat([CLIENT_MAGIC, EMPTY_SETTINGS_FRAME]));
  try {
    await new Promise((resolve) => setTimeout(resolve, PREFACE_TIMEOUT_MS * 3));
    assert.equal(socket.destroyed, false, 'a connection that completed the preface is not closed by the preface timeout');
  } finally {
    socket.destroy();
  }
});

test('malformed protobuf answers INVALID_ARGUMENT on every operation', async () => {
  const client = rawClient(server.address);
  try {
    const malformed = {
      // Field 1, length-delimited, whose length varint never ends.
      'an unterminated length': Buffer.from([0x0a, 0xff]),
      // Field 1 says 5 bytes, 2 follow: the protobuf library alone would read the string "ab".
      'a truncated string': Buffer.from([0x0a, 0x05, 0x61, 0x62]),
    };
    for (const [label, bytes] of Object.entries(malformed)) {
      for (const [name, method] of Object.entries(contractValidatorDefinition())) {
        if (method.requestStream) continue; // the stream reports per message, covered by the validation tests
        await assert.rejects(rawUnary(client, name, bytes), (error: grpc.ServiceError) => {
          assert.equal(error.code, grpc.status.INVALID_ARGUMENT, `${name}, ${label}: ${error.details}`);
          assert.match(error.details, /not a valid (protobuf|svc\.\w+) message/);
          return true;
        }, `${name}, ${label}`);
      }
    }
    const { environments } = await server.client.call('ListEnvironments', {});
    assert.ok(!environments.some((environment: { name: string }) => environment.name === 'ab'), 'nothing was created from a truncated message');
  } finally {
    client.close();
  }
});

test('a request with more header entries than validationMaxHeaderEntries fails at once, naming the limit', async () => {
  const headers = Object.fromEntries(Array.from({ length: LIMITS.validationMaxHeaderEntries + 1 }, (_, i) => [`x-h${i}`, 'v']));
  const interaction = getUserInteraction('users', '42', VALID_USER);
  await assert.rejects(
    server.client.call('ValidateInteraction', { ...interaction, request: { ...interaction.request, headers } }),
    (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
      assert.match(error.details, /more than 1000 header entries \(validationMaxHeaderEntries\)/);
      return true;
    },
  );
  const atLimit = Object.fromEntries(Object.entries(headers).slice(0, LIMITS.validationMaxHeaderEntries));
  const answer = await server.client.call('ValidateInteraction', { ...interaction, request: { ...interaction.request, headers: atLimit } });
  assert.equal(answer.valid, true, answer.errors.join('\n'));
});
