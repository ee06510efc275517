/**
 * Issue 12: connections that never complete the HTTP/2 preface (silent, one byte, part of it) are
 * closed; malformed protobuf is the caller's mistake
 * (INVALID_ARGUMENT) on every operation, a field of the wrong wire type included; header maps over
 * their limit fail the call at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { CLIENT_MAGIC, EMPTY_SETTINGS_FRAME, closedAfter, connectAndWrite } from '../helpers/raw-connections';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, rawClient, rawUnary, registerSchema } from '../helpers/validation';
import { recordInteractions } from '../helpers/recording';
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

test('the metrics port closes a connection that sends nothing or half a request within connectionPrefaceTimeoutMs', async () => {
  const partial = { 'nothing': Buffer.alloc(0), 'half a request line': Buffer.from('GET /metr'), 'headers without their end': Buffer.from('GET /metrics HTTP/1.1\r\nHost: x\r\n') };
  const metricsPort = server.server.metricsPort!;
  const connections = await Promise.all(Object.entries(partial).map(async ([label, bytes]) => ({
    label, ...await connectAndWrite(metricsPort, bytes),
  })));
  const times = await Promise.all(connections.map(({ label, socket, opened }) => closedAfter(socket, opened, PREFACE_TIMEOUT_MS * 10, label)));
  times.forEach((ms, i) => assert.ok(ms >= PREFACE_TIMEOUT_MS * 0.8, `${connections[i]!.label}: closed after ${Math.round(ms)} ms`));
  // A scrape is still served.
  const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  assert.equal(scrape.status, 200);
  assert.match(await scrape.text(), /svc_/);
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

/** A request's first declared field sent with another wire type: a varint for a length-delimited field, else an empty length-delimited one. */
function wrongWireTypeField(method: object): Buffer | undefined {
  const { field } = ((method as { requestType: unknown }).requestType as { type: { field: Array<{ number: number; type: string }> } }).type;
  const first = field[0];
  if (!first) return undefined;
  const lengthDelimited = ['TYPE_STRING', 'TYPE_BYTES', 'TYPE_MESSAGE'].includes(first.type);
  return lengthDelimited ? Buffer.from([(first.number << 3) | 0, 0x01]) : Buffer.from([(first.number << 3) | 2, 0x00]);
}

test('a declared field of the wrong wire type answers INVALID_ARGUMENT on every operation, inside embedded messages too', async () => {
  const client = rawClient(server.address);
  try {
    let checked = 0;
    for (const [name, method] of Object.entries(contractValidatorDefinition())) {
      const bytes = method.requestStream ? undefined : wrongWireTypeField(method);
      if (!bytes) continue;
      await assert.rejects(rawUnary(client, name, bytes), (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.INVALID_ARGUMENT, `${name}: ${error.details}`);
        assert.match(error.details, /not a valid (protobuf|svc\.\w+) message/, name);
        return true;
      }, name);
      checked++;
    }
    assert.ok(checked > 10, `only ${checked} operations checked`);
    // RegisterConsumer with one used endpoint whose path (field 2 of EndpointUsage) is the varint 1.
    const endpoint = Buffer.from([0x0a, 0x03, 0x47, 0x45, 0x54, 0x10, 0x01]);
    const consumer = Buffer.concat([Buffer.from([0x0a, 0x01, 0x63, 0x1a, 0x05]), Buffer.from('users'), Buffer.from([0x32, endpoint.length]), endpoint]);
    await assert.rejects(rawUnary(client, 'RegisterConsumer', consumer), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, error.details);
      assert.match(error.details, /svc\.EndpointUsage\.path \(field 2\) arrived as a varint, not length-delimited/);
      return true;
    });
  } finally {
    client.close();
  }
});

test('a malformed PurgeRecordings request purges nothing (the protobuf library alone read it as "purge every recording")', async () => {
  const answer = await recordInteractions(server.client, [{
    schema_id: 'users', environment: 'prod', consumer_id: 'web',
    request: getUserInteraction('users', '42', VALID_USER).request,
    response: getUserInteraction('users', '42', VALID_USER).response,
    valid: true,
  }]);
  assert.equal(answer.accepted, 1, answer.message);
  const usage = server.server.context.usage;
  await usage.flush();
  const recorded = (await usage.list({ schemaId: 'users' })).length;
  assert.ok(recorded > 0, 'the interaction was recorded');
  const client = rawClient(server.address);
  try {
    // Field 1 (schema_id) as the varint 1.
    await assert.rejects(rawUnary(client, 'PurgeRecordings', Buffer.from([0x08, 0x01])), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, error.details);
      assert.match(error.details, /svc\.PurgeRecordingsRequest\.schema_id \(field 1\) arrived as a varint/);
      return true;
    });
  } finally {
    client.close();
  }
  assert.equal((await usage.list({ schemaId: 'users' })).length, recorded, 'the recordings are still there');
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

test('a request or response whose headers are over validationMaxHeaderBytes fails at once, naming the limit; one at the limit is validated', async () => {
  const interaction = getUserInteraction('users', '42', VALID_USER);
  const over = { 'x-large': 'v'.repeat(LIMITS.validationMaxHeaderBytes) };
  for (const side of ['request', 'response'] as const) {
    const started = performance.now();
    await assert.rejects(
      server.client.call('ValidateInteraction', { ...interaction, [side]: { ...interaction[side], headers: over } }),
      (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
        assert.match(error.details, new RegExp(`the ${side}'s headers are over 1 MiB \\(validationMaxHeaderBytes\\)`));
        return true;
      },
    );
    assert.ok(performance.now() - started < 5_000);
  }
  // Each entry costs a few bytes of framing besides its name and value.
  const within = { 'x-large': 'v'.repeat(LIMITS.validationMaxHeaderBytes - 64) };
  const answer = await server.client.call('ValidateInteraction', { ...interaction, request: { ...interaction.request, headers: within } });
  assert.equal(answer.valid, true, answer.errors.join('\n'));
});
