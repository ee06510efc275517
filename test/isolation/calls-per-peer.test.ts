/**
 * One client address holds at most maxCallsPerPeer calls in flight, all its connections together.
 * Before, maxConnectionsPerPeer (256) connections of 256 streams that sent only their headers held
 * 65,536 calls: the server grew from 172 to 789 MB and other callers' validations stalled 2.4–3.2 s
 * when firstMessageStartMaxMs reset them all at once, 1.3 s when their client closed them. A
 * connection that keeps opening calls past the limit is closed (maxRefusedCallsPerConnection). The hostile
 * client here connects from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to loopback), so that the
 * neighbour, from 127.0.0.1, is another address.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import net from 'node:net';
import { test } from 'node:test';
import { ConfigError, resolveServerConfig } from '../../src/main/config';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer } from '../helpers/server';
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

test('calls past maxCallsPerPeer from one address are reset at once, on every connection of it; other addresses are served; a call that ends frees its slot; a connection that keeps trying is closed', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ maxCallsPerPeer: LIMIT, logger: logs.logger });
  const sessions = [0, 1].map(() => connectFrom(HOSTILE_ADDRESS, server.server.port));
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    const interaction = getUserInteraction('users', '42', VALID_USER);
    // 40 calls on each of two connections: 80 from one address, 48 past the limit.
    const held = sessions.flatMap((session) => Array.from({ length: 40 }, () => headersOnly(session)));
    const outcomes = await Promise.all(held.map((call) => settledWithin(call.closed, 2_000)));
    const reset = outcomes.filter((outcome) => outcome === http2.constants.NGHTTP2_ENHANCE_YOUR_CALM).length;
    assert.equal(reset, held.length - LIMIT, `outcomes: ${JSON.stringify(outcomes)}`);
    assert.equal(outcomes.filter((outcome) => outcome === 'open').length, LIMIT, 'the calls within the limit stay in flight');

    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      assert.equal((await server.client.call('ValidateInteraction', interaction)).valid, true);
      const took = performance.now() - started;
      assert.ok(took < NEIGHBOUR_MAX_MS, `a neighbour's validation took ${took.toFixed(0)} ms`);
    }

    // One call ends (its client resets it): the next from that address is taken.
    const ending = held[outcomes.indexOf('open')]!;
    ending.stream.close(http2.constants.NGHTTP2_CANCEL);
    await ending.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = headersOnly(sessions[0]!);
    assert.equal(await settledWithin(next.closed, 500), 'open', 'a freed slot is taken again');
    assert.equal(await settledWithin(headersOnly(sessions[1]!).closed, 2_000), http2.constants.NGHTTP2_ENHANCE_YOUR_CALM, 'and the one after it is reset');

    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_peer_calls_refused_total'), reset + 1);
    assert.equal(scrape.value('svc_grpc_requests_total', { method: 'ValidateInteraction', status: 'RESOURCE_EXHAUSTED' }), reset + 1);
    assert.ok(logs.lines().some((line) => line.level === 'warn' && /call refused \(stream reset\): 127\.0\.0\.2 already has 32 calls in flight \(maxCallsPerPeer\)/.test(String(line.msg))), logs.text());
    assert.ok(logs.lines().some((line) => line.msg === 'call failed' && /stream reset by the server: its client address already has 32 calls in flight \(maxCallsPerPeer\)/.test(String(line.details))), logs.text());

    // A stream the server resets frees its slot at once: a connection that keeps opening them past the
    // limit is closed, as Node closes one opening streams past the advertised limit.
    const persistent = connectFrom(HOSTILE_ADDRESS, server.server.port);
    sessions.push(persistent);
    const goaway = new Promise<number>((resolve) => persistent.once('goaway', (code) => resolve(code)));
    const sessionClosed = new Promise<void>((resolve) => persistent.once('close', () => resolve()));
    for (let i = 0; i < LIMITS.maxRefusedCallsPerConnection + 20; i++) headersOnly(persistent);
    assert.equal(await settledWithin(goaway, 2_000), http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
    assert.notEqual(await settledWithin(sessionClosed, 2_000), 'open', 'the connection is closed');
    assert.equal(await settledWithin(held[outcomes.indexOf('open', outcomes.indexOf('open') + 1)]!.closed, 200), 'open', 'calls of the address on its other connections go on');
  } finally {
    for (const session of sessions) session.destroy();
    await server.close();
  }
});

test('maxCallsPerPeer comes from SVC_MAX_CALLS_PER_PEER (0 turns it off) and must be a count', () => {
  assert.equal(resolveServerConfig({}, {}).maxCallsPerPeer, 2_048);
  assert.equal(resolveServerConfig({}, { SVC_MAX_CALLS_PER_PEER: '0' }).maxCallsPerPeer, 0);
  assert.throws(() => resolveServerConfig({}, { SVC_MAX_CALLS_PER_PEER: 'many' }), ConfigError);
});
