/**
 * "Could not answer", as opposed to "no": the server was unreachable or too slow, a file could not be
 * read, the schema or version asked about is not registered. CI pipelines branch on the difference
 * (`--unknown-exit-code`), so every such failure is classified here, in one place.
 */
import { ContractValidatorError } from '@svc/client';
import { isSvcError } from '../shared/errors';
import { RpcError } from './server-connection';

/** Why a command could not answer; the `code` of its `--json` error object. */
export const UNANSWERED_CODES = Object.freeze({
  /** A file or URL named on the command line could not be read. */
  unreadable: 'UNREADABLE',
  /** The schema, version or consumer asked about is not registered. */
  notFound: 'NOT_FOUND',
  /** The server could not be reached. */
  unavailable: 'UNAVAILABLE',
  /** No answer within the time-out. */
  timeout: 'DEADLINE_EXCEEDED',
});

export type UnansweredCode = (typeof UNANSWERED_CODES)[keyof typeof UNANSWERED_CODES];

/** Thrown by a command that could not get an answer; the message says why. */
export class UnansweredError extends Error {
  readonly code: UnansweredCode;

  constructor(code: UnansweredCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnansweredError';
    this.code = code;
  }
}

/** gRPC statuses that mean the server gave no verdict. */
const UNANSWERED_STATUSES: ReadonlySet<string> = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'NOT_FOUND']);

/** Whether `error` means "could not answer" rather than "no" or "wrong". */
export function isUnanswered(error: unknown): boolean {
  if (error instanceof UnansweredError) return true;
  if (error instanceof RpcError) return UNANSWERED_STATUSES.has(error.code);
  if (isSvcError(error)) return error.code === 'SCHEMA_NOT_FOUND' || error.code === 'SCHEMA_VERSION_NOT_FOUND' || error.code === 'CONSUMER_NOT_FOUND';
  return false;
}

/** The stable code of any failure, for the `{"error": {"code": ...}}` object. */
export function errorCodeOf(error: unknown): string {
  if (error instanceof UnansweredError || error instanceof RpcError || error instanceof ContractValidatorError) return error.code;
  if (isSvcError(error)) return error.code;
  return 'INTERNAL';
}
