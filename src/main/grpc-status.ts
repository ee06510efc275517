/** The one mapping from the error catalog to gRPC status codes. */
import { status, type ServiceError, Metadata } from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import { LIMITS } from '../shared/limits';
import type { Logger } from './logger';

const STATUS_BY_CODE: Readonly<Record<ErrorCode, status>> = Object.freeze({
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  SCHEMA_NOT_FOUND: status.NOT_FOUND,
  SCHEMA_VERSION_NOT_FOUND: status.NOT_FOUND,
  INVALID_SCHEMA: status.INVALID_ARGUMENT,
  PATH_NOT_FOUND: status.NOT_FOUND,
  CONSUMER_NOT_FOUND: status.NOT_FOUND,
  READ_ONLY: status.FAILED_PRECONDITION,
  VERSION_IMMUTABLE: status.FAILED_PRECONDITION,
  ENVIRONMENT_NOT_FOUND: status.FAILED_PRECONDITION,
  FAILED_PRECONDITION: status.FAILED_PRECONDITION,
  PERMISSION_DENIED: status.PERMISSION_DENIED,
  CONFLICT: status.ABORTED,
  LIMIT_EXCEEDED: status.RESOURCE_EXHAUSTED,
  OVERLOADED: status.RESOURCE_EXHAUSTED,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  UNAVAILABLE: status.UNAVAILABLE,
  CANCELLED: status.CANCELLED,
  INTERNAL: status.INTERNAL,
});

export function grpcStatusOf(error: unknown): status {
  return error instanceof SvcError ? STATUS_BY_CODE[error.code] : status.INTERNAL;
}

/**
 * The error handed to grpc-js for a failed call. An INTERNAL failure (a bug, a storage fault, a
 * worker's unexpected error) is logged in full under an incident id, and the client gets only that
 * id: internal messages (SQL, file paths, stack details) never leave the server.
 */
export function toServiceError(error: unknown, logger: Logger, operation: string): Partial<ServiceError> {
  const code = grpcStatusOf(error);
  if (code !== status.INTERNAL) return { code, details: statusDetails((error as SvcError).message), metadata: new Metadata() };
  const incident = randomUUID().slice(0, 8);
  logger.error({ caller: 'rpc', err: error, operation, incident }, `internal failure: ${errorMessage(error)}`);
  return { code, details: `internal error (incident ${incident}); the server log has the details`, metadata: new Metadata() };
}

/**
 * A status message no client refuses: it travels in an HTTP/2 trailer, and gRPC clients take 8 KiB
 * of headers by default (a longer one left the call, and every later call on its connection,
 * without an answer). A longer message keeps its start and says how long it was.
 */
export function statusDetails(message: string): string {
  const max = LIMITS.maxStatusMessageChars;
  if (message.length <= max) return message;
  const suffix = ` … (a message of ${message.length} characters, cut at maxStatusMessageChars)`;
  return message.slice(0, max - suffix.length) + suffix;
}

/** Upper-snake name of a status code, for metric labels (`INVALID_ARGUMENT`). */
export function statusName(code: status): string {
  return status[code] ?? 'UNKNOWN';
}
