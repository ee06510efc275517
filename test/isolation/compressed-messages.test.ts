/**
 * Compressed request messages (`grpc-encoding: gzip` or `deflate`): grpc-js inflates each whole
 * before any handler sees it, so a few KB on the wire could hold up to maxGrpcMessageBytes each, as
 * many at once as a client liked (100 calls of a 40 KB gzip message took the server from 176 MB to
 * 4.4 GB). Their decompressed bytes now count against the partial-message limits while they inflate
 * (src/main/decompressed-messages.ts). The limits here are small, so the test inflates a few MiB.
 */
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import zlib from 'node:zlib';
import { test } from 'node:test';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { createTestClient, startTestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

const MiB = 1024 * 1024;
const LIMITS = { maxBytes: 24 * MiB, maxBytesPerConnection: 12 * MiB, largeMessageBytes: MiB, largeMessageShare: 0.75 };
/** Calls of the hostile client, all at once on one connection, each one gzip message inflating to BOMB_BYTES. */
const BOMB_CALLS = 48;
const BOMB_BYTES = 8 * MiB;
/** What a neighbour's validation may take while the bombs inflate (about 3 ms alone on the project's 2-core machine). */
const NEIGHBOUR_MAX_MS = 1_000;

/** One gRPC message compressed with gzip (flag 1 in its prefix): BOMB_BYTES of zeros in about 8 KB. */
function gzipMessage(): Buffer {
  const compressed = zlib.gzipSync(Buffer.alloc(BOMB_BYTES), { level: 9 });
  const prefix = Buffer.alloc(5);
  prefix[0] = 1;
  prefix.writeUInt32BE(compressed.length, 1);
  return Buffer.concat([prefix, compressed]);
}

/** Sends `message` as one ValidateInteraction call with `grpc-encoding: gzip`; resolves with its grpc-status and grpc-message. */
function compressedCall(session: http2.ClientHttp2Session, message: Buffer): Promise<{ code: number; details: string }> {
  const stream = session.request({
    ':method': 'POST', ':path': '/svc.ContractValidator/ValidateInteraction', 'content-type': 'application/grpc', te: 'trailers', 'grpc-encoding': 'gzip',
  });
  return new Promise((resolve, reject) => {
    let outcome: { code: number; details: string } | undefined;
    const note = (headers: http2.IncomingHttpHeaders) => {
      if (headers['grpc-status'] !== undefined) outcome = { code: Number(headers['grpc-status']), details: decodeURIComponent(String(headers['grpc-message'] ?? '')) };
    };
    stream.on('response', note);
    stream.on('trailers', note);
    stream.on('error', reject);
    stream.on('close', () => (outcome ? resolve(outcome) : reject(new Error(`the call ended without a status (RST_STREAM ${stream.rstCode})`))));
    stream.resume();
    stream.end(message);
  });
}

test('compressed messages count by their decompressed bytes while they inflate: a flood of small gzip bombs is refused, memory stays bounded, neighbours go on', async () => {
  const server = await startTestServer({ partialMessageLimits: LIMITS });
  const session = http2.connect(`http://127.0.0.1:${server.server.port}`);
  session.on('error', () => undefined);
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    const interaction = getUserInteraction('users', '42', VALID_USER);
    await server.client.call('ValidateInteraction', interaction);

    const bufferBytesBefore = process.memoryUsage().arrayBuffers;
    let bufferBytesPeak = bufferBytesBefore;
    const sampler = setInterval(() => { bufferBytesPeak = Math.max(bufferBytesPeak, process.memoryUsage().arrayBuffers); }, 2);
    const message = gzipMessage();
    const bombs = Promise.all(Array.from({ length: BOMB_CALLS }, () => compressedCall(session, message)));
    let bombsDone = false;
    void bombs.finally(() => { bombsDone = true; });
    const neighbourMs: number[] = [];
    do {
      const started = performance.now();
      assert.equal((await server.client.call('ValidateInteraction', interaction)).valid, true);
      neighbourMs.push(performance.now() - started);
    } while (!bombsDone);
    const outcomes = await bombs;
    clearInterval(sampler);

    const refused = outcomes.filter((outcome) => outcome.code === 8); // RESOURCE_EXHAUSTED
    assert.ok(refused.length >= BOMB_CALLS / 2, `most bombs are refused: ${JSON.stringify(outcomes.slice(0, 3))}`);
    assert.match(refused[0]!.details, /^request refused by the server: a compressed request message decompressing to more than .* would take .* past .*\((receiveMaxPartialBytesPerConnection|receiveMaxPartialBytes)\)/);
    // The rest got through, whole, to the handler (zeros are no InteractionRequest).
    assert.ok(outcomes.every((outcome) => outcome.code === 8 || outcome.code === 3), JSON.stringify(outcomes.filter((outcome) => outcome.code !== 8)));
    // Unbounded, the 48 bombs inflated 384 MiB at once (and copied it again when whole).
    const grownMiB = (bufferBytesPeak - bufferBytesBefore) / MiB;
    assert.ok(grownMiB < 100, `buffers grew by ${grownMiB.toFixed(0)} MiB while the bombs inflated`);
    const slowest = Math.max(...neighbourMs);
    assert.ok(slowest < NEIGHBOUR_MAX_MS, `a neighbour's validation took ${slowest.toFixed(0)} ms during the bombs`);

    const scrape = await scrapeMetrics(server.server.metricsPort!);
    const counted = scrape.value('svc_partial_message_resets_total', { reason: 'connection_bytes' }) + scrape.value('svc_partial_message_resets_total', { reason: 'server_bytes' });
    assert.equal(counted, refused.length);
    assert.equal(scrape.value('svc_partial_message_bytes'), 0, 'nothing stays held once the calls ended');
  } finally {
    session.close();
    await server.close();
  }
});

test('compressed calls within the limits are answered as before, gzip and deflate alike', async () => {
  const server = await startTestServer({ partialMessageLimits: LIMITS });
  try {
    await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
    // A body past largeMessageBytes, inflated in many chunks: valid, since the users schema allows any extra property.
    const user = { ...VALID_USER, note: 'x'.repeat(2 * MiB) };
    for (const algorithm of [1, 2]) { // grpc-js: 1 deflate, 2 gzip
      const client = createTestClient(server.address, undefined, { 'grpc.default_compression_algorithm': algorithm });
      try {
        const result = await client.call('ValidateInteraction', getUserInteraction('users', '42', user));
        assert.equal(result.valid, true, JSON.stringify(result.errors));
      } finally {
        client.close();
      }
    }
    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_partial_message_bytes'), 0);
  } finally {
    await server.close();
  }
});
