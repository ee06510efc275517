/**
 * Why a recorded interaction was not kept: a limit (the usage registry's, or the stream's), or what
 * made it unusable as evidence. Answered in RecordInteractions' message (underscores read as spaces)
 * and counted in `svc_recorded_interactions_total{outcome="dropped", reason}`.
 */
export const RECORDING_DROP_REASONS = Object.freeze([
  'limit', 'stream_limit', 'unknown_schema', 'consumer_id', 'environment', 'missing_request_or_response', 'route',
] as const);
export type RecordingDropReason = (typeof RECORDING_DROP_REASONS)[number];
