/**
 * Answers a client does not take (a raw HTTP/2 client advertising a zero window, that never reads)
 * were held for as long as its connection lived: only GetSchema counted its answers. 40 ListEndpoints
 * calls of an 8 MB answer on one such connection held 300 MB, still there minutes later. Now the
 * streams holding the most are reset past the limits (src/main/unsent-answers.ts), and the rest once
 * their client has taken nothing for answerMaxStallMs; other callers are answered meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { guardUnsentAnswers } from '../../src/main/unsent-answers';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer, type TestServer } from '../helpers/server';

const KiB = 1024;
const LIMITS = { maxBytes: 4096 * KiB, maxBytesPerConnection: 1024 * KiB, maxStallMs: 1_500, sweepMs: 100 };
/** A document of about 300 KiB: its GetSchema answer is about as long. */
const DOCUMENT = JSON.stringify({ openapi: '3.0.3', info: { title: 'wide', version: '1.0.0', description: 'x'.repeat(300 * KiB) }, paths: {} });

let server: TestServer;
before(async () => {
  server = await startTestServer({ unsentAnswerLimits: LIMITS });
  const registered = await server.client.call('RegisterSchema', { schema_id: 'wide', schema_content: DOCUMENT });
  assert.equal(registered.success, true, registered.message);
});
after(() => server.close());

function getSchemaFrame(schemaId: string): Buffer {
  const message = Buffer.concat([Buffer.from([0x0a, schemaId.length]), Buffer.from(schemaId)]);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

async function resets(): Promise<Record<string, number>> {
  const scrape = await scrapeMetrics(server.server.metricsPort!);
  return Object.fromEntries(scrape.families.get('svc_unsent_answer_resets_total')!.samples.map((sample) => [sample.labels.reason, sample.value]));
}

test('answers a zero-window client never takes are reset: past the connection limit at once, the rest after answerMaxStallMs', { timeout: 20_000 }, async () => {
  const session = http2.connect(`http://127.0.0.1:${server.server.port}`, { settings: { initialWindowSize: 0 } });
  session.on('error', () => undefined);
  try {
    const calls = 6; // about 1.8 MiB unsent on one connection, over its 1 MiB
    const closed = Array.from({ length: calls }, () => {
      const stream = session.request({ ':method': 'POST', ':path': '/svc.ContractValidator/GetSchema', 'content-type': 'application/grpc', te: 'trailers' });
      stream.on('error', () => undefined);
      stream.pause();
      stream.end(getSchemaFrame('wide'));
      const opened = performance.now();
      return new Promise<{ code: number; afterMs: number }>((resolve) => stream.once('close', () => resolve({ code: stream.rstCode ?? 0, afterMs: performance.now() - opened })));
    });
    // Another caller is answered meanwhile.
    const answer = await server.client.call('GetSchema', { schema_id: 'wide' });
    assert.equal(answer.found, true);
    const ends = await Promise.all(closed);
    assert.ok(ends.every((end) => end.code === http2.constants.NGHTTP2_ENHANCE_YOUR_CALM), JSON.stringify(ends));
    const early = ends.filter((end) => end.afterMs < LIMITS.maxStallMs);
    assert.ok(early.length >= 1 && early.length < calls, `reset at once past the connection limit: ${JSON.stringify(ends)}`);
    const counted = await resets();
    assert.equal(counted.connection_bytes, early.length);
    assert.equal(counted.stall_time, calls - early.length);
  } finally {
    session.destroy();
  }
});

test('a client that keeps reading, slower than its answer is written, is not reset for a stall', { timeout: 20_000 }, async () => {
  // Node does not tell what a stream has sent: its unsent bytes never fell between sweeps while the
  // server kept writing, and this client, taking bytes all along, was reset as stalled.
  const plain = http2.createServer();
  const sessions: http2.ServerHttp2Session[] = [];
  plain.on('session', (session) => sessions.push(session));
  const found: string[] = [];
  const guard = guardUnsentAnswers(plain, { ...LIMITS, maxBytes: 1e9, maxBytesPerConnection: 1e9 }, (reset) => found.push(reset.reason));
  plain.on('stream', (stream) => {
    stream.on('error', () => undefined);
    stream.respond({ ':status': 200 });
    const chunk = Buffer.alloc(16 * KiB, 1);
    const writer = setInterval(() => stream.write(chunk), 20); // about 800 KB/s
    stream.on('close', () => clearInterval(writer));
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const client = http2.connect(`http://127.0.0.1:${(plain.address() as { port: number }).port}`);
  try {
    const request = client.request({ ':path': '/' });
    request.on('error', () => undefined);
    let taken = 0;
    request.on('data', (chunk: Buffer) => {
      taken += chunk.length; // then a pause: the client reads steadily, slower than the server writes
      request.pause();
      setTimeout(() => request.resume(), 40);
    });
    await new Promise((resolve) => setTimeout(resolve, LIMITS.maxStallMs * 2.5));
    assert.deepEqual(found, [], `reset although the client took ${taken} bytes`);
    assert.equal(request.closed, false);
    assert.ok(taken > 0);
  } finally {
    guard.close();
    client.destroy();
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => plain.close(resolve));
  }
});
