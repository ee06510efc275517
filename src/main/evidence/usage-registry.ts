/**
 * Recorded usage on the main thread: what was seen per consumer × schema × environment × operation ×
 * status since the last flush is gathered in memory and added to storage every `flushIntervalMs`
 * (counts add, fields unite: usage-merge.ts), so replicas recording the same keys lose nothing; reads
 * go to storage, which holds every replica's flushed usage. Keys are bounded by `maxUsageKeys` (the
 * stored ones this replica knows and its own new ones); new interaction shapes become samples
 * (bounded per key in storage, and while pending). Recording is fire-and-forget for the sender: a
 * full registry drops and counts, it never pushes back.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from '../logger';
import { LIMITS } from '../../shared/limits';
import { rateLimited, withSuppressed } from '../log-rate-limit';
import { KeyedMutex } from '../storage/keyed-mutex';
import type { InteractionSampleRecord, SampleListOptions, Storage, UsageCountRecord, UsageFilter, UsageRecord } from '../storage/storage';
import { usageKeyString } from '../storage/usage-keys';
import { mergeUsage, uniteFields } from '../storage/usage-merge';
import { DEFAULT_RECORDING_LIMITS, type RecordingLimits } from './recording-limits';

/** One interaction, resolved and redacted, as the recording service hands it over. */
export interface UsageObservation {
  consumerId: string;
  schemaId: string;
  schemaVersion: string;
  environment: string;
  method: string;
  path: string;
  status: number;
  valid: boolean;
  usedFields: string[];
  receivedFields: string[];
  shape: string;
  interactionJson: string;
}

export type DropReason = 'usage_keys' | 'pending_samples' | 'sample_bytes';

export class UsageRegistry {
  readonly limits: RecordingLimits;
  readonly #storage: Storage;
  readonly #logger: Logger | undefined;
  /** Reads of the store, one after another (#readInTurn). */
  readonly #reads = new KeyedMutex();
  /** What was seen per key since the last flush: additions to the stored rows. */
  #pending = new Map<string, UsageRecord>();
  /** Keys stored (as of start or the last purge) or pending: what `maxUsageKeys` bounds. */
  #knownKeys = new Set<string>();
  /** Shapes known per key (stored or pending), so a repeated shape is not written again. */
  readonly #shapes = new Map<string, Set<string>>();
  #pendingSamples: InteractionSampleRecord[] = [];
  readonly #dropped = new Map<DropReason, number>();
  #timer: NodeJS.Timeout | undefined;
  #retentionTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  /** Every RecordInteractions call writes: a client causes one line a call while the store refuses writes. */
  readonly #logWriteFailed = rateLimited(LIMITS.usageWriteFailedLogLinesPerMinute, 60_000);
  #closed = false;

  private constructor(storage: Storage, limits: RecordingLimits, logger: Logger | undefined) {
    this.#storage = storage;
    this.limits = limits;
    this.#logger = logger;
  }

  /** Loads what is kept, applies retention, and starts the flush and retention timers. */
  static async open(storage: Storage, options: { limits?: Partial<RecordingLimits>; logger?: Logger } = {}): Promise<UsageRegistry> {
    const registry = new UsageRegistry(storage, { ...DEFAULT_RECORDING_LIMITS, ...options.limits }, options.logger);
    await registry.applyRetention();
    await registry.#loadKnownKeys();
    await registry.#loadKnownShapes();
    registry.#timer = setInterval(() => void registry.flush(), registry.limits.flushIntervalMs).unref();
    registry.#retentionTimer = setInterval(() => void registry.applyRetention(), registry.limits.retentionSweepMs).unref();
    return registry;
  }

