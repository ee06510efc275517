/**
 * Turns one RecordedInteraction into what the usage registry keeps: the operation found by routing
 * the real path, the response field paths (read and received), the redacted interaction and its
 * shape. Undefined (with the reason) when the interaction cannot be attributed to an operation.
 */
import type { RecordedInteraction__Output } from '@svc/client/protocol';
import { LIMITS } from '../../shared/limits';
import { fieldPaths, shapeDigest } from './field-paths';
import type { RecordingDropReason } from './drop-reasons';
import type { OperationMatcher } from './operation-matcher';
import { redactBody, redactHeaders } from './redaction';
import type { UsageObservation } from './usage-registry';

/** The consumer id of traffic that did not say who sent it. */
export const UNKNOWN_CONSUMER = 'unknown';
const CONSUMER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;
const ENVIRONMENT_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** Read-field paths taken from one interaction at most (the rest are not even decoded: recorded-interaction-codec.ts). */
export const MAX_READ_FIELDS = 500;

export type ObservationResult = { observation: UsageObservation } | { skipped: RecordingDropReason };

export function observeInteraction(
  message: RecordedInteraction__Output,
  resolved: { version: string; matcher: OperationMatcher },
  redactedKeys: ReadonlySet<string>,
): ObservationResult {
  const consumerId = message.consumer_id || UNKNOWN_CONSUMER;
  if (!CONSUMER_ID_PATTERN.test(consumerId)) return { skipped: 'consumer_id' };
  const environment = message.environment || 'dev';
  if (!ENVIRONMENT_PATTERN.test(environment)) return { skipped: 'environment' };
  const request = message.request;
  const response = message.response;
  if (!request || !response) return { skipped: 'missing_request_or_response' };
  const operation = resolved.matcher.match(request.method, request.path);
  if (!operation) return { skipped: 'route' };
  // Checked before anything below reads a body: each of those steps costs the main thread per byte.
  if (request.body.length > LIMITS.recordingMaxBodyChars || response.body.length > LIMITS.recordingMaxBodyChars) return { skipped: 'body_size' };

  const requestBody = redactBody(request.body, redactedKeys);
  const responseBody = redactBody(response.body, redactedKeys);
  const redactedRequest = {
    method: request.method.toUpperCase(), path: request.path, headers: redactHeaders(request.headers, redactedKeys), body: requestBody.text,
  };
  const redactedResponse = {
    status_code: response.status_code, headers: redactHeaders(response.headers, redactedKeys), body: responseBody.text,
  };
  const received = fieldPaths(responseBody.value);
  const read = message.read_fields_tracked ? message.read_fields.slice(0, MAX_READ_FIELDS) : received;
  const readSet = new Set(read);
  return {
    observation: {
      consumerId, environment, schemaId: message.schema_id, schemaVersion: resolved.version,
      method: operation.method, path: operation.path, status: response.status_code, valid: message.valid,
      usedFields: read,
      receivedFields: message.read_fields_tracked ? received.filter((field) => !readSet.has(field)) : [],
      shape: shapeDigest([redactedRequest.method, requestBody.value, response.status_code, responseBody.value]),
      interactionJson: JSON.stringify({ request: redactedRequest, response: redactedResponse }),
    },
  };
}
