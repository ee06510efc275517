/**
 * What crosses between the server's main thread and a validation worker: one batch of raw request
 * messages out, one batch of outcomes and encoded ValidationResults back. Plain data only (a
 * transferred ArrayBuffer, strings, flat objects); a worker answers failures as values because an
 * Error's `code` does not survive the thread boundary.
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

export interface BatchItem {
  operation: ValidationOperation;
  /** End offset of this item's message in `ValidationBatch.messages` (it starts where the previous ends). */
  end: number;
  /** Content hash of the schema version the main thread resolved: the compiled-contract key. */
  hash: string;
  /** That version, echoed in ValidationResult.validated_against_version. */
  version: string;
}

export interface ValidationBatch {
  /** The items' request messages, exactly as received over gRPC, back to back (transferred, not copied). */
  messages: ArrayBuffer;
  items: BatchItem[];
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
}

export type ItemOutcome =
  /** Validated (or answered with valid=false); the encoded ValidationResult ends at `end` in `results`. */
  | { status: 'done'; valid: boolean; category: string; end: number }
  /** This worker has no compiled contract for the hash: send the item again with its document. */
  | { status: 'missing' }
  /** The call would compile part of the contract first: send it again in a batch of its contract alone. */
  | { status: 'cold' }
  /** Not validated, for a reason that is a call failure rather than a result (a malformed message, a bug). */
  | { status: 'failed'; code: ErrorCode; message: string };

/** A worker's compiled-contract cache, reported with every batch so the main thread can keep metrics. */
export interface CacheReport {
  threadId: number;
  /** Lookups since the previous report. */
  hits: number;
  misses: number;
  /** Current contents. */
  items: number;
  bytes: number;
}

export type BatchResult =
  | {
    ok: true;
    outcomes: ItemOutcome[];
    /** Encoded ValidationResults of the `done` outcomes, back to back. */
    results: ArrayBuffer;
    cache: CacheReport;
  }
  | { ok: false; code: ErrorCode; message: string };
