/**
 * stream: interactions per second through ValidateInteractionStream, against unary calls to the
 * same server and against a no-op stream on the same proto, same client, same run.
 * Goals: ≥ 4× unary, ≥ 0.7× the no-op stream.
 */
import type * as grpc from '@grpc/grpc-js';
import { ensureCorpora } from './corpora';
import { machineNote, measureAsyncRate, ratioRow, type BenchSuite } from './harness';
import { PETSTORE } from './interactions';
import { startPair, UNARY_CONCURRENCY } from './e2e';
import { callUnary, interactionRequest, type BenchServer } from './servers';

/** Requests written and not yet answered, per stream. */
const STREAM_WINDOW = 1_024;
const ROUNDS = 3;
const MEASURE_MS = 2_500;
const WARMUP_MS = 500;
const MAX_MESSAGES = 2_000_000;

export const streamSuite: BenchSuite = {
  name: 'stream',
  description: 'interactions/s through ValidateInteractionStream vs unary and vs a no-op stream',
  async run(progress) {
    ensureCorpora(progress);
    const servers = await startPair(progress);
    try {
      const [svc, noop] = servers;
      const request = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const rates = { svc: 0, noop: 0 };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of [noop, svc]) {
          progress(`round ${round}/${ROUNDS}: ${server.mode} stream, ${MEASURE_MS / 1000} s`);
          await streamRate(server, request, WARMUP_MS);
          rates[server.mode] = Math.max(rates[server.mode], await streamRate(server, request, MEASURE_MS));
        }
      }
      const unaryCall = () => callUnary(svc.client, 'ValidateInteraction', request);
      let unaryRate = 0;
      for (let round = 1; round <= ROUNDS - 1; round++) {
        progress(`round ${round}/${ROUNDS - 1}: unary calls to the same server, for the ratio`);
        await measureAsyncRate(unaryCall, UNARY_CONCURRENCY, WARMUP_MS);
        unaryRate = Math.max(unaryRate, await measureAsyncRate(unaryCall, UNARY_CONCURRENCY, MEASURE_MS));
      }
      return {
        suite: 'stream',
        rows: [
          ratioRow('stream vs unary (same server)', rates.svc, 'interactions/s', { name: `unary, ${UNARY_CONCURRENCY} in flight`, value: unaryRate }, 4),
          ratioRow('stream vs no-op stream', rates.svc, 'interactions/s', { name: 'no-op grpc-js stream', value: rates.noop }, 0.7),
        ],
        notes: [machineNote(), `one stream, ${STREAM_WINDOW} requests in flight; interaction as in e2e; best of ${ROUNDS} alternating rounds`],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/** Results per second over one stream that keeps STREAM_WINDOW requests unanswered, for `durationMs`. */
function streamRate(server: BenchServer, request: object, durationMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = server.client.ValidateInteractionStream() as grpc.ClientDuplexStream<object, { valid: boolean }>;
    const started = performance.now();
    const deadline = started + durationMs;
    let sent = 0;
    let received = 0;
    let ended = false;
    const fill = () => {
      while (!ended && sent - received < STREAM_WINDOW) {
        if (performance.now() >= deadline || sent >= MAX_MESSAGES) {
          ended = true;
          call.end();
          return;
        }
        call.write(request);
        sent++;
      }
    };
    call.on('data', (result) => {
      if (!result.valid) {
        call.cancel();
        reject(new Error('the bench interaction did not validate'));
        return;
      }
      received++;
      if (received % 64 === 0) fill();
    });
    call.on('error', reject);
    call.on('end', () => resolve((received * 1000) / (performance.now() - started)));
    fill();
  });
}
