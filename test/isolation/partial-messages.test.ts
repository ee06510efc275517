/**
 * Request messages that arrive in part and stall: grpc-js holds a message in memory until its last
 * byte, before any handler (and any handler's limit) sees it. The server follows those bytes
 * (src/main/partial-messages.ts): past its limits, or after too long, the stream is reset and the
 * client sees RESOURCE_EXHAUSTED, while other callers' calls go on. The limits here are small, so
 * the test sends a few MiB.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, rawClient, rawUnary, registerSchema } from '../helpers/validation';

const MiB = 1024 * 1024;
const LIMITS = { maxBytes: 8 * MiB, maxBytesPerConnection: 5 * MiB, largeMessageBytes: 256 * 1024, largeMessageShare: 0.75, maxReceiveMs: 1_500, firstMessageStartMaxMs: 1_500 };
const VALIDATE_PATH = '/svc.ContractValidator/ValidateInteraction';

/** A raw HTTP/2 connection to the server, for streams that send what no gRPC client would. */
function connect(port: number): http2.ClientHttp2Session {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  return session;
}

/** The 5-byte gRPC prefix of an uncompressed message of `length` bytes. */
function prefix(length: number): Buffer {
  const bytes = Buffer.alloc(5);
  bytes.writeUInt32BE(length, 1);
  return bytes;
}

interface StalledStream {
  stream: http2.ClientHttp2Stream;
  /** Resolves with the RST_STREAM code when the server resets the stream (0 when it ended otherwise). */
  closed: Promise<number>;
}

/** Opens a ValidateInteraction stream that sends the prefix of a `declared`-byte message and `sent` bytes of it, then stalls. */
async function stall(session: http2.ClientHttp2Session, declared: number, sent: number): Promise<StalledStream> {
  const stream = session.request({ ':method': 'POST', ':path': VALIDATE_PATH, 'content-type': 'application/grpc', te: 'trailers' });
  stream.on('error', () => undefined);
  stream.on('data', () => undefined);
  const closed = new Promise<number>((resolve) => stream.once('close', () => resolve(stream.rstCode ?? 0)));
  await write(stream, Buffer.concat([prefix(declared), Buffer.alloc(sent, 0x20)]));
  return { stream, closed };
}

function write(stream: http2.ClientHttp2Stream, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => stream.write(bytes, () => resolve()));
}

async function gauge(server: TestServer): Promise<number> {
  const scrape = await scrapeMetrics(server.server.metricsPort!);
  return scrape.families.get('svc_partial_message_bytes')!.samples[0]!.value;
}

async function resets(server: TestServer): Promise<Record<string, number>> {
  const scrape = await scrapeMetrics(server.server.metricsPort!);
  return Object.fromEntries(scrape.families.get('svc_partial_message_resets_total')!.samples.map((sample) => [sample.labels.reason, sample.value]));
}

/** `svc_grpc_requests_total` of ValidateInteraction calls ended with `status`. */
async function validateCalls(server: TestServer, status: string): Promise<number> {
  const scrape = await scrapeMetrics(server.server.metricsPort!);
  const samples = scrape.families.get('svc_grpc_requests_total')?.samples ?? [];
  return samples.find((sample) => sample.labels.method === 'ValidateInteraction' && sample.labels.status === status)?.value ?? 0;
}

