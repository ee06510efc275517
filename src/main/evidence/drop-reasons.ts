/**
 * Why a recorded interaction was not kept: a limit (the usage registry's, the stream's, or one on
 * the size of a single interaction), or what made it unusable as evidence. Answered in
 * RecordInteractions' message (worded here, the one place) and counted in
 * `svc_recorded_interactions_total{outcome="dropped", reason}`.
 */
import { LIMITS } from '../../shared/limits';

export const RECORDING_DROP_REASONS = Object.freeze([
  'limit', 'stream_limit', 'header_entries', 'body_size', 'unknown_schema', 'consumer_id', 'environment', 'missing_request_or_response', 'route',
] as const);
export type RecordingDropReason = (typeof RECORDING_DROP_REASONS)[number];

/**
 * Limits on one interaction's size, checked before it is read (header entries on its wire bytes,
 * bodies by their length), worded with the limit's name. A call that drops interactions for one of
 * these logs one info line.
 */
const INTERACTION_LIMIT_TEXT: Readonly<Partial<Record<RecordingDropReason, string>>> = Object.freeze({
  header_entries: `over the limit of ${LIMITS.validationMaxHeaderEntries} header entries (validationMaxHeaderEntries)`,
  body_size: `with a body over the limit of ${LIMITS.recordingMaxBodyChars} characters (recordingMaxBodyChars)`,
});

export function isInteractionLimit(reason: RecordingDropReason): boolean {
  return reason in INTERACTION_LIMIT_TEXT;
}

/** RecordInteractions' message: empty when everything was kept, else `not kept: 2 route, 1 over the limit of …`. */
export function notKeptMessage(dropped: ReadonlyMap<RecordingDropReason, number>): string {
  if (dropped.size === 0) return '';
  const reasons = [...dropped].map(([reason, count]) => `${count} ${INTERACTION_LIMIT_TEXT[reason] ?? reason.replaceAll('_', ' ')}`);
  return `not kept: ${reasons.join(', ')}`;
}
