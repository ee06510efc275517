/**
 * What recorded traffic adds to a CanIDeploy: observed consumers (traffic, no registration), the
 * fields each consumer was seen to use per endpoint, and the samples to replay (docs/evidence.md).
 */
import type { ConsumerImpact__Output } from '@svc/client/protocol';
import { changeKey, endpointKeys, type BreakingChangeRecord } from '../../shared/compare';
import type { ServiceContext } from '../service-context';
import { LIMITS } from '../../shared/limits';
import type { ConsumerRecord, UsageRecord } from '../storage/storage';
import { operationKey } from '../storage/usage-keys';
import type { ConsumerSamples } from './replay';

/**
 * Usage rows read with their field lists in one read at most (up to maxFieldsPerKey fields each:
 * 500 rows of 500 fields take about 35 ms with SQLite); beyond it they are read a consumer at a time.
 */
const USAGE_ROWS_READ_AT_ONCE = 500;

export interface DeployEvidence {
  /** Consumers with recorded traffic and no registration (only with include_observed). */
  observed: ConsumerRecord[];
  isObserved(consumer: ConsumerRecord): boolean;
  /** Used fields (declared and observed) on the change's endpoint; undefined when none are known. */
  usedFieldsOf(consumer: ConsumerRecord, change: BreakingChangeRecord): readonly string[] | undefined;
  /** The consumer's recorded samples, read when replayed. */
  samplesOf(consumer: ConsumerRecord): ConsumerSamples;
}

export async function gatherEvidence(
  ctx: ServiceContext,
  input: { schemaId: string; environment: string; registered: readonly ConsumerRecord[]; includeObserved: boolean },
): Promise<DeployEvidence> {
  const filter = { schemaId: input.schemaId, environment: input.environment };
  // Who has traffic first; then, when the rows are many, each one's rows with their fields in turns
  // of their own: the whole schema's (10,000 keys of 500 fields) held the main thread 700–930 ms in one read.
  const rows = await ctx.usage.counts(filter);
  let usageByConsumer: Map<string, UsageRecord[]>;
  if (rows.length <= USAGE_ROWS_READ_AT_ONCE) {
    usageByConsumer = groupBy(await ctx.usage.list(filter), (record) => record.consumerId);
  } else {
    usageByConsumer = new Map();
    for (const { consumerId } of rows) {
      if (!usageByConsumer.has(consumerId)) usageByConsumer.set(consumerId, await ctx.usage.list({ ...filter, consumerId }));
    }
  }
  // Samples are read per consumer when replayed, only the ones replayed: reading all of a schema's
  // (25,000 of 60 KB) held the main thread 6.6–14 s at 3–4 GB, with or without consumers to replay for.
  const replaySlots = createSlots(LIMITS.replayConsumersAtOnce);
  const registeredIds = new Set(input.registered.map((consumer) => consumer.consumerId));
  const observed = input.includeObserved
    ? [...usageByConsumer].filter(([consumerId]) => !registeredIds.has(consumerId)).map(([, records]) => observedConsumer(records))
    : [];
  const observedIds = new Set(observed.map((consumer) => consumer.consumerId));
  // A deploy check asks about one consumer's changes together: only the last consumer's fields are kept.
  let usedFields: { consumer: ConsumerRecord; byKey: Map<string, readonly string[]> } | undefined;
  return {
    observed,
    isObserved: (consumer) => observedIds.has(consumer.consumerId),
    samplesOf: (consumer) => ({
      // A consumer with no recorded traffic has nothing to read: it takes no slot.
      replayNewest: (limit, replay) => (usageByConsumer.has(consumer.consumerId)
        ? replaySlots(async () => replay(await ctx.usage.samples({ ...filter, consumerId: consumer.consumerId }, { validOnly: true, limit })))
        : replay([])),
    }),
    usedFieldsOf: (consumer, change) => {
      if (usedFields?.consumer !== consumer) {
        usedFields = { consumer, byKey: usedFieldsByChangeKey([...consumer.usedEndpoints, ...usageByConsumer.get(consumer.consumerId) ?? []]) };
      }
      return usedFields.byKey.get(changeKey(change));
    },
  };
}

/**
 * A consumer's used fields (declared and observed) by the key of the changes that reach them, made
 * once per consumer: looking through every endpoint for every change held the main thread 1.5 s for
 * one consumer of 1,000 endpoints meeting 9,000 changes.
 */
function usedFieldsByChangeKey(endpoints: ReadonlyArray<{ method: string; path: string; usedFields: readonly string[] }>): Map<string, readonly string[]> {
  const fields = new Map<string, Set<string>>();
  for (const endpoint of endpoints) {
    if (endpoint.usedFields.length === 0) continue;
    for (const key of endpointKeys(endpoint)) {
      let set = fields.get(key);
      if (set === undefined) fields.set(key, (set = new Set()));
      for (const field of endpoint.usedFields) set.add(field);
    }
  }
  return new Map([...fields].map(([key, set]) => [key, [...set]]));
}

/** " 40 recorded interactions replayed (web 20, app 20)." or nothing when none were. */
export function replaySummary(impacts: readonly ConsumerImpact__Output[], replayed: number): string {
  if (replayed === 0) return '';
  const perConsumer = impacts.filter((impact) => impact.replayed_interactions > 0).map((impact) => `${impact.consumer_id} ${impact.replayed_interactions}`);
  const failing = impacts.reduce((sum, impact) => sum + impact.replay_failures.length, 0);
  const failed = failing === 0 ? 'all still valid' : `${failing} no longer valid`;
  return ` ${replayed} recorded interaction${replayed === 1 ? '' : 's'} replayed (${perConsumer.join(', ')}): ${failed}.`;
}

/** A consumer known from traffic alone: its endpoints and fields as recorded, judged from the newest version it was seen with. */
function observedConsumer(records: UsageRecord[]): ConsumerRecord {
  const newest = records.reduce((a, b) => (b.lastSeenAt > a.lastSeenAt ? b : a));
  const endpoints = new Map<string, { method: string; path: string; usedFields: Set<string> }>();
  for (const record of records) {
    const key = operationKey(record.method, record.path);
    let endpoint = endpoints.get(key);
    if (!endpoint) endpoints.set(key, (endpoint = { method: record.method, path: record.path, usedFields: new Set() }));
    record.usedFields.forEach((field) => endpoint.usedFields.add(field));
  }
  return {
    consumerId: newest.consumerId, consumerVersion: '', schemaId: newest.schemaId, schemaVersion: newest.schemaVersion,
    environment: newest.environment, registeredAt: newest.firstSeenAt, lastValidatedAt: newest.lastSeenAt,
    usedEndpoints: [...endpoints.values()].map((endpoint) => ({ method: endpoint.method, path: endpoint.path, usedFields: [...endpoint.usedFields].sort() })),
  };
}

/** Runs at most `count` tasks at once; the others wait in order of arrival. */
function createSlots(count: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = count;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // The slot passes straight to the next task, or is freed.
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
