/**
 * The Piscina entry of the validation pool: runs one batch of validation calls against the
 * compiled contracts this worker holds. Pure CPU and nothing durable: contracts come from
 * documents the main thread sends once (when this worker answers `missing`), are keyed by their
 * immutable content hash, and live only in this thread's cache.
 */
import { threadId } from 'node:worker_threads';
import { ErrorCode, errorMessage } from '../shared/errors';
import { LIMITS } from '../shared/limits';
import { CompiledContract } from '../shared/validation';
import type { OpenApiDocument } from '../shared/openapi/document';
import type { BatchItem, BatchResult, CacheReport, ItemOutcome, ValidationBatch } from '../shared/pool-protocol/batches';
import {
  validationResultSize, writeValidationResult, type ValidationResultFields,
} from '../shared/pool-protocol/validation-codec';
import { ContractCache } from './contract-cache';
import { contractFailureOutcome, correlationIdOf, validateMessage } from './validate-message';

type CachedContract = { contract: CompiledContract; failure?: undefined } | { contract?: undefined; failure: string };

const contracts = new ContractCache<CachedContract>({ onEvict: (entry) => entry.contract?.close() });
/** Calls answered from a cached contract, and contracts built, since the last report. */
let hits = 0;
let misses = 0;

export default function runValidationBatch(batch: ValidationBatch): BatchResult {
  try {
    return runBatch(batch);
  } catch (error) {
    return { ok: false, code: ErrorCode.INTERNAL, message: `validation batch failed: ${errorMessage(error)}` };
  }
}

function runBatch({ messages, items, documents, compile }: ValidationBatch): BatchResult {
  const bytes = Buffer.from(messages);
  const outcomes: ItemOutcome[] = [];
  const answers: ValidationResultFields[] = [];
  let start = 0;
  for (const item of items) {
    const message = bytes.subarray(start, item.end);
    start = item.end;
    const cached = contractFor(item.hash, documents, compile);
    if (cached === undefined) {
      outcomes.push({ status: 'missing' });
      continue;
    }
    const verdict = cached.failure === undefined
      ? validateMessage(item.operation, message, cached.contract, !compile)
      : { ok: true as const, outcome: contractFailureOutcome(cached.failure), correlationId: correlationIdOf(item.operation, message) };
    if (verdict.ok === 'cold') {
      outcomes.push({ status: 'cold' });
      continue;
    }
    if (!verdict.ok) {
      outcomes.push({ status: 'failed', code: verdict.code, message: verdict.message });
      continue;
    }
    const { outcome, correlationId } = verdict;
    answers.push(answerOf(item, outcome.valid, outcome.errors, correlationId));
    outcomes.push({ status: 'done', valid: outcome.valid, category: outcome.category ?? '', end: 0 });
  }
  return { ok: true, outcomes, results: encodeAnswers(outcomes, answers), cache: takeCacheReport() };
}

/** The cached contract for `hash`, built from the batch's document when this worker lacks it and may compile. */
function contractFor(hash: string, documents: Record<string, string>, compile: boolean): CachedContract | undefined {
  const cached = contracts.get(hash);
  if (cached !== undefined) {
    hits++;
    return cached;
  }
  const documentJson = documents[hash];
  if (documentJson === undefined || !compile) return undefined;
  misses++;
  const built = buildContract(documentJson);
  contracts.set(hash, built, contractCost(documentJson));
  return built;
}

/**
 * What a compiled contract costs in this thread's heap, for the cache's byte budget: the parsed
 * document, its router and AJV instance with the validators it compiles come to several times the
 * JSON text (about 7× measured for a 3 MiB document with its operations compiled).
 */
function contractCost(documentJson: string): number {
  return documentJson.length * LIMITS.contractCostPerDocumentByte;
}

function buildContract(documentJson: string): CachedContract {
  try {
    return { contract: new CompiledContract(JSON.parse(documentJson) as OpenApiDocument) };
  } catch (error) {
    // Deterministic for this content: remember the failure instead of rebuilding on every call.
    return { failure: errorMessage(error) };
  }
}

function answerOf(item: BatchItem, valid: boolean, errors: readonly string[], correlationId: string): ValidationResultFields {
  return { valid, errors, version: item.version, hash: item.hash, correlationId };
}

/** Writes every answer into one exact buffer and sets each `done` outcome's end offset in it. */
function encodeAnswers(outcomes: ItemOutcome[], answers: ValidationResultFields[]): ArrayBuffer {
  let total = 0;
  for (const answer of answers) total += validationResultSize(answer);
  // Not from Buffer's shared pool: the whole ArrayBuffer crosses the thread boundary.
  const target = Buffer.allocUnsafeSlow(total);
  let offset = 0;
  let next = 0;
  for (const outcome of outcomes) {
    if (outcome.status !== 'done') continue;
    offset = writeValidationResult(answers[next++]!, target, offset);
    outcome.end = offset;
  }
  return target.buffer as ArrayBuffer;
}

function takeCacheReport(): CacheReport {
  const report = { threadId, hits, misses, items: contracts.size, bytes: contracts.bytes };
  hits = 0;
  misses = 0;
  return report;
}
