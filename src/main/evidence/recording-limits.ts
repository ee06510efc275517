/** Named limits of recorded usage (docs/evidence.md "Limits and retention"). */

/** Retention is configured in days (`--recording-retention-days`) and kept in milliseconds. */
export const MS_PER_DAY = 24 * 60 * 60 * 1000;

export interface RecordingLimits {
  /** Aggregate rows (consumer × schema × environment × operation × status) kept at most; new keys beyond it are dropped and counted. */
  maxUsageKeys: number;
  /** Distinct interaction shapes kept per key, newest first. */
  samplesPerKey: number;
  /** A redacted interaction larger than this is counted but not kept as a sample. */
  maxSampleBytes: number;
  /**
   * Bytes of all samples together; past it the oldest are removed, whatever their key. Per key the
   * limits allowed 10,000 keys × 20 samples × 64 KiB (12.5 GiB on disk), which one caller reaches by
   * varying its consumer id.
   */
  maxSampleBytesTotal: number;
  /** Field paths kept per key (used and received together). */
  maxFieldsPerKey: number;
  /** Samples waiting for the next flush at most; more are dropped and counted. */
  maxPendingSamples: number;
  /** How often pending usage is written to storage. */
  flushIntervalMs: number;
  /** Usage not seen for this long is removed. */
  retentionMs: number;
  /** How often retention runs. */
  retentionSweepMs: number;
  /** Interactions per RecordInteractions stream at most (a client opens a new stream per batch). */
  maxInteractionsPerStream: number;
}

export const DEFAULT_RECORDING_LIMITS: Readonly<RecordingLimits> = Object.freeze({
  maxUsageKeys: 10_000,
  samplesPerKey: 20,
  maxSampleBytes: 64 * 1024, // 64 KiB
  maxSampleBytesTotal: 1024 * 1024 * 1024, // 1 GiB
  maxFieldsPerKey: 500,
  maxPendingSamples: 2_000,
  flushIntervalMs: 1_000,
  retentionMs: 30 * MS_PER_DAY,
  retentionSweepMs: 3600 * 1000, // 1 hour
  maxInteractionsPerStream: 1_000_000,
});
