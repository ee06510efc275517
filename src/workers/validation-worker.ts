/**
 * The Piscina entry of the validation pool: runs one batch of validation calls against the
 * compiled contracts this worker holds. Pure CPU and nothing durable: contracts come from
 * documents the main thread sends once (when this worker answers `missing`), are keyed by their
 * immutable content hash, and live only in this thread's cache.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { workerData } from 'piscina';
import { ErrorCode, errorMessage } from '../shared/errors';
import { LIMITS } from '../shared/limits';
import { CompiledContract, compilingTimeMs } from '../shared/validation';
import type { OpenApiDocument } from '../shared/openapi/document';
import {
  BatchItemField, BATCH_CONTRACT_FIELDS, BATCH_ITEM_FIELDS, OUTCOME_FIELDS, OutcomeField, OutcomeStatus, batchItemTable,
  type BatchResult, type BatchStartMark, type CacheReport, type ItemFailure, type ValidationBatch, type ValidationOperation,
} from '../shared/pool-protocol/batches';
import { ERROR_CATEGORIES, type ErrorCategory } from '../shared/validation/types';
import {
  validationResultSize, writeValidationResult, type ValidationResultFields,
} from '../shared/pool-protocol/validation-codec';
import { ContractCache } from './contract-cache';
import { contractFailureOutcome, correlationIdOf, validateMessage } from './validate-message';

/** A built contract keeps its document's length and the schema nodes it had compiled when last weighed (contractCost). */
type CachedContract = { contract: CompiledContract; failure?: undefined; documentChars: number; weighedNodes: number } | { contract?: undefined; failure: string };

/** Hashes of the contracts dropped since the last report (some may be held again by then). */
let evicted: string[] = [];
const contractCache = new ContractCache<CachedContract>({
  onEvict: (entry, hash) => {
    entry.contract?.close();
    evicted.push(hash);
  },
});
/** Calls answered from a cached contract, and contracts built, since the last report. */
let hits = 0;
let misses = 0;
/** Milliseconds this thread has spent building contracts from their documents (a batch's preparation, with compiles). */
let buildingMs = 0;
/** Where this thread marks the batch it runs, for the pool to read should the thread die (absent outside a pool). */
const startMark = (workerData as { startMark?: BatchStartMark } | undefined)?.startMark;

/**
 * The Piscina entry: runs the batch on the next turn of this thread's event loop, not at once.
 * Piscina starts every task it finds waiting in one pass, each up to its first `await`, so when a
 * lane's next batch was already waiting (pipelined), that batch ran before the first one's answer
 * was posted, and the answer waited a whole batch (two of three pipelined pairs in a probe; a 290 ms
 * delay in one). Started on a turn of its own, each batch's answer leaves as soon as it ends.
 */
export default async function runValidationBatchNextTurn(batch: ValidationBatch): Promise<BatchResult> {
  await nextTurn();
  return runValidationBatch(batch);
}

/** One batch, at once: its outcomes, or a batch failure (never a throw). */
export function runValidationBatch(batch: ValidationBatch): BatchResult {
  if (startMark !== undefined) Atomics.store(startMark, 0, batch.sequence);
  try {
    return runBatch(batch);
  } catch (error) {
    return { ok: false, code: ErrorCode.INTERNAL, message: `validation batch failed: ${errorMessage(error)}` };
  }
}

