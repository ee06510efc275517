/**
 * Recorded usage on the main thread: aggregates per consumer × schema × environment × operation ×
 * status kept in memory (bounded by `maxUsageKeys`) and written to storage every `flushIntervalMs`;
 * new interaction shapes become samples (bounded per key in storage, and while pending). Recording
 * is fire-and-forget for the sender: a full registry drops and counts, it never pushes back.
 */
import type { Logger } from '../logger';
import type { InteractionSampleRecord, Storage, UsageFilter, UsageRecord } from '../storage/storage';
import { usageKeyString } from '../storage/usage-keys';
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
  readonly #usage = new Map<string, UsageRecord>();
  /** Shapes known per key (stored or pending), so a repeated shape is not written again. */
  readonly #shapes = new Map<string, Set<string>>();
  readonly #dirty = new Set<string>();
  #pendingSamples: InteractionSampleRecord[] = [];
  readonly #dropped = new Map<DropReason, number>();
  #timer: NodeJS.Timeout | undefined;
  #retentionTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
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
    for (const record of await storage.listUsage({})) registry.#usage.set(usageKeyString(record), record);
    for (const sample of await storage.listSamples({})) registry.#knownShapes(usageKeyString(sample)).add(sample.shape);
    registry.#timer = setInterval(() => void registry.flush(), registry.limits.flushIntervalMs).unref();
    registry.#retentionTimer = setInterval(() => void registry.applyRetention(), registry.limits.retentionSweepMs).unref();
    return registry;
  }

  /** Adds one interaction; false (and counted) when a limit dropped it. */
  observe(observation: UsageObservation, nowMs = Date.now()): boolean {
    const key = usageKeyString(observation);
    const now = Math.floor(nowMs / 1000);
    let record = this.#usage.get(key);
    if (!record) {
      if (this.#usage.size >= this.limits.maxUsageKeys) return this.#drop('usage_keys');
      record = {
        consumerId: observation.consumerId, schemaId: observation.schemaId, environment: observation.environment,
        method: observation.method, path: observation.path, status: observation.status, schemaVersion: observation.schemaVersion,
        callCount: 0, validCount: 0, firstSeenAt: now, lastSeenAt: now, usedFields: [], receivedFields: [],
      };
      this.#usage.set(key, record);
    }
    record.callCount++;
    if (observation.valid) record.validCount++;
    record.lastSeenAt = now;
    record.schemaVersion = observation.schemaVersion;
    mergeFields(record, observation, this.limits.maxFieldsPerKey);
    this.#dirty.add(key);

    const shapes = this.#knownShapes(key);
    if (shapes.has(observation.shape)) return true;
    if (observation.interactionJson.length > this.limits.maxSampleBytes) return this.#drop('sample_bytes');
    if (this.#pendingSamples.length >= this.limits.maxPendingSamples) return this.#drop('pending_samples');
    // Forget the oldest known shapes beyond twice the kept count: storage keeps the newest anyway.
    if (shapes.size >= this.limits.samplesPerKey * 2) shapes.delete(shapes.values().next().value!);
    shapes.add(observation.shape);
    this.#pendingSamples.push({
      consumerId: observation.consumerId, schemaId: observation.schemaId, environment: observation.environment,
      method: observation.method, path: observation.path, status: observation.status, shape: observation.shape,
      schemaVersion: observation.schemaVersion, valid: observation.valid, recordedAt: now, interactionJson: observation.interactionJson,
    });
    return true;
  }

  /** Usage rows matching the filter (what is in memory includes what is not flushed yet). */
  list(filter: UsageFilter): UsageRecord[] {
    return [...this.#usage.values()].filter((record) => (filter.schemaId === undefined || record.schemaId === filter.schemaId)
      && (filter.consumerId === undefined || record.consumerId === filter.consumerId)
      && (filter.environment === undefined || record.environment === filter.environment));
  }

  /** Samples kept in storage (after a flush, so pending ones are included). */
  async samples(filter: UsageFilter): Promise<InteractionSampleRecord[]> {
    await this.flush();
    return this.#storage.listSamples(filter);
  }

  /** Writes pending usage and samples; calls queue behind one another. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#writePending()).catch((error: unknown) => {
      this.#logger?.error({ caller: 'usage-registry', err: error }, 'recorded usage could not be written; it is kept for the next flush');
    });
    return this.#flushing;
  }

  /** Removes usage not seen within `retentionMs`. */
  async applyRetention(nowMs = Date.now()): Promise<number> {
    const before = Math.floor((nowMs - this.limits.retentionMs) / 1000);
    return this.purge({ before });
  }

  /** Removes usage and samples matching the filter, in memory and in storage. */
  async purge(filter: UsageFilter): Promise<number> {
    await this.flush();
    for (const [key, record] of this.#usage) {
      const matches = (filter.schemaId === undefined || record.schemaId === filter.schemaId)
        && (filter.consumerId === undefined || record.consumerId === filter.consumerId)
        && (filter.environment === undefined || record.environment === filter.environment)
        && (filter.before === undefined || record.lastSeenAt < filter.before);
      if (matches) {
        this.#usage.delete(key);
        this.#shapes.delete(key);
      }
    }
    return this.#storage.deleteUsage(filter);
  }

  /** Interactions dropped by a limit since start, by reason. */
  dropped(): Record<DropReason, number> {
    return { usage_keys: this.#dropped.get('usage_keys') ?? 0, pending_samples: this.#dropped.get('pending_samples') ?? 0, sample_bytes: this.#dropped.get('sample_bytes') ?? 0 };
  }

  get size(): number {
    return this.#usage.size;
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
    if (this.#dirty.size === 0 && this.#pendingSamples.length === 0) return;
    const usage = [...this.#dirty].map((key) => this.#usage.get(key)).filter((record) => record !== undefined).map((record) => structuredClone(record));
    const samples = this.#pendingSamples;
    this.#dirty.clear();
    this.#pendingSamples = [];
    try {
      for (let i = 0; i < Math.max(usage.length, samples.length); i += WRITE_CHUNK) {
        await this.#storage.saveUsage(usage.slice(i, i + WRITE_CHUNK), samples.slice(i, i + WRITE_CHUNK), this.limits.samplesPerKey);
      }
    } catch (error) {
      for (const record of usage) this.#dirty.add(usageKeyString(record));
      throw error;
    }
  }

  #knownShapes(key: string): Set<string> {
    let shapes = this.#shapes.get(key);
    if (!shapes) this.#shapes.set(key, (shapes = new Set()));
    return shapes;
  }

  #drop(reason: DropReason): false {
    this.#dropped.set(reason, (this.#dropped.get(reason) ?? 0) + 1);
    return false;
  }
}

/** Rows per storage write (PostgreSQL takes at most 65,535 parameters a statement). */
const WRITE_CHUNK = 500;

function mergeFields(record: UsageRecord, observation: UsageObservation, maxFields: number): void {
  const used = new Set(record.usedFields);
  for (const field of observation.usedFields) if (used.size + record.receivedFields.length < maxFields) used.add(field);
  const received = new Set(record.receivedFields.filter((field) => !used.has(field)));
  for (const field of observation.receivedFields) {
    if (!used.has(field) && used.size + received.size < maxFields) received.add(field);
  }
  record.usedFields = [...used].sort();
  record.receivedFields = [...received].sort();
}
