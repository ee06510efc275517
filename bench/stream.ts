/**
 * stream: interactions per second through ValidateInteractionStream, against unary calls to the
 * same server and against a no-op stream on the same proto, same client, same run.
 * Figures are medians of alternating rounds. Goals: ≥ 4× unary, ≥ 0.9× the no-op stream.
 */
import type * as grpc from '@grpc/grpc-js';
import { ensureCorpora } from './corpora';
import { machineNote, measureAsyncRate, median, ratioRow, type BenchSuite } from './harness';
import { PETSTORE } from './interactions';
import { startPair, UNARY_CONCURRENCY } from './e2e';
import { callUnary, interactionRequest, type BenchServer } from './servers';

/** Requests written and not yet answered, per stream. */
const STREAM_WINDOW = 1_024;
const ROUNDS = 5;
const MEASURE_MS = 2_500;
const WARMUP_MS = 500;
const MAX_MESSAGES = 2_000_000;
const GOALS = Object.freeze({ overUnary: 4, overNoopStream: 0.9 });

export const streamSuite: BenchSuite = {
  name: 'stream',
  description: 'interactions/s through ValidateInteractionStream vs unary and vs a no-op stream',
  async run(progress) {
    ensureCorpora(progress);
    const servers = await startPair(progress);
    try {
      const [svc, noop] = servers;
      const request = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const rounds: Record<BenchServer['mode'], number[]> = { svc: [], noop: [] };
      const unaryRounds: number[] = [];
      const unaryCall = () => callUnary(svc.client, 'ValidateInteraction', request);
      for (let round = 1; round <= ROUNDS; round++) {
        for (const server of [noop, svc]) {
          progress(`round ${round}/${ROUNDS}: ${server.mode} stream, ${MEASURE_MS / 1000} s`);
          await streamRate(server, () => request, WARMUP_MS);
          rounds[server.mode].push(await streamRate(server, () => request, MEASURE_MS));
        }
        progress(`round ${round}/${ROUNDS}: unary calls to the same server, for the ratio`);
        await measureAsyncRate(unaryCall, UNARY_CONCURRENCY, WARMUP_MS);
        unaryRounds.push(await measureAsyncRate(unaryCall, UNARY_CONCURRENCY, MEASURE_MS));
      }
      const rates = { svc: median(rounds.svc), noop: median(rounds.noop) };
      const unaryRate = median(unaryRounds);
      return {
        suite: 'stream',
        rows: [
          ratioRow('stream vs unary (same server)', rates.svc, 'interactions/s', { name: `unary, ${UNARY_CONCURRENCY} in flight`, value: unaryRate }, GOALS.overUnary),
          ratioRow('stream vs no-op stream', rates.svc, 'interactions/s', { name: 'no-op grpc-js stream', value: rates.noop }, GOALS.overNoopStream),
        ],
        notes: [
          machineNote(),
          `one stream, ${STREAM_WINDOW} requests in flight; interaction as in e2e; medians of ${ROUNDS} alternating rounds `
            + `(svc ${rounds.svc.map(Math.round).join(', ')}; no-op ${rounds.noop.map(Math.round).join(', ')}; unary ${unaryRounds.map(Math.round).join(', ')})`,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
};

/**
 * Results per second over one stream that keeps STREAM_WINDOW requests unanswered, for `durationMs`
 * or `maxMessages` requests; `requestAt(i)` is the i-th request written. Every result must be valid.
 */
export function streamRate(server: BenchServer, requestAt: (i: number) => object, durationMs: number, maxMessages = MAX_MESSAGES): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = server.client.ValidateInteractionStream() as grpc.ClientDuplexStream<object, { valid: boolean }>;
    const started = performance.now();
    const deadline = started + durationMs;
    let sent = 0;
    let received = 0;
    let ended = false;
    const fill = () => {
      while (!ended && sent - received < STREAM_WINDOW) {
        if (performance.now() >= deadline || sent >= maxMessages) {
          ended = true;
          call.end();
          return;
        }
        call.write(requestAt(sent));
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
