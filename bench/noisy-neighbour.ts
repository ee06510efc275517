/**
 * noisy-neighbour: one tenant's validation latency while another tenant sends hostile but
 * plausible work, same server, same run. The victim validates petstore "get pet" under an
 * open-loop load (VICTIM_RATE calls/s, so queueing shows); its p99 is measured alone (quiet),
 * then during each kind of noise from a second tenant with NOISY_IN_FLIGHT calls always in flight
 * (from a worker thread, with messages encoded beforehand: the victim's event loop carries only the victim):
 * - slow compiles: a schema whose one operation takes about a second to compile (1,000 string
 *   properties with patterns, the most maxSchemaObjectProperties allows); each call names a new
 *   version of it, and every version is a new contract, so every call compiles. The versions are
 *   registered before the phase: this isolates the pool (registration intake is a separate matter);
 * - large bodies: interactions with a LARGE_BODY_BYTES JSON body (a list of records);
 * - many headers: interactions with MANY_HEADERS header entries (over the per-interaction limit:
 *   the server must refuse them, cheaply);
 * - streams: NOISY_STREAMS ValidateInteractionStream calls of small interactions, each on its own
 *   connection, written as fast as the server reads them;
 * - recording: NOISY_IN_FLIGHT RecordInteractions streams of small interactions (50 consumers,
 *   1,000 distinct interactions), each on its own connection, written as fast as the server reads them;
 * - recording large bodies: the same with responses of RECORDED_BODY_CHARS characters, near the
 *   recordingMaxBodyChars limit (each one is parsed, redacted, walked and written out again).
 * Goal: the victim's p99 ≤ 100 ms during each kind of noise.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_DEPLOY_ENVIRONMENT, contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../src/shared/limits';
import { ensureCorpora, corpusText } from './corpora';
import { ceilingRow, machineNote, measureLatencyAtRate, type BenchRow, type BenchSuite, type LatencyProfile, type Progress } from './harness';
import { PETSTORE } from './interactions';
import {
  callUnary, describeDiagnostics, interactionRequest, registerBenchSchema, startBenchServer, type BenchServer,
} from './servers';
import type { NoiseTally, NoiseTransport, NoiseWorkerData } from './noise-worker';

const VICTIM_RATE = 400;
const PHASE_MS = 5_000;
const NOISY_IN_FLIGHT = 4;
/** Streams of the stream noise, each on a connection of its own (the server keeps up to validationStreamMaxInFlight items of each). */
const NOISY_STREAMS = 16;
const SLOW_PROPERTIES = 1_000;
/** Versions registered for the compile phase: more than the phase can compile, so every call compiles. */
const SLOW_VERSIONS = 24;
const LARGE_BODY_BYTES = 8 * 1024 * 1024;
const MANY_HEADERS = 100_000;
/** Response bodies of the large recorded interactions: just under recordingMaxBodyChars (256 Ki, so 250 Ki). */
const RECORDED_BODY_CHARS = LIMITS.recordingMaxBodyChars - 6 * 1024;
const GOAL_P99_MS = 100;
/** A noisy call that takes longer than this is abandoned by the bench (the server may still be busy with it). */
const NOISY_DEADLINE_MS = 30_000;
const NOISE_LEAD_MS = 200;

interface NoiseKind {
  name: string;
  /** Encoded InteractionRequest messages, sent in turn. */
  messages: Uint8Array[];
  /** NOISY_IN_FLIGHT unary calls or RecordInteractions streams, or NOISY_STREAMS ValidateInteractionStream calls. */
  transport: NoiseTransport;
}

