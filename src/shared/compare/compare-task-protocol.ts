/**
 * What crosses between the server's main thread and the comparison worker: two bundled documents
 * as JSON text out (a string is copied as one block, an object graph node by node), the changes or
 * a failure back. A worker answers failures as values because an Error's `code` does not survive
 * the thread boundary.
 */
import type { ErrorCode } from '../errors';
import type { BreakingChangeRecord } from './breaking-change';

export interface CompareTask {
  /** The old version's bundled OpenAPI document (`loadSchema(...).document`) as JSON. */
  oldDocumentJson: string;
  newDocumentJson: string;
}

export type CompareTaskResult =
  | { ok: true; changes: BreakingChangeRecord[] }
  /** The engine's SvcError (LIMIT_EXCEEDED for a comparison over its bounds), or INTERNAL for a bug. */
  | { ok: false; code: ErrorCode; message: string };
