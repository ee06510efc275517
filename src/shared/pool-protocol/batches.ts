/**
 * What crosses between the server's main thread and a validation worker: one batch of raw request
 * messages out, one batch of outcomes and encoded ValidationResults back. Plain data only, per-call
 * data packed into buffers (structured cloning is paid per object on the main thread); a worker
 * answers failures as values because an Error's `code` does not survive the thread boundary.
 */
import type { ErrorCode } from '../errors';

/** Which validation operation a message belongs to (and which request message it holds). */
export const ValidationOperation = Object.freeze({
  /** An InteractionRequest (ValidateInteraction and its stream). */
  INTERACTION: 0,
  /** A ValidateProducerRequest. */
  PRODUCER_RESPONSE: 1,
});
export type ValidationOperation = (typeof ValidationOperation)[keyof typeof ValidationOperation];

/**
 * A batch's item table: BATCH_ITEM_FIELDS uint32 per item, after the messages in the same
 * transferred buffer. Packed rather than an array of objects: cloning one object per call (each with
 * a 64-character hash) cost the main thread about as much as the rest of handing the batch over.
 */
export const BatchItemField = Object.freeze({
  OPERATION: 0,
  /** End offset of the item's message in the buffer (it starts where the previous one ends). */
  END: 1,
  /** Index of the item's contract in `ValidationBatch.contracts`. */
  CONTRACT: 2,
});
export const BATCH_ITEM_FIELDS = Object.keys(BatchItemField).length;
export const BATCH_CONTRACT_FIELDS = 2;

export interface ValidationBatch {
  /** The items' request messages exactly as received over gRPC, back to back, then the item table (transferred, not copied). */
  buffer: ArrayBuffer;
  /** Byte offset of the item table in `buffer` (a multiple of 4). */
  tableOffset: number;
  itemCount: number;
  /**
   * The batch's distinct contracts, BATCH_CONTRACT_FIELDS strings each: its content hash (the
   * compiled-contract key), then its version (echoed in ValidationResult.validated_against_version).
   */
  contracts: string[];
  /**
   * Bundled OpenAPI documents as JSON, by content hash, for contracts a worker reported missing.
   * Sent once per worker and contract, never with every call.
   */
  documents: Record<string, string>;
  /**
   * True for a batch that may compile: the calls of one contract sent on their own. Otherwise the
   * worker runs only calls that compile nothing and answers the others `cold`, so a slow compile never
   * holds the calls of other schemas that share a batch with it.
   */
  compile: boolean;
  /**
   * The batch's number in its pool (wrapping, never 0 there; 0 outside a pool). The worker marks it
   * as running in memory it shares with the main thread (`BatchStartMark`), so when the thread dies
   * the pool knows which batch it was running, whatever answers it had not read yet.
   */
  sequence: number;
}

/**
 * Memory a validation thread shares with the main thread (its Piscina `workerData`): one Int32, the
 * sequence of the batch the thread last started.
 */
export type BatchStartMark = Int32Array;

