/**
 * One client address holds at most maxCallsPerPeer calls in flight, all its connections together.
 * Before, maxConnectionsPerPeer (256) connections of 256 streams that sent only their headers held
 * 65,536 calls: the server grew from 172 to 789 MB and other callers' validations stalled 2.4–3.2 s
 * when firstMessageStartMaxMs reset them all at once, 1.3 s when their client closed them. At the
 * limit, the address's connections are told to open no new call (SETTINGS_MAX_CONCURRENT_STREAMS 0)
 * until it is down to three quarters of it: Node's HTTP/2 layer refuses what they open meanwhile
 * before any JavaScript runs (each call reset by the service cost about 130 µs, and 256 connections
 * opening 256 calls at once held other callers 3.5–3.7 s), and gRPC clients hold their calls. A
 * client that never acknowledges those SETTINGS is closed before Node would end its session with an
 * error. The hostile client here connects from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to
 * loopback), so that the neighbour, from 127.0.0.1, is another address.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { test } from 'node:test';
import { ConfigError, resolveServerConfig } from '../../src/main/config';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import * as grpc from '@grpc/grpc-js';
import { CLIENT_MAGIC, EMPTY_SETTINGS_FRAME, H2, callHeadersFrame, collectFrames, h2Frame, maxConcurrentStreamsSettings } from '../helpers/raw-connections';
import { waitUntil } from '../helpers/polling';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

const LIMIT = 32;
const HOSTILE_ADDRESS = '127.0.0.2';
/** What a neighbour's validation may take meanwhile (about 3 ms alone on the project's 2-core machine). */
const NEIGHBOUR_MAX_MS = 1_000;

interface HeldCall {
  /** Resolves with the RST_STREAM code when the stream closes. */
  closed: Promise<number>;
  stream: http2.ClientHttp2Stream;
}

/** A call that sends its headers and nothing more: in flight until its client or the server ends it. */
function headersOnly(session: http2.ClientHttp2Session): HeldCall {
  const stream = session.request({ ':method': 'POST', ':path': '/svc.ContractValidator/ValidateInteraction', 'content-type': 'application/grpc', te: 'trailers' }, { endStream: false });
  stream.on('error', () => undefined);
  stream.resume();
  return { stream, closed: new Promise((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0))) };
}

function connectFrom(localAddress: string, port: number): http2.ClientHttp2Session {
  const session = http2.connect(`http://127.0.0.1:${port}`, { createConnection: () => net.connect({ host: '127.0.0.1', port, localAddress }) });
  session.on('error', () => undefined);
  return session;
}

function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'open'> {
  return Promise.race([promise, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);
}

/** Asserts that `condition` comes to hold within `withinMs`. */
async function until(condition: () => boolean, withinMs: number, what: string): Promise<void> {
  assert.ok(await waitUntil(condition, withinMs), `${what}: not within ${withinMs} ms`);
}

async function neighbourValidations(server: TestServer, count: number): Promise<void> {
  const interaction = getUserInteraction('users', '42', VALID_USER);
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    assert.equal((await server.client.call('ValidateInteraction', interaction)).valid, true);
    const took = performance.now() - started;
    assert.ok(took < NEIGHBOUR_MAX_MS, `a neighbour's validation took ${took.toFixed(0)} ms`);
  }
}

