/**
 * Why a recorded interaction was not kept: a limit (the usage registry's, the stream's, or one on
 * the size of a single interaction), or what made it unusable as evidence. Answered in
 * RecordInteractions' message (worded here, the one place) and counted in
 * `svc_recorded_interactions_total{outcome="dropped", reason}`.
 */
import { LIMITS, formatBytes } from '../../shared/limits';
import type { RecordingLimits } from './recording-limits';
import type { DropReason as UsageDropReason } from './usage-registry';

export const RECORDING_DROP_REASONS = Object.freeze([
  'limit', 'stream_limit', 'header_entries', 'header_size', 'path_size', 'body_size', 'body_depth', 'read_field_size', 'unknown_schema', 'consumer_id', 'environment', 'missing_request_or_response', 'route',
  'server_busy',
  // Kept, but the store refused their write: the call failed (counted only, never in an answer's message).
  'not_stored',
] as const);
export type RecordingDropReason = (typeof RECORDING_DROP_REASONS)[number];

/**
 * Limits on one interaction's size, checked before it is read (header entries and read-field paths
 * on its wire bytes, bodies by their length), worded with the limit's name. A call that drops interactions for one of
 * these logs one info line (at most droppedInteractionLogLinesPerMinute, all calls together).
 */
const INTERACTION_LIMIT_TEXT: Readonly<Partial<Record<RecordingDropReason, string>>> = Object.freeze({
  header_entries: `over the limit of ${LIMITS.validationMaxHeaderEntries} header entries (validationMaxHeaderEntries)`,
  header_size: `with headers over the limit of ${LIMITS.recordingMaxHeaderChars} characters (recordingMaxHeaderChars)`,
  path_size: `with a path over the limit of ${LIMITS.validationMaxPathChars} characters (validationMaxPathChars)`,
  body_size: `with a body over the limit of ${LIMITS.recordingMaxBodyChars} characters (recordingMaxBodyChars)`,
  body_depth: `with a body nesting arrays/objects deeper than the limit of ${LIMITS.validationMaxBodyDepth} levels (maxBodyDepth)`,
  read_field_size: `with a read field over the limit of ${LIMITS.recordingMaxReadFieldBytes} bytes (recordingMaxReadFieldBytes)`,
});

/** Reasons worded otherwise than by their name. */
const REASON_TEXT: Readonly<Partial<Record<RecordingDropReason, string>>> = Object.freeze({
  ...INTERACTION_LIMIT_TEXT,
  server_busy: `while the caller's document-task queue was full (documentTaskMaxQueuedPerCaller) for its large bodies or its version's operation listing`,
});

export function isInteractionLimit(reason: RecordingDropReason): boolean {
  return reason in INTERACTION_LIMIT_TEXT;
}

/** The usage registry's limits (reason `limit`), worded with the server's configured values. */
function usageLimitText(reason: UsageDropReason, limits: RecordingLimits): string {
  switch (reason) {
    case 'usage_keys': return `over the limit of ${limits.maxUsageKeys} usage rows (maxUsageKeys)`;
    case 'sample_bytes': return `counted, but with a sample over the limit of ${formatBytes(limits.maxSampleBytes)} (maxSampleBytes)`;
    case 'pending_samples': return `counted, but with a sample past the ${limits.maxPendingSamples} waiting to be stored (maxPendingSamples)`;
  }
}

/**
 * RecordInteractions' message: empty when everything was kept, else
 * `not kept: 2 route, 1 over the limit of …`; `limit` is told apart by `usageLimited`.
 */
export function notKeptMessage(
  dropped: ReadonlyMap<RecordingDropReason, number>,
  usageLimited: ReadonlyMap<UsageDropReason, number>,
  limits: RecordingLimits,
): string {
  if (dropped.size === 0) return '';
  const reasons = [...dropped].flatMap(([reason, count]) => (reason === 'limit'
    ? [...usageLimited].map(([limit, limitCount]) => `${limitCount} ${usageLimitText(limit, limits)}`)
    : [`${count} ${REASON_TEXT[reason] ?? reason.replaceAll('_', ' ')}`]));
  return `not kept: ${reasons.join(', ')}`;
}
