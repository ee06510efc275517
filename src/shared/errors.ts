/**
 * The one error catalog. Every failure the service reports has a stable code here; the message
 * shapes the specification fixes are built here and nowhere else, and the mapping of a code to a
 * gRPC status lives in src/main/grpc-status.ts.
 */
export const ErrorCode = Object.freeze({
  /** A call parameter is missing or malformed (empty id, unknown HTTP method, bad version...). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The schema id is not registered. */
  SCHEMA_NOT_FOUND: 'SCHEMA_NOT_FOUND',
  /** The schema id exists but not the version asked for. */
  SCHEMA_VERSION_NOT_FOUND: 'SCHEMA_VERSION_NOT_FOUND',
  /** The content is not a usable OpenAPI document. */
  INVALID_SCHEMA: 'INVALID_SCHEMA',
  /** No operation of the schema matches the method and path. */
  PATH_NOT_FOUND: 'PATH_NOT_FOUND',
  /** The consumer registration does not exist. */
  CONSUMER_NOT_FOUND: 'CONSUMER_NOT_FOUND',
  /** An update of a read-only schema version. */
  READ_ONLY: 'READ_ONLY',
  /** A different content for a published version on a server with immutable versions. */
  VERSION_IMMUTABLE: 'VERSION_IMMUTABLE',
  /** The environment is not known (not built in, never created); the message lists the known ones. */
  ENVIRONMENT_NOT_FOUND: 'ENVIRONMENT_NOT_FOUND',
  /** A state the operation needs does not hold (deleting an environment still in use, a consumer version never registered). */
  FAILED_PRECONDITION: 'FAILED_PRECONDITION',
  /** The API key is valid but its scopes do not allow the operation (or this schema id). */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** Another write to the same record won a race (replicas registering one version at once); nothing was stored. */
  CONFLICT: 'CONFLICT',
  /** An input is over one of the named limits. */
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  /** The server is at a capacity limit shared by all callers (bytes being validated); retry shortly. */
  OVERLOADED: 'OVERLOADED',
  /** Authentication failed (missing or invalid API key). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The server is shutting down or a worker is gone. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** The caller cancelled the call, or its deadline passed, before it was answered: the work for it was stopped. */
  CANCELLED: 'CANCELLED',
  /** A bug or an unexpected failure. */
  INTERNAL: 'INTERNAL',
});

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The one error type of the service: a stable code, a message for people, an optional cause. */
export class SvcError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SvcError';
    this.code = code;
  }
}

export function isSvcError(error: unknown): error is SvcError {
  return error instanceof SvcError;
}

/** Message builders for the shapes fixed by the specification ("Response-level errors"). */
export const messages = Object.freeze({
  schemaNotFound: (schemaId: string) => `Schema not found: ${schemaId}`,
  schemaVersionNotFound: () => 'schema version not found',
  invalidSchema: (details: string) => `Invalid schema: ${details}`,
  pathNotFound: (path: string) => `Path not found: ${path}`,
  consumerNotFound: () => 'consumer not found',
});

export const schemaNotFound = (schemaId: string) =>
  new SvcError(ErrorCode.SCHEMA_NOT_FOUND, messages.schemaNotFound(schemaId));
export const schemaVersionNotFound = () =>
  new SvcError(ErrorCode.SCHEMA_VERSION_NOT_FOUND, messages.schemaVersionNotFound());
export const invalidSchema = (details: string, cause?: unknown) =>
  new SvcError(ErrorCode.INVALID_SCHEMA, messages.invalidSchema(details), { cause });
export const invalidArgument = (message: string) => new SvcError(ErrorCode.INVALID_ARGUMENT, message);
export const limitExceeded = (message: string) => new SvcError(ErrorCode.LIMIT_EXCEEDED, message);
/** Work stopped for a caller that went away (cancelled, or past its deadline); `undone` says what was not done. */
export const callerGone = (undone: string) =>
  new SvcError(ErrorCode.CANCELLED, `the caller cancelled the call or its deadline passed; ${undone}`);
/**
 * A store's refusal of a write into an environment it does not hold: one deleted after the caller
 * checked it (by another call, or another replica), so the write would depend on a removed environment.
 */
export const environmentGone = (name: string) => new SvcError(
  ErrorCode.ENVIRONMENT_NOT_FOUND,
  `environment "${name}" does not exist any more: it was deleted while this call ran; nothing was written`,
);

/** The message of any thrown value, for places that must turn a failure into text. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