export const noisyNeighbourSuite: BenchSuite = {
  name: 'noisy-neighbour',
  description: `another schema's p99 at ${VICTIM_RATE} calls/s while one tenant sends slow compiles, large bodies or many headers (${NOISY_IN_FLIGHT} in flight), ${NOISY_STREAMS} streams or ${NOISY_IN_FLIGHT} recording streams`,
  async run(progress) {
    ensureCorpora(progress);
    progress('starting the svc server');
    const server = await startBenchServer('svc');
    try {
      await registerBenchSchema(server, 'petstore', corpusText(PETSTORE.corpusFile));
      const victimRequest = interactionRequest('petstore', PETSTORE.interactions[0]!);
      const victim = () => callUnary(server.client, 'ValidateInteraction', victimRequest);
      const kinds = await prepareNoise(server, progress);
      await measureLatencyAtRate(victim, VICTIM_RATE, 1_000); // warm-up
      const diagnosed: string[] = [];
      if (server.diagnosing) await server.diagnostics();
      progress(`quiet: the victim alone for ${PHASE_MS / 1000} s`);
      const quiet = await measureLatencyAtRate(victim, VICTIM_RATE, PHASE_MS);
      if (server.diagnosing) diagnosed.push(`quiet: ${describeDiagnostics(await server.diagnostics())}`);
      const rows: BenchRow[] = [{ name: `victim p99, quiet (${VICTIM_RATE} calls/s)`, value: quiet.p99Ms, unit: 'ms' }];
      const notes: string[] = [];
      for (const kind of kinds) {
        progress(`${kind.name}: the victim for ${PHASE_MS / 1000} s`);
        const { victim: profile, noisy } = await withNoise(server, kind, () => measureLatencyAtRate(victim, VICTIM_RATE, PHASE_MS));
        if (server.diagnosing) diagnosed.push(`${kind.name}: ${describeDiagnostics(await server.diagnostics())}`);
        rows.push({ ...ceilingRow(`victim p99 during ${kind.name}`, profile.p99Ms, 'ms', GOAL_P99_MS), baseline: { name: 'quiet', value: quiet.p99Ms }, ratio: profile.p99Ms / quiet.p99Ms });
        const outcomes = Object.entries(noisy.outcomes).map(([name, count]) => `${count} ${name}`).join(', ');
        notes.push(`${kind.name}: victim p50 ${profile.p50Ms.toFixed(1)}, p99.9 ${profile.p999Ms.toFixed(1)}, max ${profile.maxMs.toFixed(1)} ms; `
          + (kind.transport !== 'unary' ? `noisy stream items handled ${noisy.answered} (${outcomes})` : `noisy calls answered ${noisy.answered} (${outcomes}), p50 ${noisy.p50Ms.toFixed(0)} ms`));
      }
      return {
        suite: 'noisy-neighbour',
        rows,
        notes: [
          `${machineNote()}; the server uses its default worker threads`,
          `victim: petstore "get pet", open loop, latency from each call's scheduled start; quiet p50 ${quiet.p50Ms.toFixed(1)}, p99.9 ${quiet.p999Ms.toFixed(1)} ms`,
          ...notes,
          ...diagnosed,
        ],
      };
    } finally {
      await server.stop();
    }
  },
};

/**
 * Runs `measure` while a noisy tenant keeps NOISY_IN_FLIGHT calls in flight from a worker thread
 * (bench/noise-worker.ts: its encoding and answers stay off the victim's event loop); stops it after.
 */