  /**
   * Adds one interaction. Undefined when it was kept whole; else the limit that stopped it (counted):
   * `usage_keys` drops it, `sample_bytes` and `pending_samples` count its usage without its sample.
   */
  observe(observation: UsageObservation, nowMs = Date.now()): DropReason | undefined {
    const key = usageKeyString(observation);
    const now = Math.floor(nowMs / 1000);
    let record = this.#pending.get(key);
    if (!record) {
      if (!this.#knownKeys.has(key) && this.#knownKeys.size >= this.limits.maxUsageKeys) return this.#drop('usage_keys');
      this.#knownKeys.add(key);
      record = {
        consumerId: observation.consumerId, schemaId: observation.schemaId, environment: observation.environment,
        method: observation.method, path: observation.path, status: observation.status, schemaVersion: observation.schemaVersion,
        callCount: 0, validCount: 0, firstSeenAt: now, lastSeenAt: now, usedFields: [], receivedFields: [],
      };
      this.#pending.set(key, record);
    }
    record.callCount++;
    if (observation.valid) record.validCount++;
    record.lastSeenAt = now;
    record.schemaVersion = observation.schemaVersion;
    Object.assign(record, uniteFields(record, observation, this.limits.maxFieldsPerKey));

    const shapes = this.#knownShapes(key);
    if (shapes.has(observation.shape)) return undefined;
    // In UTF-8 bytes, as the stores count samples against maxSampleBytesTotal.
    if (Buffer.byteLength(observation.interactionJson, 'utf8') > this.limits.maxSampleBytes) return this.#drop('sample_bytes');
    if (this.#pendingSamples.length >= this.limits.maxPendingSamples) return this.#drop('pending_samples');
    // Forget the oldest known shapes beyond twice the kept count: storage keeps the newest anyway.
    if (shapes.size >= this.limits.samplesPerKey * 2) shapes.delete(shapes.values().next().value!);
    shapes.add(observation.shape);
    this.#pendingSamples.push({
      consumerId: observation.consumerId, schemaId: observation.schemaId, environment: observation.environment,
      method: observation.method, path: observation.path, status: observation.status, shape: observation.shape,
      schemaVersion: observation.schemaVersion, valid: observation.valid, recordedAt: now, interactionJson: observation.interactionJson,
    });
    return undefined;
  }

  /**
   * Usage rows matching the filter, from storage after a flush: every replica's, as of its last
   * flush. The rows carry their field lists (up to maxFieldsPerKey each): read them for as few
   * keys as the work needs, a consumer at a time.
   */
  async list(filter: UsageFilter): Promise<UsageRecord[]> {
    await this.flush();
    return this.#readInTurn(() => this.#storage.listUsage(filter));
  }

  /** The same rows without their field lists (which the store then does not read). */
  async counts(filter: UsageFilter): Promise<UsageCountRecord[]> {
    await this.flush();
    return this.#readInTurn(() => this.#storage.listUsageCounts(filter));
  }

  /** Samples kept in storage (after a flush, so pending ones are included), newest first, bounded by `options` in the store. */
  async samples(filter: UsageFilter, options?: SampleListOptions): Promise<InteractionSampleRecord[]> {
    await this.flush();
    return this.#readInTurn(() => this.#storage.listSamples(filter, options));
  }

