/**
 * The one error type of the client library. `code` is the gRPC status name for anything the
 * transport or the server answered with a status (`UNAVAILABLE`, `UNAUTHENTICATED`,
 * `DEADLINE_EXCEEDED`, ...), or `REJECTED` when the server answered normally but refused the
 * operation (`success: false`, for example `Invalid schema: ...`). Validation failures are never
 * errors: they come back as results with `valid: false`.
 */
import { status, type ServiceError } from '@grpc/grpc-js';

export type GrpcStatusName = Exclude<keyof typeof status, number>;

export type ClientErrorCode = GrpcStatusName | 'REJECTED';

export class ContractValidatorError extends Error {
  readonly code: ClientErrorCode;
  /** The server's message without the code prefix. */
  readonly details: string;

  constructor(code: ClientErrorCode, details: string, options?: { cause?: unknown }) {
    super(`${code}: ${details}`, options);
    this.name = 'ContractValidatorError';
    this.code = code;
    this.details = details;
  }
}

export function isContractValidatorError(error: unknown): error is ContractValidatorError {
  return error instanceof ContractValidatorError;
}

/** Turns what grpc-js reports (a ServiceError with a numeric code) into the client's error. */
export function fromServiceError(error: ServiceError | Error): ContractValidatorError {
  const numeric = (error as Partial<ServiceError>).code;
  const name = typeof numeric === 'number' ? statusName(numeric) : 'UNKNOWN';
  const details = (error as Partial<ServiceError>).details || error.message;
  return new ContractValidatorError(name, details, { cause: error });
}

function statusName(code: number): GrpcStatusName {
  const name = (status as unknown as Record<number, string>)[code];
  return (name ?? 'UNKNOWN') as GrpcStatusName;
}

/** Misuse of the library by the calling code (a missing option, an unusable argument). */
export function invalidUse(details: string, cause?: unknown): ContractValidatorError {
  return new ContractValidatorError('INVALID_ARGUMENT', details, { cause });
}
