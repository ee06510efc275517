/**
 * The operation context of a call's log line (schema id, version, consumer, method, path), read from
 * its first request message: decoded messages field by field, raw validation messages by reading only
 * their routing fields. Every value is clipped, so a 200,000-character path stays out of the logs.
 */
import { LIMITS } from '../shared/limits';
import { RAW_VALIDATION_OPERATIONS } from '../shared/pool-protocol/validation-codec';
import { clip } from '../shared/text';

/** Longest request path or status detail copied into a log line (a 200,000-character path stays out). */
export const MAX_LOGGED_CHARS = 256;

/** Operation context of a log line, taken from the request (the first one of a stream). */
export interface CallContext {
  schemaId?: string;
  schemaVersion?: string;
  consumerId?: string;
  environment?: string;
  /** HTTP method of the interaction, fixture or producer response. */
  method?: string;
  /** HTTP path of the interaction, fixture or producer response. */
  path?: string;
}

/** Context of a log line from the call's first request (raw bytes for the validation operations). */
export function contextOf(operation: string, message: unknown): CallContext {
  if (Buffer.isBuffer(message)) return rawContextOf(operation, message);
  if (typeof message !== 'object' || message === null) return {};
  const fields = message as Record<string, unknown>;
  const request = typeof fields.request === 'object' && fields.request !== null ? (fields.request as Record<string, unknown>) : {};
  return withoutEmpty({
    schemaId: text(fields.schema_id, LIMITS.maxIdLength),
    schemaVersion: text(fields.schema_version ?? fields.new_version, LIMITS.maxMetadataLength),
    consumerId: text(fields.consumer_id, LIMITS.maxIdLength),
    environment: text(fields.environment, LIMITS.maxIdLength),
    method: text(fields.method ?? request.method, 16),
    path: text(fields.path ?? request.path, MAX_LOGGED_CHARS),
  });
}

function rawContextOf(operation: string, message: Buffer): CallContext {
  const read = RAW_VALIDATION_OPERATIONS[operation as keyof typeof RAW_VALIDATION_OPERATIONS];
  if (!read) return {};
  try {
    const head = read(message);
    return withoutEmpty({
      schemaId: text(head.schemaId, LIMITS.maxIdLength),
      schemaVersion: text(head.schemaVersion, LIMITS.maxMetadataLength),
      method: text(head.method, 16),
    });
  } catch {
    return {}; // not valid protobuf: the handler answers that
  }
}

function withoutEmpty(context: CallContext): CallContext {
  for (const key of Object.keys(context) as Array<keyof CallContext>) if (context[key] === undefined) delete context[key];
  return context;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value !== '' ? clip(value, max) : undefined;
}