export function newBatchStartMark(): BatchStartMark {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** One call as a batch carries it. */
export interface BatchCall {
  message: Uint8Array;
  operation: ValidationOperation;
  contract: { hash: string; version: string };
}

/**
 * Lays `calls` out as one batch: their messages back to back, then the item table, in one buffer
 * to transfer; each contract listed once. Also returns each contract hash's index in the list.
 */
export function encodeBatch(
  calls: readonly BatchCall[],
  documents: Record<string, string>,
  compile: boolean,
  sequence = 0,
): { batch: ValidationBatch; contractIndex: Map<string, number> } {
  let totalBytes = 0;
  for (const call of calls) totalBytes += call.message.byteLength;
  const tableOffset = Math.ceil(totalBytes / 4) * 4;
  // Not from Buffer's shared pool (the whole ArrayBuffer is transferred to the worker), and not
  // zero-filled: the worker reads only the bytes written below.
  const messages = Buffer.allocUnsafeSlow(tableOffset + calls.length * BATCH_ITEM_FIELDS * 4);
  const buffer = messages.buffer as ArrayBuffer;
  const table = batchItemTable({ buffer, tableOffset, itemCount: calls.length });
  const contracts: string[] = [];
  const contractIndex = new Map<string, number>();
  let offset = 0;
  for (let i = 0; i < calls.length; i++) {
    const { message, operation, contract } = calls[i]!;
    messages.set(message, offset);
    offset += message.byteLength;
    let index = contractIndex.get(contract.hash);
    if (index === undefined) {
      index = contractIndex.size;
      contractIndex.set(contract.hash, index);
      contracts.push(contract.hash, contract.version);
    }
    const item = i * BATCH_ITEM_FIELDS;
    table[item + BatchItemField.OPERATION] = operation;
    table[item + BatchItemField.END] = offset;
    table[item + BatchItemField.CONTRACT] = index;
  }
  return { batch: { buffer, tableOffset, itemCount: calls.length, contracts, documents, compile, sequence }, contractIndex };
}

/** The item table of a batch, as uint32 fields (BatchItemField). */
export function batchItemTable(batch: Pick<ValidationBatch, 'buffer' | 'tableOffset' | 'itemCount'>): Uint32Array {
  return new Uint32Array(batch.buffer, batch.tableOffset, batch.itemCount * BATCH_ITEM_FIELDS);
}

export const OutcomeStatus = Object.freeze({
  /** Validated (or answered with valid=false); its encoded ValidationResult ends at END in `results`. */
  DONE: 0,
  /** This worker has no compiled contract for the hash: send the item again with its document. */
  MISSING: 1,
  /** The call would compile part of the contract first: send it again in a batch of its contract alone. */
  COLD: 2,
  /** Not validated, for a reason that is a call failure rather than a result (listed in `failures`). */
  FAILED: 3,
});
export type OutcomeStatus = (typeof OutcomeStatus)[keyof typeof OutcomeStatus];

/** A batch's outcome table: OUTCOME_FIELDS int32 per item, in item order. */
export const OutcomeField = Object.freeze({
  STATUS: 0,
  /** 1 when the result is valid. */
  VALID: 1,
  /** Index of the result's error_category in ERROR_CATEGORIES, -1 for none. */
  CATEGORY: 2,
  /** End offset of the item's encoded ValidationResult in `results`. */
  END: 3,
});
export const OUTCOME_FIELDS = Object.keys(OutcomeField).length;

/** An item the worker could not validate at all (OutcomeStatus.FAILED); listed in item order. */
export interface ItemFailure {
  code: ErrorCode;
  message: string;
}

/** A worker's compiled-contract cache, reported with every batch so the main thread can keep metrics. */
export interface CacheReport {
  threadId: number;
  /** Lookups since the previous report. */
  hits: number;
  misses: number;
  /** Current contents. */
  items: number;
  bytes: number;
  /**
   * Content hashes of the contracts dropped since the previous report and not held again: the
   * main thread's record of what each worker holds forgets them, so it stays the size of the cache.
   */
  evicted: string[];
}

export type BatchResult =
  | {
    ok: true;
    /** The outcome table (OutcomeField), as an Int32Array's buffer. */
    outcomes: ArrayBuffer;
    failures: ItemFailure[];
    /** Encoded ValidationResults of the DONE outcomes, back to back. */
    results: ArrayBuffer;
    cache: CacheReport;
    /**
     * Milliseconds the worker spent on the batch: for a compile batch, what the compile cost, free
     * of the hops and of the main thread's own delays (which a loaded machine stretches).
     */
    workerMs: number;
    /**
     * The part of workerMs spent preparing contracts (building one from its document, compiling
     * schemas on an operation's first call): what the batch's calls themselves cost is the rest.
     */
    prepareMs: number;
  }
  | { ok: false; code: ErrorCode; message: string };
