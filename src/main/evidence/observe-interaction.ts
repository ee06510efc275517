/**
 * Turns one RecordedInteraction into what the usage registry keeps, in two steps: attributing it
 * (who sent it, and the operation found by routing the real path: cheap, on the main thread), and
 * describing it (redacted bodies, field paths, shape: src/shared/evidence/recorded-evidence.ts, which
 * the recording service runs off the main thread for large bodies). An interaction that cannot be
 * attributed is skipped, with the reason.
 */
import type { RecordedInteraction__Output } from '@svc/client/protocol';
import { LIMITS } from '../../shared/limits';
import type { RecordedEvidence, RecordedExchange } from '../../shared/evidence/recorded-evidence';
import { usedFieldList } from '../../shared/evidence/field-paths';
import { nestingExceeds } from '../../shared/validation/json-body';
import type { RecordingDropReason } from './drop-reasons';
import type { OperationMatcher } from './operation-matcher';
import type { UsageObservation } from './usage-registry';

/** The consumer id of traffic that did not say who sent it. */
export const UNKNOWN_CONSUMER = 'unknown';
const CONSUMER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;
const ENVIRONMENT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/**
 * Read-field paths taken from one interaction at most (the rest are not even decoded:
 * recorded-interaction-codec.ts, which keeps one more to tell that there were more).
 */
export const MAX_READ_FIELDS = 500;

/** An interaction attributed to a consumer and an operation, waiting to be described. */
export interface AttributedInteraction {
  consumerId: string;
  environment: string;
  schemaId: string;
  schemaVersion: string;
  /** The operation's method and path template. */
  operation: { method: string; path: string };
  valid: boolean;
  exchange: RecordedExchange;
}

export type AttributionResult = { interaction: AttributedInteraction } | { skipped: RecordingDropReason };

export function attributeInteraction(
  message: RecordedInteraction__Output,
  resolved: { version: string; matcher: OperationMatcher },
): AttributionResult {
  const consumerId = message.consumer_id || UNKNOWN_CONSUMER;
  if (!CONSUMER_ID_PATTERN.test(consumerId)) return { skipped: 'consumer_id' };
  const environment = message.environment || 'dev';
  if (!ENVIRONMENT_PATTERN.test(environment)) return { skipped: 'environment' };
  const request = message.request;
  const response = message.response;
  if (!request || !response) return { skipped: 'missing_request_or_response' };
  // Checked before routing, which splits the path on the main thread (validation refuses such a path too).
  if (request.path.length > LIMITS.validationMaxPathChars) return { skipped: 'path_size' };
  const operation = resolved.matcher.match(request.method, request.path);
  if (!operation) return { skipped: 'route' };
  // Checked before the sample is written out (on the main thread, for small bodies), whatever its headers hold.
  if (headerChars(request.headers) > LIMITS.recordingMaxHeaderChars || headerChars(response.headers) > LIMITS.recordingMaxHeaderChars) return { skipped: 'header_size' };
  // Checked before anything reads a body: describing one costs per character.
  if (request.body.length > LIMITS.recordingMaxBodyChars || response.body.length > LIMITS.recordingMaxBodyChars) return { skipped: 'body_size' };
  // Redaction, field paths and the shape walk a body once per level, as validation does.
  if (nestingExceeds(request.body, LIMITS.validationMaxBodyDepth) || nestingExceeds(response.body, LIMITS.validationMaxBodyDepth)) return { skipped: 'body_depth' };
  return {
    interaction: {
      consumerId, environment, schemaId: message.schema_id, schemaVersion: resolved.version,
      operation: { method: operation.method, path: operation.path },
      valid: message.valid,
      exchange: {
        method: request.method.toUpperCase(), path: request.path, requestHeaders: request.headers, requestBody: request.body,
        statusCode: response.status_code, responseHeaders: response.headers, responseBody: response.body,
        readFields: message.read_fields_tracked ? usedFieldList(message.read_fields.slice(0, MAX_READ_FIELDS), message.read_fields.length > MAX_READ_FIELDS) : undefined,
      },
    },
  };
}

/** Characters of the names and values of `headers` (at most validationMaxHeaderEntries, counted on the wire). */
function headerChars(headers: Record<string, string>): number {
  let chars = 0;
  for (const name in headers) chars += name.length + headers[name]!.length;
  return chars;
}

export function observationOf(interaction: AttributedInteraction, evidence: RecordedEvidence): UsageObservation {
  return {
    consumerId: interaction.consumerId, environment: interaction.environment,
    schemaId: interaction.schemaId, schemaVersion: interaction.schemaVersion,
    method: interaction.operation.method, path: interaction.operation.path,
    status: interaction.exchange.statusCode, valid: interaction.valid,
    ...evidence,
  };
}