/** Polls until `check` holds, for at most `withinMs`. */
async function eventually(check: () => Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await check())) {
    if (performance.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('partly received messages', { timeout: 30_000 }, () => {
  let server: TestServer;
  let validateBytes: Buffer;

  before(async () => {
    server = await startTestServer({ partialMessageLimits: LIMITS });
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    const { requestSerialize } = contractValidatorDefinition().ValidateInteraction;
    validateBytes = requestSerialize(getUserInteraction('users', '42', VALID_USER));
  });
  after(() => server.close());

  const validateOnce = async () => {
    const client = rawClient(server.address);
    try {
      const answer = await rawUnary(client, 'ValidateInteraction', validateBytes);
      const { responseDeserialize } = contractValidatorDefinition().ValidateInteraction;
      return responseDeserialize(answer) as { valid: boolean };
    } finally {
      client.close();
    }
  };

  test('a message sent one byte at a time, and messages split anywhere on a stream, are followed to their ends', async () => {
    const session = connect(server.server.port);
    try {
      const stream = session.request({ ':method': 'POST', ':path': VALIDATE_PATH, 'content-type': 'application/grpc', te: 'trailers' });
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const trailers = new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once('trailers', resolve));
      const message = Buffer.concat([prefix(validateBytes.length), validateBytes]);
      for (const byte of message) await write(stream, Buffer.of(byte));
      stream.end();
      assert.equal((await trailers)['grpc-status'], '0');
      const { responseDeserialize } = contractValidatorDefinition().ValidateInteraction;
      assert.equal((responseDeserialize(Buffer.concat(chunks).subarray(5)) as { valid: boolean }).valid, true);
      assert.equal(await gauge(server), 0);
    } finally {
      session.destroy();
    }
  });

  test('a stream that sends its headers and then nothing is reset after firstMessageStartMaxMs; a message that starts in time is served', async () => {
    const before = await resets(server);
    const session = connect(server.server.port);
    try {
      // Before: such a stream was a call in flight for good, so its connection was never idle and never closed.
      const silent = session.request({ ':method': 'POST', ':path': VALIDATE_PATH, 'content-type': 'application/grpc', te: 'trailers' });
      silent.on('error', () => undefined);
      const silentClosed = new Promise<number>((resolve) => silent.once('close', () => resolve(silent.rstCode ?? 0)));
      const late = session.request({ ':method': 'POST', ':path': VALIDATE_PATH, 'content-type': 'application/grpc', te: 'trailers' });
      late.on('data', () => undefined);
      const lateTrailers = new Promise<http2.IncomingHttpHeaders>((resolve) => late.once('trailers', resolve));
      await new Promise((resolve) => setTimeout(resolve, LIMITS.firstMessageStartMaxMs / 2));
      late.end(Buffer.concat([prefix(validateBytes.length), validateBytes]));
      assert.equal((await lateTrailers)['grpc-status'], '0', 'a message that began within the limit is answered');
      const timer = performance.now();
      assert.equal(await silentClosed, http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      assert.ok(performance.now() - timer < 3 * LIMITS.firstMessageStartMaxMs, 'reset soon after the limit');
      assert.equal((await resets(server)).first_message_time, before.first_message_time! + 1);
    } finally {
      session.destroy();
    }
  });

  test('large messages that stall are held only up to their share; past it their streams are reset, and other calls go on', async () => {
    const before = await resets(server);
    // Two connections (each under its own limit), 2 MiB held by each stream: the share of large messages is 6 MiB.
    const sessions = [connect(server.server.port), connect(server.server.port)];
    try {
      const stalled: StalledStream[] = [];
      for (const session of sessions) {
        for (let i = 0; i < 2; i++) stalled.push(await stall(session, 4 * MiB, 2 * MiB));
      }
      await eventually(async () => (await resets(server)).server_bytes! > before.server_bytes!, 5_000, 'a reset for the server share');
      const held = await gauge(server);
      assert.ok(held <= LIMITS.maxBytes * LIMITS.largeMessageShare, `held ${held} bytes, over the share of large messages`);
      assert.ok(held >= 2 * MiB, `held ${held} bytes: the streams within the share are kept`);
      const reset = await Promise.race([Promise.any(stalled.map((s) => s.closed)), new Promise<number>((resolve) => setTimeout(() => resolve(-1), 2_000))]);
      assert.equal(reset, http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);

      // Meanwhile another caller's ordinary call is answered.
      assert.equal((await validateOnce()).valid, true);

      // The ones within the share are reset once they have taken longer than maxReceiveMs, and nothing is held after.
      const codes = await Promise.all(stalled.map((s) => s.closed));
      assert.ok(codes.every((code) => code === http2.constants.NGHTTP2_ENHANCE_YOUR_CALM), `reset codes ${codes}`);
      await eventually(async () => (await gauge(server)) === 0, 2_000, 'nothing held');
      assert.ok((await resets(server)).receive_time! > before.receive_time!);
    } finally {
      for (const session of sessions) session.destroy();
    }
  });

  test('one connection cannot hold more than its own limit, and a gRPC client is told RESOURCE_EXHAUSTED', async () => {
    const before = await resets(server);
    const [exhaustedBefore, cancelledBefore] = [await validateCalls(server, 'RESOURCE_EXHAUSTED'), await validateCalls(server, 'CANCELLED')];
    const session = connect(server.server.port);
    try {
      const first = await stall(session, 200 * 1024, 150 * 1024); // small: under largeMessageBytes
      const second = await stall(session, 8 * MiB, 5 * MiB); // would take the connection past 5 MiB
      assert.equal(await second.closed, http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
      assert.equal((await resets(server)).connection_bytes, before.connection_bytes! + 1);
      // The call is counted as what its client was told, not as one the client ended (CANCELLED).
      await eventually(async () => (await validateCalls(server, 'RESOURCE_EXHAUSTED')) === exhaustedBefore + 1, 2_000, 'the reset call counted RESOURCE_EXHAUSTED');
      assert.equal(await validateCalls(server, 'CANCELLED'), cancelledBefore);
      assert.equal(first.stream.closed, false, 'the first stream, within the limit, is kept');
    } finally {
      session.destroy();
    }
    // A real client sending one message over the connection limit.
    const client = rawClient(server.address);
    try {
      await assert.rejects(rawUnary(client, 'ValidateInteraction', Buffer.alloc(6 * MiB)), (error: grpc.ServiceError) => error.code === grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      client.close();
    }
    await eventually(async () => (await gauge(server)) === 0, 2_000, 'nothing held');
  });
});
