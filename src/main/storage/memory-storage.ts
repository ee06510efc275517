/** Storage in process memory: for throwaway runs (`--storage memory`) and tests. Nothing survives a restart. */
import {
  holdsExpected, listedChars, type AppendDeploymentOptions, type ConsumerFilter, type ConsumerKey, type ConsumerUsedFields, type ConsumerRecord, type DeploymentFilter, type DeploymentRecord,
  type EnvironmentDeletion, type EnvironmentRecord, type ExpectedVersion, type SaveResult, type SchemaVersionRecord, type SchemaVersionWrite, type StoredDocument,
  type SchemaVersionSummary, type Storage, type InteractionSampleRecord, type SampleListOptions, type SampleShapeRecord, type UsageCountRecord, type UsageFilter, type UsageRecord, type UsageStoreLimits,
} from './storage';
import { environmentGone } from '../../shared/errors';
import { isBuiltInEnvironment } from '../../shared/identifiers';
import { schemaTextString } from '../../shared/schema-records';
import { consumerKeyString } from './consumer-key';
import { KeyedMutex } from './keyed-mutex';
import { mergeUsage } from './usage-merge';
import { compareUsage, matchesUsage, sampleKeyString, usageKeyString } from './usage-keys';

export class MemoryStorage implements Storage {
  readonly #schemas = new Map<string, SchemaVersionRecord>();
  /** The intake revision of each version's document, by the key of #schemas. */
  readonly #intakeRevisions = new Map<string, number>();
  readonly #consumers = new Map<string, ConsumerRecord>();
  /** Each stored registration's used-field characters, counted when it is written. */
  readonly #listedChars = new WeakMap<ConsumerRecord, number>();
  readonly #environments = new Map<string, EnvironmentRecord>();
  /** The deployment history, oldest first. */
  readonly #deployments: DeploymentRecord[] = [];
  readonly #usage = new Map<string, UsageRecord>();
  /** Samples by usage key, then by shape. */
  readonly #samples = new Map<string, Map<string, InteractionSampleRecord>>();
  /** UTF-8 bytes of every sample's interaction, kept as samples come and go (maxSampleBytesTotal). */
  #sampleBytes = 0;
  readonly #exclusive = new KeyedMutex();

