/** The one mapping from the error catalog to gRPC status codes. */
import { status, type ServiceError, Metadata } from '@grpc/grpc-js';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';

const STATUS_BY_CODE: Readonly<Record<ErrorCode, status>> = Object.freeze({
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  SCHEMA_NOT_FOUND: status.NOT_FOUND,
  SCHEMA_VERSION_NOT_FOUND: status.NOT_FOUND,
  INVALID_SCHEMA: status.INVALID_ARGUMENT,
  PATH_NOT_FOUND: status.NOT_FOUND,
  CONSUMER_NOT_FOUND: status.NOT_FOUND,
  READ_ONLY: status.FAILED_PRECONDITION,
  LIMIT_EXCEEDED: status.RESOURCE_EXHAUSTED,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  UNAVAILABLE: status.UNAVAILABLE,
  INTERNAL: status.INTERNAL,
});

export function grpcStatusOf(error: unknown): status {
  return error instanceof SvcError ? STATUS_BY_CODE[error.code] : status.INTERNAL;
}

/** The error handed to grpc-js callbacks; internal failures keep their details out of the reply. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  const code = grpcStatusOf(error);
  const details = error instanceof SvcError ? error.message : `internal error: ${errorMessage(error)}`;
  return { code, details, metadata: new Metadata() };
}

/** Upper-snake name of a status code, for metric labels (`INVALID_ARGUMENT`). */
export function statusName(code: status): string {
  return status[code] ?? 'UNKNOWN';
}