test('an address at maxCallsPerPeer is told to open no new call on any of its connections: its calls past the limit are refused before they reach the service, other addresses are served, and it may open calls again at three quarters of the limit', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ maxCallsPerPeer: LIMIT, logger: logs.logger });
  const sessions = [0, 1].map(() => connectFrom(HOSTILE_ADDRESS, server.server.port));
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    // 40 calls on each of two connections, sent before the server can say anything: 80 from one address, 48 past the limit.
    const held = sessions.flatMap((session) => Array.from({ length: 40 }, () => headersOnly(session)));
    const outcomes = await Promise.all(held.map((call) => settledWithin(call.closed, 2_000)));
    assert.equal(outcomes.filter((outcome) => outcome === 'open').length, LIMIT, 'the calls within the limit stay in flight');
    // Refused by Node's HTTP/2 layer (REFUSED_STREAM: the service never saw them), not reset by the service.
    assert.equal(outcomes.filter((outcome) => outcome === http2.constants.NGHTTP2_REFUSED_STREAM).length, held.length - LIMIT, `outcomes: ${JSON.stringify(outcomes)}`);
    await until(() => sessions.every((session) => session.remoteSettings.maxConcurrentStreams === 0), 2_000, 'both connections told to open no new call');

    await neighbourValidations(server, 20);

    // One call ends: the address still opens none (a call then waits in its client).
    const open = held.filter((_, index) => outcomes[index] === 'open');
    assert.equal(server.server.callsInFlight, LIMIT);
    open[0]!.stream.close(http2.constants.NGHTTP2_CANCEL);
    await until(() => server.server.callsInFlight === LIMIT - 1, 2_000, 'the ended call gone');
    const waiting = headersOnly(sessions[0]!);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(server.server.callsInFlight, LIMIT - 1, 'the next call waits in its client');
    // Down to three quarters of the limit: the address may open calls again, and the waiting one goes.
    const reopenAt = Math.floor(LIMIT * 0.75);
    for (const call of open.slice(1, LIMIT - reopenAt)) call.stream.close(http2.constants.NGHTTP2_CANCEL);
    await until(() => sessions.every((session) => session.remoteSettings.maxConcurrentStreams === LIMITS.maxConcurrentStreamsPerConnection), 2_000, 'both connections told they may open calls again');
    await until(() => server.server.callsInFlight === reopenAt + 1, 2_000, 'the waiting call sent and taken');
    assert.equal(await settledWithin(waiting.closed, 300), 'open', 'the waiting call stays in flight');

    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_peer_call_limit_reached_total'), 1);
    assert.equal(scrape.value('svc_peer_calls_refused_total'), 0, 'no call past the limit reached the service');
    assert.ok(logs.lines().some((line) => line.level === 'warn' && /calls held back: 127\.0\.0\.2 has 32 calls in flight \(maxCallsPerPeer\); its connections may open no new call until it is down to three quarters of that/.test(String(line.msg))), logs.text());
  } finally {
    for (const session of sessions) session.destroy();
    await server.close();
  }
});

test("a client that ignores the server's SETTINGS and never acknowledges them: its streams past the limit are refused before they reach the service, and its connection is closed once it leaves four of them unacknowledged", async () => {
  const server = await startTestServer({ maxCallsPerPeer: LIMIT });
  const socket = net.connect({ host: '127.0.0.1', port: server.server.port, localAddress: HOSTILE_ADDRESS });
  socket.on('error', () => undefined);
  const frames = collectFrames(socket);
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    if (socket.connecting) await new Promise((resolve) => socket.once('connect', resolve));
    let nextStreamId = 1;
    const openCalls = (count: number): number[] => {
      const ids = Array.from({ length: count }, () => (nextStreamId += 2) - 2);
      socket.write(Buffer.concat(ids.map(callHeadersFrame)));
      return ids;
    };
    const cancel = (ids: number[]) => socket.write(Buffer.concat(ids.map((id) => h2Frame(H2.RST_STREAM, 0, id, Buffer.from([0, 0, 0, H2.CANCEL])))));
    const refusedIds = () => frames.filter((frame) => frame.type === H2.RST_STREAM).map((frame) => frame.streamId);
    socket.write(Buffer.concat([CLIENT_MAGIC, EMPTY_SETTINGS_FRAME])); // and no acknowledgement, ever

    // 100 calls at once: the 68 past the limit are refused (REFUSED_STREAM) by the HTTP/2 layer.
    const first = openCalls(100);
    await until(() => refusedIds().length >= 100 - LIMIT, 5_000, 'the calls past the limit refused');
    assert.deepEqual(refusedIds(), first.slice(LIMIT));
    assert.ok(frames.filter((frame) => frame.type === H2.RST_STREAM).every((frame) => frame.payload.readUInt32BE(0) === H2.REFUSED_STREAM));
    assert.deepEqual(maxConcurrentStreamsSettings(frames), [LIMITS.maxConcurrentStreamsPerConnection, 0], 'told to open no new call');
    await neighbourValidations(server, 10);

    // Ending 8 calls lets the address open calls again, opening 8 more holds it again: one SETTINGS
    // frame each, none acknowledged. With four of them (the second reopening), the next would be a fifth,
    // and the connection is closed instead.
    const settingsSent = (count: number, what: string) => until(() => maxConcurrentStreamsSettings(frames).length === 1 + count, 2_000, what);
    cancel(first.slice(0, LIMIT / 4));
    await settingsSent(2, 'reopened');
    openCalls(LIMIT / 4);
    await settingsSent(3, 'held again');
    cancel(first.slice(LIMIT / 4, LIMIT / 2));
    await settingsSent(4, 'reopened again');
    const perConnection = LIMITS.maxConcurrentStreamsPerConnection;
    assert.deepEqual(maxConcurrentStreamsSettings(frames), [perConnection, 0, perConnection, 0, perConnection]);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    openCalls(LIMIT / 4);
    assert.notEqual(await settledWithin(closed, 2_000), 'open', 'the connection is closed');
    const goaway = frames.find((frame) => frame.type === H2.GOAWAY);
    assert.equal(goaway?.payload.readUInt32BE(4), H2.ENHANCE_YOUR_CALM);

    await neighbourValidations(server, 10);
    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_peer_calls_refused_total'), 0, 'no call past the limit reached the service');
  } finally {
    socket.destroy();
    await server.close();
  }
});