  async loadSchemaIndex(): Promise<SchemaVersionSummary[]> {
    return [...this.#schemas.values()].map(toSummary);
  }

  async loadSchemaVersions(schemaId: string): Promise<SchemaVersionSummary[]> {
    return [...this.#schemas.values()].filter((record) => record.schemaId === schemaId).map(toSummary);
  }

  async getSchemaVersion(schemaId: string, version: string): Promise<SchemaVersionRecord | undefined> {
    const record = this.#schemas.get(schemaKey(schemaId, version));
    return record && structuredClone(record);
  }

  async getSchemaContentBytes(schemaId: string, version: string): Promise<Buffer | undefined> {
    const content = this.#schemas.get(schemaKey(schemaId, version))?.content;
    return content === undefined ? undefined : Buffer.from(content, 'utf8');
  }

  async getSchemaDocument(schemaId: string, version: string): Promise<StoredDocument | undefined> {
    const record = this.#schemas.get(schemaKey(schemaId, version));
    return record && { contentHash: record.contentHash, documentJson: record.documentJson, intakeRevision: this.#intakeRevisions.get(schemaKey(schemaId, version))! };
  }

  async updateSchemaDocument(schemaId: string, version: string, document: StoredDocument): Promise<boolean> {
    const key = schemaKey(schemaId, version);
    const record = this.#schemas.get(key);
    if (!record || record.contentHash !== document.contentHash || this.#intakeRevisions.get(key)! >= document.intakeRevision) return false;
    record.documentJson = document.documentJson;
    this.#intakeRevisions.set(key, document.intakeRevision);
    return true;
  }

  async saveSchemaVersion(record: SchemaVersionWrite, expected?: ExpectedVersion): Promise<SaveResult> {
    const key = schemaKey(record.schemaId, record.version);
    if (expected !== undefined) {
      const stored = this.#schemas.get(key);
      const current = stored && toSummary(stored);
      if (!holdsExpected(current, expected)) return { saved: false, current };
    }
    const { intakeRevision, ...stored } = record;
    this.#schemas.set(key, structuredClone({ ...stored, content: schemaTextString(record.content) }));
    this.#intakeRevisions.set(key, intakeRevision);
    return { saved: true };
  }

  async listConsumers(filter: ConsumerFilter): Promise<ConsumerRecord[]> {
    return [...this.#consumers.values()]
      .filter((c) => (filter.schemaId === undefined || c.schemaId === filter.schemaId)
        && (filter.environment === undefined || c.environment === filter.environment)
        && (filter.consumerId === undefined || c.consumerId === filter.consumerId))
      .sort(compareConsumers)
      .map((c) => structuredClone(c));
  }

  async consumerUsedFields(schemaId: string, environment?: string): Promise<ConsumerUsedFields> {
    let registrations = 0;
    let chars = 0;
    for (const consumer of this.#consumers.values()) {
      if (consumer.schemaId !== schemaId || (environment !== undefined && consumer.environment !== environment)) continue;
      registrations++;
      chars += this.#listedChars.get(consumer)!;
    }
    return { registrations, chars };
  }

  async getConsumer(key: ConsumerKey): Promise<ConsumerRecord | undefined> {
    const record = this.#consumers.get(consumerKeyString(key));
    return record && structuredClone(record);
  }

  async saveConsumer(record: ConsumerRecord): Promise<void> {
    this.#requireEnvironment(record.environment);
    const stored = structuredClone(record);
    this.#listedChars.set(stored, listedChars(stored.usedEndpoints));
    this.#consumers.set(consumerKeyString(record), stored);
  }

  async deleteConsumer(key: ConsumerKey, expected?: ConsumerRecord): Promise<boolean> {
    const stored = this.#consumers.get(consumerKeyString(key));
    if (stored && expected && !sameRegistration(stored, expected)) return false;
    return this.#consumers.delete(consumerKeyString(key));
  }

  async listEnvironments(): Promise<EnvironmentRecord[]> {
    return [...this.#environments.values()].sort((a, b) => compareCodeUnits(a.name, b.name)).map((e) => ({ ...e }));
  }

  async createEnvironment(record: EnvironmentRecord): Promise<boolean> {
    if (this.#environments.has(record.name)) return false;
    this.#environments.set(record.name, { ...record });
    return true;
  }

  async deleteEnvironment(name: string): Promise<EnvironmentDeletion> {
    if (!this.#environments.has(name)) return { outcome: 'not-found' };
    const consumers = [...this.#consumers.values()].filter((consumer) => consumer.environment === name).length;
    const deployments = this.#currentDeployments({ environment: name }).length;
    if (consumers > 0 || deployments > 0) return { outcome: 'in-use', consumers, deployments };
    this.#environments.delete(name);
    return { outcome: 'deleted' };
  }

  async appendDeployment(record: DeploymentRecord, options: AppendDeploymentOptions = {}): Promise<void> {
    if (!options.ofDeletedEnvironment) this.#requireEnvironment(record.environment);
    this.#deployments.push({ ...record });
  }

  async listDeployments(filter: DeploymentFilter, limit: number): Promise<DeploymentRecord[]> {
    const matching: DeploymentRecord[] = [];
    for (let i = this.#deployments.length - 1; i >= 0 && matching.length < limit; i--) {
      const record = this.#deployments[i]!;
      if (matchesDeployment(record, filter)) matching.push({ ...record });
    }
    return matching;
  }

  async currentDeployments(filter: DeploymentFilter): Promise<DeploymentRecord[]> {
    return this.#currentDeployments(filter).map((record) => ({ ...record }));
  }

  #currentDeployments(filter: DeploymentFilter): DeploymentRecord[] {
    const newest = new Map<string, DeploymentRecord>();
    for (const record of this.#deployments) {
      if (matchesDeployment(record, filter)) newest.set(`${record.schemaId}\u0000${record.environment}\u0000${record.consumerId}`, record);
    }
    return [...newest.values()].filter((record) => record.action === 'deployed').sort(compareDeployments);
  }

  #requireEnvironment(name: string): void {
    if (!isBuiltInEnvironment(name) && !this.#environments.has(name)) throw environmentGone(name);
  }

  async addUsage(additions: UsageRecord[], samples: InteractionSampleRecord[], limits: UsageStoreLimits): Promise<void> {
    const { samplesPerKey, maxFieldsPerKey, maxSampleBytesTotal } = limits;
    for (const added of additions) {
      const key = usageKeyString(added);
      this.#usage.set(key, mergeUsage(this.#usage.get(key), structuredClone(added), maxFieldsPerKey));
    }
    for (const sample of samples) {
      const key = usageKeyString(sample);
      let shapes = this.#samples.get(key);
      if (!shapes) this.#samples.set(key, (shapes = new Map()));
      this.#dropSample(shapes, sample.shape);
      shapes.set(sample.shape, { ...sample });
      this.#sampleBytes += Buffer.byteLength(sample.interactionJson);
      if (shapes.size > samplesPerKey) {
        const newestFirst = [...shapes.values()].sort((a, b) => b.recordedAt - a.recordedAt);
        for (const old of newestFirst.slice(samplesPerKey)) this.#dropSample(shapes, old.shape);
      }
    }
    if (this.#sampleBytes > maxSampleBytesTotal) this.#removeOldestSamplesOver(maxSampleBytesTotal);
  }

  #dropSample(shapes: Map<string, InteractionSampleRecord>, shape: string): void {
    const sample = shapes.get(shape);
    if (sample === undefined) return;
    shapes.delete(shape);
    this.#sampleBytes -= Buffer.byteLength(sample.interactionJson);
  }

  #removeOldestSamplesOver(maxBytes: number): void {
    const oldestFirst = [...this.#samples.values()].flatMap((shapes) => [...shapes.values()]).sort((a, b) => a.recordedAt - b.recordedAt);
    for (const sample of oldestFirst) {
      if (this.#sampleBytes <= maxBytes) return;
      const key = usageKeyString(sample);
      const shapes = this.#samples.get(key)!;
      this.#dropSample(shapes, sample.shape);
      if (shapes.size === 0) this.#samples.delete(key);
    }
  }

  async listUsage(filter: UsageFilter): Promise<UsageRecord[]> {
    return [...this.#usage.values()].filter((record) => matchesUsage(record, filter)).sort(compareUsage).map((record) => structuredClone(record));
  }

  async listUsageCounts(filter: UsageFilter): Promise<UsageCountRecord[]> {
    return [...this.#usage.values()].filter((record) => matchesUsage(record, filter)).sort(compareUsage)
      .map(({ usedFields: _used, receivedFields: _received, ...counts }) => counts);
  }

  async listSamples(filter: UsageFilter, options: SampleListOptions = {}): Promise<InteractionSampleRecord[]> {
    const matching: InteractionSampleRecord[] = [];
    for (const shapes of this.#samples.values()) {
      for (const sample of shapes.values()) if (matchesUsage(sample, filter) && (sample.valid || !options.validOnly)) matching.push(sample);
    }
    matching.sort((a, b) => b.recordedAt - a.recordedAt || (sampleKeyString(a) < sampleKeyString(b) ? -1 : 1));
    return matching.slice(0, options.limit ?? matching.length).map((sample) => ({ ...sample }));
  }

  async listSampleShapes(): Promise<SampleShapeRecord[]> {
    const shapes: SampleShapeRecord[] = [];
    for (const byShape of this.#samples.values()) {
      for (const { consumerId, schemaId, environment, method, path, status, shape } of byShape.values()) {
        shapes.push({ consumerId, schemaId, environment, method, path, status, shape });
      }
    }
    return shapes;
  }

  async deleteUsage(filter: UsageFilter): Promise<number> {
    let removed = 0;
    for (const [key, record] of this.#usage) {
      if (matchesUsage(record, filter)) this.#usage.delete(key), removed++;
    }
    for (const [key, shapes] of this.#samples) {
      for (const [shape, sample] of shapes) if (matchesUsage(sample, filter)) this.#dropSample(shapes, shape), removed++;
      if (shapes.size === 0) this.#samples.delete(key);
    }
    return removed;
  }

  exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    return this.#exclusive.run(key, work);
  }

  async close(): Promise<void> {}
}

function matchesDeployment(record: DeploymentRecord, filter: DeploymentFilter): boolean {
  return (filter.schemaId === undefined || record.schemaId === filter.schemaId)
    && (filter.environment === undefined || record.environment === filter.environment)
    && (filter.consumerId === undefined || record.consumerId === filter.consumerId);
}

/** The order every backend lists current deployments in: schema, environment, consumer id. */
function compareDeployments(a: DeploymentRecord, b: DeploymentRecord): number {
  return compareCodeUnits(a.schemaId, b.schemaId) || compareCodeUnits(a.environment, b.environment)
    || compareCodeUnits(a.consumerId, b.consumerId);
}

function toSummary({ content: _content, documentJson: _documentJson, ...summary }: SchemaVersionRecord): SchemaVersionSummary {
  return { ...summary, ownership: { ...summary.ownership } };
}

function schemaKey(schemaId: string, version: string): string {
  return `${schemaId}\u0000${version}`;
}

/** The order every backend lists consumers in: schema, environment, consumer id. */
export function compareConsumers(a: ConsumerRecord, b: ConsumerRecord): number {
  return compareCodeUnits(a.schemaId, b.schemaId) || compareCodeUnits(a.environment, b.environment)
    || compareCodeUnits(a.consumerId, b.consumerId);
}

/** Plain code-unit order, as SQLite's BINARY collation sorts (not locale order: `B1` before `a1`). */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether two registrations of one key hold the same: what a conditional delete compares. */
function sameRegistration(a: ConsumerRecord, b: ConsumerRecord): boolean {
  return a.consumerVersion === b.consumerVersion && a.schemaVersion === b.schemaVersion && a.lastValidatedAt === b.lastValidatedAt
    && JSON.stringify(a.usedEndpoints) === JSON.stringify(b.usedEndpoints);
}