async function withNoise(server: BenchServer, kind: NoiseKind, measure: () => Promise<LatencyProfile>): Promise<{ victim: LatencyProfile; noisy: NoiseTally }> {
  const workerData: NoiseWorkerData = {
    address: server.client.getChannel().getTarget().replace(/^dns:/, ''), messages: kind.messages, inFlight: kind.transport === 'validation-streams' ? NOISY_STREAMS : NOISY_IN_FLIGHT, transport: kind.transport, deadlineMs: NOISY_DEADLINE_MS,
  };
  const worker = new Worker(path.join(__dirname, 'noise-worker.js'), { workerData });
  const tally = new Promise<NoiseTally>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the noise worker exited (code ${code}) before its tally`)));
  });
  try {
    // Let the noise reach the server before the victim's window opens.
    await new Promise((resolve) => setTimeout(resolve, NOISE_LEAD_MS));
    const victim = await measure();
    worker.postMessage('stop');
    return { victim, noisy: await tally };
  } finally {
    await worker.terminate();
  }
}

async function prepareNoise(server: BenchServer, progress: Progress): Promise<NoiseKind[]> {
  progress(`registering ${SLOW_VERSIONS} versions of a schema with ${SLOW_PROPERTIES} patterned properties`);
  const record = slowRecord();
  for (let version = 1; version <= SLOW_VERSIONS; version++) {
    await registerBenchSchema(server, 'slow-compile', JSON.stringify(slowDocument(version)), `${version}.0.0`);
  }
  const recordBody = JSON.stringify(record);
  const encode = (request: object) => contractValidatorDefinition().ValidateInteraction.requestSerialize(request as never) as Uint8Array;
  const slowRequest = (version: number) => ({
    ...interactionRequest('slow-compile', {
      name: 'post record', valid: true,
      request: { method: 'POST', path: '/records', headers: { 'content-type': 'application/json' }, body: recordBody },
      response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: recordBody },
    }),
    schema_version: `${version}.0.0`,
  });

  await registerBenchSchema(server, 'bulk', JSON.stringify(bulkDocument()));
  const largeBody = bulkBody(LARGE_BODY_BYTES);
  const largeRequest = interactionRequest('bulk', {
    name: 'list items', valid: true,
    request: { method: 'GET', path: '/items', headers: {}, body: '' },
    response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: largeBody },
  });
  const smallRequest = interactionRequest('bulk', {
    name: 'list items', valid: true,
    request: { method: 'GET', path: '/items', headers: {}, body: '' },
    response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: bulkBody(200) },
  });
  const manyHeaders: Record<string, string> = { 'content-type': 'application/json' };
  for (let i = 0; i < MANY_HEADERS; i++) manyHeaders[`x-h-${i}`] = 'v';
  const headersRequest = interactionRequest('bulk', {
    name: 'list items', valid: false,
    request: { method: 'GET', path: '/items', headers: manyHeaders, body: '' },
    response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[]' },
  });
  return [
    // Each call names a version no call named before (versions wrap only after the phase could compile them all).
    { name: 'slow compiles', messages: Array.from({ length: SLOW_VERSIONS }, (_, i) => encode(slowRequest(i + 1))), transport: 'unary' },
    { name: `large bodies (${LARGE_BODY_BYTES / 1024 / 1024} MiB)`, messages: [encode(largeRequest)], transport: 'unary' },
    { name: `many headers (${MANY_HEADERS.toLocaleString('en-US')} entries)`, messages: [encode(headersRequest)], transport: 'unary' },
    { name: `${NOISY_STREAMS} streams flooding`, messages: [encode(smallRequest)], transport: 'validation-streams' },
    { name: `${NOISY_IN_FLIGHT} recording streams flooding`, messages: recordedMessages(1_000, 200), transport: 'recording-streams' },
    {
      name: `${NOISY_IN_FLIGHT} recording streams, ${RECORDED_BODY_CHARS / 1024} Ki-character bodies`,
      messages: recordedMessages(50, RECORDED_BODY_CHARS),
      transport: 'recording-streams',
    },
  ];
}

/** `count` recorded interactions of the bulk schema (50 consumers, one header value each), in the default environment. */
function recordedMessages(count: number, responseBodyBytes: number): Uint8Array[] {
  const encode = (message: object) => contractValidatorDefinition().RecordInteractions.requestSerialize(message as never) as Uint8Array;
  const body = bulkBody(responseBodyBytes);
  return Array.from({ length: count }, (_, i) => encode({
    schema_id: 'bulk', environment: DEFAULT_DEPLOY_ENVIRONMENT, consumer_id: `app-${i % 50}`, valid: true,
    request: { method: 'GET', path: '/items', headers: { 'x-request': String(i) }, body: '' },
    response: { status_code: 200, headers: { 'content-type': 'application/json' }, body },
  }));
}

function slowDocument(version: number): object {
  const properties: Record<string, object> = {};
  for (let i = 0; i < SLOW_PROPERTIES; i++) properties[`p${i}`] = { type: 'string', pattern: `^[a-z0-9-]{1,${16 + (i % 50)}}$`, maxLength: 64 };
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Record' } } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Slow to compile', version: `${version}.0.0` },
    paths: { '/records': { post: { requestBody: { required: true, ...body }, responses: { 200: { description: 'the record', ...body } } } } },
    components: { schemas: { Record: { type: 'object', properties } } },
  };
}

function slowRecord(): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < SLOW_PROPERTIES; i++) record[`p${i}`] = `value-${i % 10}`;
  return record;
}

function bulkDocument(): object {
  const item = {
    type: 'object', required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string', maxLength: 64 }, tags: { type: 'array', items: { type: 'string' } } },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'Bulk', version: '1.0.0' },
    paths: { '/items': { get: { responses: { 200: { description: 'items', content: { 'application/json': { schema: { type: 'array', items: item } } } } } } } },
  };
}

/** A JSON list of records of at most `bytes` bytes (all ASCII), as many as fit. */
function bulkBody(bytes: number): string {
  const items: string[] = [];
  let length = 2; // the brackets
  for (let id = 0; ; id++) {
    const item = JSON.stringify({ id, name: `item number ${id}`, tags: ['a', 'b'] });
    const added = item.length + (items.length > 0 ? 1 : 0);
    if (length + added > bytes) break;
    items.push(item);
    length += added;
  }
  return `[${items.join(',')}]`;
}