test("a gRPC client at its address's limit holds its next calls until the address may open calls again; each is then answered, or refused before the service saw it (UNAVAILABLE)", async () => {
  const limit = 8;
  const server = await startTestServer({ maxCallsPerPeer: limit });
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    const interaction = getUserInteraction('users', '42', VALID_USER);
    // 12 validation streams, each open until its client ends it.
    const streams = Array.from({ length: 12 }, () => {
      const call = server.client.raw.ValidateInteractionStream();
      const stream = { call, answered: false, status: undefined as grpc.StatusObject | undefined };
      call.on('status', (status: grpc.StatusObject) => { stream.status = status; });
      call.on('data', () => { stream.answered = true; });
      call.on('error', () => undefined);
      call.write(interaction);
      return stream;
    });
    await until(() => streams.filter((stream) => stream.answered).length === limit, 5_000, 'the calls within the limit answered');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const held = streams.filter((stream) => !stream.answered);
    assert.equal(held.length, streams.length - limit);
    assert.ok(held.every((stream) => stream.status === undefined), 'the others wait in the client, neither answered nor failed');

    // The answered calls end: at three quarters of the limit the held ones go.
    for (const stream of streams) if (stream.answered) stream.call.end();
    await until(() => held.every((stream) => stream.answered || stream.status !== undefined), 5_000, 'every held call answered or refused');
    for (const stream of held) if (stream.answered) stream.call.end();
    await until(() => streams.every((stream) => stream.status !== undefined), 5_000, 'every call ended');
    for (const { answered, status } of streams) {
      if (answered) assert.equal(status!.code, grpc.status.OK);
      else assert.deepEqual([status!.code, status!.details], [grpc.status.UNAVAILABLE, 'Stream refused by server']);
    }
    assert.ok(held.some((stream) => stream.answered), 'held calls were answered once the address could open calls again');
  } finally {
    await server.close();
  }
});

test('maxCallsPerPeer comes from SVC_MAX_CALLS_PER_PEER (0 turns it off) and must be a count', () => {
  assert.equal(resolveServerConfig({}, {}).maxCallsPerPeer, 2_048);
  assert.equal(resolveServerConfig({}, { SVC_MAX_CALLS_PER_PEER: '0' }).maxCallsPerPeer, 0);
  assert.throws(() => resolveServerConfig({}, { SVC_MAX_CALLS_PER_PEER: 'many' }), ConfigError);
});