function runBatch(batch: ValidationBatch): BatchResult {
  const started = performance.now();
  const compilingBefore = compilingTimeMs();
  const buildingBefore = buildingMs;
  const { contracts, documents, compile, itemCount } = batch;
  const bytes = Buffer.from(batch.buffer);
  const items = batchItemTable(batch);
  const outcomes = new Int32Array(itemCount * OUTCOME_FIELDS);
  const failures: ItemFailure[] = [];
  const answers: ValidationResultFields[] = [];
  // Each contract of the batch is looked up in the cache once (null: this worker lacks it).
  const lookedUp: Array<CachedContract | null | undefined> = new Array(contracts.length / BATCH_CONTRACT_FIELDS);
  let start = 0;
  for (let index = 0; index < itemCount; index++) {
    const item = index * BATCH_ITEM_FIELDS;
    const end = items[item + BatchItemField.END]!;
    const message = bytes.subarray(start, end);
    start = end;
    const operation = items[item + BatchItemField.OPERATION] as ValidationOperation;
    const contractIndex = items[item + BatchItemField.CONTRACT]!;
    const contractAt = contractIndex * BATCH_CONTRACT_FIELDS;
    const hash = contracts[contractAt]!;
    const outcome = index * OUTCOME_FIELDS;
    let cached = lookedUp[contractIndex];
    if (cached === undefined) cached = lookedUp[contractIndex] = contractFor(hash, documents, compile) ?? null;
    else if (cached !== null) hits++; // every call counts as a lookup, as contractFor counts the first
    if (cached === null) {
      outcomes[outcome + OutcomeField.STATUS] = OutcomeStatus.MISSING;
      continue;
    }
    const verdict = cached.failure === undefined
      ? validateMessage(operation, message, cached.contract, !compile)
      : { ok: true as const, outcome: contractFailureOutcome(cached.failure), correlationId: correlationIdOf(operation, message) };
    if (verdict.ok === 'cold') {
      outcomes[outcome + OutcomeField.STATUS] = OutcomeStatus.COLD;
      continue;
    }
    if (!verdict.ok) {
      outcomes[outcome + OutcomeField.STATUS] = OutcomeStatus.FAILED;
      failures.push({ code: verdict.code, message: verdict.message });
      continue;
    }
    const { valid, errors, category } = verdict.outcome;
    answers.push({ valid, errors, hash, version: contracts[contractAt + 1]!, correlationId: verdict.correlationId });
    outcomes[outcome + OutcomeField.STATUS] = OutcomeStatus.DONE;
    outcomes[outcome + OutcomeField.VALID] = valid ? 1 : 0;
    outcomes[outcome + OutcomeField.CATEGORY] = categoryIndex(category);
  }
  // A batch that compiled schemas (a compile batch, or a prepared operation's first call of another
  // response) grew its contracts: weigh them again, so the cache evicts to fit.
  if (compilingTimeMs() !== compilingBefore) {
    for (let index = 0; index < lookedUp.length; index++) {
      const cached = lookedUp[index];
      if (!cached?.contract || cached.contract.compiledSchemaNodes === cached.weighedNodes) continue;
      cached.weighedNodes = cached.contract.compiledSchemaNodes;
      contractCache.reweigh(contracts[index * BATCH_CONTRACT_FIELDS]!, contractCost(cached));
    }
  }
  const results = encodeAnswers(outcomes, answers);
  return {
    ok: true, outcomes: outcomes.buffer, failures, results, cache: takeCacheReport(),
    workerMs: performance.now() - started, prepareMs: buildingMs - buildingBefore + compilingTimeMs() - compilingBefore,
  };
}

function categoryIndex(category: ErrorCategory | undefined): number {
  return category === undefined ? -1 : ERROR_CATEGORIES.indexOf(category);
}

/** The cached contract for `hash`, built from the batch's document when this worker lacks it and may compile. */
function contractFor(hash: string, documents: Record<string, string>, compile: boolean): CachedContract | undefined {
  const cached = contractCache.get(hash);
  if (cached !== undefined) {
    hits++;
    return cached;
  }
  const documentJson = documents[hash];
  if (documentJson === undefined || !compile) return undefined;
  misses++;
  const buildStarted = performance.now();
  const built = buildContract(documentJson);
  buildingMs += performance.now() - buildStarted;
  contractCache.set(hash, built, built.contract ? contractCost(built) : documentJson.length * LIMITS.contractCostPerDocumentByte);
  return built;
}

/**
 * What a compiled contract costs in this thread's heap, for the cache's byte budget: the parsed
 * document and its router come to several times the JSON text, and each schema object compiled
 * (transformed, its AJV code and closures) to far more than its text. Weighed by the text alone
 * (8×), compact documents with their operations compiled cost 40–50× it: a worker whose cache
 * counted 512 MiB held about 2 GB, the whole of its 2 GiB heap, leaving no room for a batch.
 */
function contractCost(cached: { documentChars: number; weighedNodes: number }): number {
  return cached.documentChars * LIMITS.contractCostPerDocumentByte + cached.weighedNodes * LIMITS.contractCostPerSchemaNode;
}

function buildContract(documentJson: string): CachedContract {
  try {
    return { contract: new CompiledContract(JSON.parse(documentJson) as OpenApiDocument), documentChars: documentJson.length, weighedNodes: 0 };
  } catch (error) {
    // Deterministic for this content: remember the failure instead of rebuilding on every call.
    return { failure: errorMessage(error) };
  }
}

/** Writes every answer into one exact buffer and sets each DONE outcome's end offset in it. */
function encodeAnswers(outcomes: Int32Array, answers: ValidationResultFields[]): ArrayBuffer {
  let total = 0;
  for (const answer of answers) total += validationResultSize(answer);
  // Not from Buffer's shared pool: the whole ArrayBuffer crosses the thread boundary.
  const target = Buffer.allocUnsafeSlow(total);
  let offset = 0;
  let next = 0;
  for (let outcome = 0; outcome < outcomes.length; outcome += OUTCOME_FIELDS) {
    if (outcomes[outcome + OutcomeField.STATUS] !== OutcomeStatus.DONE) continue;
    offset = writeValidationResult(answers[next++]!, target, offset);
    outcomes[outcome + OutcomeField.END] = offset;
  }
  return target.buffer as ArrayBuffer;
}

function takeCacheReport(): CacheReport {
  const report = {
    threadId, hits, misses, items: contractCache.size, bytes: contractCache.bytes,
    evicted: evicted.filter((hash) => !contractCache.has(hash)),
  };
  hits = 0;
  misses = 0;
  evicted = [];
  return report;
}