  /**
   * Runs a read in a turn of the event loop of its own, after the reads asked for before it: with
   * SQLite a read holds the main thread (200 samples of 64 KiB: 15–20 ms), and a CanIDeploy's
   * consumers read theirs one after another, other calls running in between.
   */
  #readInTurn<T>(read: () => Promise<T>): Promise<T> {
    return this.#reads.run('read', async () => {
      await nextTurn();
      return read();
    });
  }

  /** Writes pending usage and samples; calls queue behind one another. A failure is logged, and what was not written is kept for the next flush. */
  flush(): Promise<void> {
    return this.persist().catch(() => undefined);
  }

  /**
   * As `flush`, but rejects with the store's error when the write failed: RecordInteractions answers
   * with it instead of acknowledging interactions that a store which cannot take writes would lose.
   */
  persist(): Promise<void> {
    const written = this.#flushing.then(() => this.#writePending());
    this.#flushing = written.catch((error: unknown) => {
      this.#logWriteFailed((suppressed) => this.#logger?.error(
        withSuppressed({ caller: 'usage-registry', err: error }, suppressed),
        'recorded usage could not be written; it is kept for the next flush',
      ));
    });
    return written;
  }

  /** Removes usage not seen within `retentionMs`. */
  async applyRetention(nowMs = Date.now()): Promise<number> {
    const before = Math.floor((nowMs - this.limits.retentionMs) / 1000);
    return this.purge({ before });
  }

  /** Removes usage and samples matching the filter, in memory and in storage. */
  async purge(filter: UsageFilter): Promise<number> {
    await this.flush();
    const removed = await this.#storage.deleteUsage(filter);
    await this.#loadKnownKeys();
    // Read again, not only trimmed to the keys left: another replica's purges reach this memory
    // here too (at the hourly retention sweep at the latest), and a shape it removed is sampled again.
    await this.#loadKnownShapes();
    return removed;
  }

  /** Interactions dropped by a limit since start, by reason. */
  dropped(): Record<DropReason, number> {
    return { usage_keys: this.#dropped.get('usage_keys') ?? 0, pending_samples: this.#dropped.get('pending_samples') ?? 0, sample_bytes: this.#dropped.get('sample_bytes') ?? 0 };
  }

  /** Keys this replica counts against `maxUsageKeys`. */
  get size(): number {
    return this.#knownKeys.size;
  }

  /** Idempotent: stops the timers and writes what is pending. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    clearInterval(this.#retentionTimer);
    await this.flush();
  }

  async #writePending(): Promise<void> {
    if (this.#pending.size === 0 && this.#pendingSamples.length === 0) return;
    const additions = [...this.#pending.values()];
    const samples = this.#pendingSamples;
    this.#pending = new Map();
    this.#pendingSamples = [];
    const { samplesPerKey, maxFieldsPerKey, maxSampleBytesTotal } = this.limits;
    let usageWritten = 0;
    let samplesWritten = 0;
    try {
      while (usageWritten < additions.length || samplesWritten < samples.length) {
        // SQLite writes hold the main thread: other calls run between portions.
        if (usageWritten + samplesWritten > 0) await nextTurn();
        const usage = additions.slice(usageWritten, usageWritten + WRITE_CHUNK);
        const samplesEnd = portionEnd(samples, samplesWritten);
        await this.#storage.addUsage(usage, samples.slice(samplesWritten, samplesEnd), { samplesPerKey, maxFieldsPerKey, maxSampleBytesTotal });
        usageWritten += usage.length;
        samplesWritten = samplesEnd;
      }
    } catch (error) {
      // A portion is added whole or not at all (Storage.addUsage): what was not added goes back in
      // front of what was seen since, samples within maxPendingSamples. A sample past that forgets
      // its shape, so that the next interaction of the shape is sampled again.
      for (const addition of additions.slice(usageWritten)) {
        const key = usageKeyString(addition);
        const since = this.#pending.get(key);
        this.#pending.set(key, since === undefined ? addition : mergeUsage(addition, since, maxFieldsPerKey));
      }
      const unwritten = samples.slice(samplesWritten);
      const room = Math.max(0, this.limits.maxPendingSamples - this.#pendingSamples.length);
      this.#pendingSamples = [...unwritten.slice(0, room), ...this.#pendingSamples];
      for (const sample of unwritten.slice(room)) this.#shapes.get(usageKeyString(sample))?.delete(sample.shape);
      throw error;
    }
  }

  async #loadKnownKeys(): Promise<void> {
    this.#knownKeys = new Set([...(await this.#storage.listUsageCounts({})).map(usageKeyString), ...this.#pending.keys()]);
  }

  /** The stored shapes and those waiting to be written. Shapes only: reading every body once took 6.6 s and 1.7 GB for 25,000 samples. */
  async #loadKnownShapes(): Promise<void> {
    const stored = await this.#storage.listSampleShapes();
    this.#shapes.clear();
    for (const sample of [...stored, ...this.#pendingSamples]) this.#knownShapes(usageKeyString(sample)).add(sample.shape);
  }

  #knownShapes(key: string): Set<string> {
    let shapes = this.#shapes.get(key);
    if (!shapes) this.#shapes.set(key, (shapes = new Set()));
    return shapes;
  }

  #drop(reason: DropReason): DropReason {
    this.#dropped.set(reason, (this.#dropped.get(reason) ?? 0) + 1);
    return reason;
  }
}

/** Rows per storage write (PostgreSQL takes at most 65,535 parameters a statement). */
const WRITE_CHUNK = 500;
/**
 * Characters of samples per storage write: SQLite writes about 0.3 ms of main thread per 60 KB
 * sample, and one write of 2,000 of them held every call 569 ms.
 */
const WRITE_CHUNK_CHARS = 1024 * 1024;

/** Where the portion of `samples` written from `start` ends: WRITE_CHUNK samples or WRITE_CHUNK_CHARS at most, one at least. */
function portionEnd(samples: readonly InteractionSampleRecord[], start: number): number {
  let end = start;
  let chars = 0;
  while (end < samples.length && end - start < WRITE_CHUNK && (end === start || chars + samples[end]!.interactionJson.length <= WRITE_CHUNK_CHARS)) {
    chars += samples[end]!.interactionJson.length;
    end++;
  }
  return end;
}
