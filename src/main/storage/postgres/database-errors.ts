/**
 * Which PostgreSQL failures mean "the database is not reachable now" (the call fails with
 * UNAVAILABLE and may be retried) rather than a bug (INTERNAL). SQLSTATE classes:
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
import { ErrorCode, SvcError, errorMessage } from '../../../shared/errors';

/** 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown, statement timeout). */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08', '53', '57']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/** node-postgres reports a lost or timed-out connection with these messages and no code. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated', 'Query read timeout',
  'Client has encountered a connection error', 'Client was closed', 'Connection ended unexpectedly',
];

/**
 * pg-pool's answer when every connection stayed in use for `connectionTimeoutMillis`: the pool is
 * busy (one caller's many reads will do it), which says nothing of whether the database answers.
 */
const POOL_WAIT_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

export function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === POOL_WAIT_TIMEOUT_MESSAGE;
}

/**
 * `query_canceled`: a statement ran past `statement_timeout`, or an operator cancelled it. The
 * database answered; the call fails, but nothing says the database is gone.
 */
export const QUERY_CANCELED_SQLSTATE = '57014';

/** Raised by the trigger that keeps read-only versions unchanged (migration 1). */
export const READ_ONLY_SQLSTATE = 'SV001';

/** `lock_not_available`: a lock was not granted within `lock_timeout`. */
export const LOCK_NOT_AVAILABLE_SQLSTATE = '55P03';

export function isUnavailableError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_NODE_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2));
  }
  if (error instanceof AggregateError) return error.errors.some(isUnavailableError);
  const message = errorMessage(error);
  return UNAVAILABLE_MESSAGES.some((known) => message.includes(known));
}

export function unavailable(error: unknown): SvcError {
  return new SvcError(
    ErrorCode.UNAVAILABLE,
    `the registry database is unavailable (${describeCause(error)}): registrations and other writes fail until it is back; validation of registered schemas continues`,
    { cause: error },
  );
}

/** A short reason: `connect ECONNREFUSED 127.0.0.1:5432`, or the server's message. */
export function describeCause(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeCause(error.errors[0]);
  return errorMessage(error).split('\n')[0]!.slice(0, 200) || 'connection lost';
}
