/**
 * A ValidateInteractionStream whose client never reads its results holds a bounded amount of them.
 * The server stopped reading only once 512 written results were queued, whatever their size: 200
 * interactions with 10 MB results held 1.6 GB, 3 streams of 400 held 5.8 GB, and a neighbour's calls
 * stalled up to 3.6 s. Reading pauses now also while validationStreamMaxUnsentBytes of results wait
 * for the client, so the server validates no more than the interactions already in flight plus what
 * that budget holds, and then waits; other callers are answered meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import http2 from 'node:http2';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import { DEEP_SCHEMA, deepBody, deepInteraction } from '../helpers/deep-bodies';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  USERS_SCHEMA_TEXT, VALID_USER, assertNeighbourNotHeld, getUserInteraction, registerSchema,
} from '../helpers/validation';

/** 3 levels of 100-character keys over 200 wrong items: a 1.2 KB body, a result of about 26 KB (pointers cut to 200 characters). */
const BODY = deepBody(3, 100, 200);
/** Smallest result of BODY seen; the server holds no more than the unsent budget's worth of them. */
const MIN_RESULT_BYTES = 20_000;
/**
 * Interactions sent: enough that a server pausing only on the count of queued results (512 written
 * plus 512 in flight) validates 1,024 of them.
 */
const SENT = 1_300;
/**
 * Results the server may produce before it stops: the interactions read before it paused (at most
 * validationStreamMaxInFlight), the unsent budget's worth, and a few in the HTTP/2 windows.
 */
const MAX_PRODUCED = LIMITS.validationStreamMaxInFlight + Math.ceil(LIMITS.validationStreamMaxUnsentBytes / MIN_RESULT_BYTES) + 64;
/** The server counts as stopped once no validation has been done for this long. */
const QUIET_MS = 750;

let server: TestServer;
before(async () => {
  server = await startTestServer({ workerThreads: 2 });
  await registerSchema(server.client, 'deep', JSON.stringify(DEEP_SCHEMA));
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});
after(() => server.close());

/**
 * A client that never reads: a raw HTTP/2 stream, paused. (A grpc-js client reads every message off
 * the connection into its own memory whether the application reads or not.)
 */
function openUnreadStream(): { write(request: object): void; close(): void } {
  const session = http2.connect(`http://${server.address}`);
  session.on('error', () => undefined);
  const stream = session.request({ ':method': 'POST', ':path': '/svc.ContractValidator/ValidateInteractionStream', 'content-type': 'application/grpc', te: 'trailers' });
  stream.on('error', () => undefined);
  stream.pause();
  const serialize = contractValidatorDefinition().ValidateInteractionStream.requestSerialize;
  return {
    write(request) {
      const message = serialize(request as never);
      const frame = Buffer.alloc(5 + message.length); // gRPC framing: not compressed, length, message
      frame.writeUInt32BE(message.length, 1);
      message.copy(frame, 5);
      stream.write(frame);
    },
    close() {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      session.close();
    },
  };
}

async function validationsOf(schemaId: string): Promise<number> {
  return (await scrapeMetrics(server.server.metricsPort!)).value('svc_validations_total', { schema_id: schemaId });
}

test('a stream whose results are never read stops being read, and a neighbour is answered meanwhile', { timeout: 120_000 }, async (t) => {
  const sample = await server.client.call('ValidateInteraction', deepInteraction(BODY));
  const resultBytes = sample.errors.reduce((sum: number, error: string) => sum + Buffer.byteLength(error), 0);
  assert.ok(resultBytes >= MIN_RESULT_BYTES, `a result of ${resultBytes} bytes`);
  const before = await validationsOf('deep');

  let produced = 0;
  const unread = openUnreadStream();
  const unreadStream = async () => {
    for (let i = 0; i < SENT; i++) unread.write(deepInteraction(BODY, String(i)));
    let last = -1;
    for (let quietSince = performance.now(); performance.now() - quietSince < QUIET_MS;) {
      await sleep(100);
      produced = (await validationsOf('deep')) - before;
      if (produced !== last) quietSince = performance.now();
      last = produced;
    }
    return { valid: true };
  };
  try {
    await assertNeighbourNotHeld(unreadStream, (i) => server.client.call('ValidateInteraction', getUserInteraction('users', String(i + 1), VALID_USER)));
  } finally {
    unread.close();
  }
  t.diagnostic(`${produced} of ${SENT} interactions validated while the client read nothing (bound ${MAX_PRODUCED})`);
  assert.ok(produced < SENT, 'the server validated every interaction: it never stopped reading');
  assert.ok(produced <= MAX_PRODUCED, `${produced} interactions validated for a client that read nothing`);
});
