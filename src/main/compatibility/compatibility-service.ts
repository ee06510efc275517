/**
 * CompareSchemas and CanIDeploy (spec "Breaking-change detection" and "Consumer impact rules"),
 * and the compatibility check of RegisterSchema. Every comparison goes through `ctx.compareVersions`
 * (version-comparisons.ts): off the main thread, cached by the pair of content hashes.
 */
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { ErrorCode, SvcError, messages } from '../../shared/errors';
import { checkEnvironment } from '../../shared/identifiers';
import { changesRelevantToEndpoints, toBreakingChangeWire, type BreakingChangeRecord } from '../../shared/compare';
import { DEFAULT_DEPLOY_ENVIRONMENT } from '@svc/client/protocol';
import type { BreakingChange__Output, CanIDeployRequest__Output, CanIDeployResponse, CompareSchemasRequest__Output, CompareSchemasResponse, ConsumerImpact__Output, ContractValidatorHandlers, SchemaMetadata__Output } from '@svc/client/protocol';
import { callerOf } from '../auth/principal';
import { recentVersions } from '../registry/consumer-registry';
import type { SchemaCandidate } from '../registry/schema-registry';
import { eventLoopTurns } from '../event-loop-turns';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';
import { toSchemaMetadata } from '../services/schema-wire';
import type { SchemaVersionSummary, ConsumerRecord } from '../storage/storage';
import { gatherEvidence, replaySummary } from '../evidence/deploy-evidence';
import { splitByUsedFields } from '../evidence/field-level-impact';
import { replaySamples } from '../evidence/replay';
import { createChangeListing, DEFAULT_LISTING_LIMITS, type ConsumerChangeLists } from './listed-changes';

/** Consumers named in a CanIDeploy summary; the rest are counted. */
const MAX_NAMED_CONSUMERS = 5;
/** Longest CanIDeploy judges consumers in one turn of the event loop before it lets other calls in. */
const JUDGING_TURN_MS = 10;

export function createCompatibilityHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  return {
    CompareSchemas: unary(ctx, 'CompareSchemas', (request, call) => compareSchemas(ctx, request, callerOf(call, ctx.trustedProxies), () => call.cancelled)),
    CanIDeploy: unary(ctx, 'CanIDeploy', (request, call) => canIDeploy(ctx, request, call)),
  };
}

/**
 * Empty old_version: the version before new by semantic-version order; empty new_version: the latest.
 * With new_content, the candidate document is compared without being registered.
 */
async function compareSchemas(ctx: ServiceContext, request: CompareSchemasRequest__Output, caller: string, gone: () => boolean): Promise<CompareSchemasResponse> {
  const schemaId = request.schema_id;
  try {
    const target = await comparisonTarget(ctx, schemaId, request.new_version, request.new_content, 'new_version', caller, gone);
    const newSchema = target.metadata;
    const oldVersion = request.old_version || target.previousVersion;
    if (oldVersion === undefined) {
      return {
        compatible: true,
        breaking_changes: [],
        new_schema: newSchema,
        message: `${schemaId} ${newSchema.schema_version} is the first version of the schema: there is no earlier version to compare it with`,
      };
    }
    await ctx.schemas.readThrough(schemaId, oldVersion);
    const oldSchema = resolveVersion(ctx, schemaId, oldVersion, 'old_version');
    const changes = await changesTo(ctx, schemaId, oldSchema.schema_version, target, caller, gone);
    return {
      compatible: changes.length === 0,
      breaking_changes: changes.map(toBreakingChangeWire),
      old_schema: oldSchema,
      new_schema: newSchema,
      message: '',
    };
  } catch (error) {
    // The server's own failures (a comparison thread that stopped, a bug) are not answers but the
    // call's status, so that clients retry rather than read "not compatible".
    if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE || error.code === ErrorCode.INTERNAL) throw error;
    return { compatible: false, breaking_changes: [], message: error.message };
  }
}

/** What a comparison or a deploy check judges: a registered version, or a candidate document that is not registered. */
interface ComparisonTarget {
  version: string;
  metadata: SchemaMetadata__Output;
  /** The registered version before `version`, if any. */
  previousVersion: string | undefined;
  /** Set for content that is not registered. */
  candidate: SchemaCandidate | undefined;
}

async function comparisonTarget(
  ctx: ServiceContext, schemaId: string, version: string, content: string, field: string, caller: string, gone: () => boolean,
): Promise<ComparisonTarget> {
  if (content !== '') {
    const candidate = await ctx.schemas.candidate(schemaId, content, version, caller, gone);
    return { version: candidate.version, metadata: toSchemaMetadata(candidate.metadata), previousVersion: candidate.previousVersion, candidate };
  }
  await ctx.schemas.readThrough(schemaId, version);
  const metadata = resolveVersion(ctx, schemaId, version, field);
  return { version: metadata.schema_version, metadata, previousVersion: ctx.schemas.previousVersion(schemaId, metadata.schema_version), candidate: undefined };
}

/** Breaking changes from a registered version to the target (registered or candidate). */
async function changesTo(
  ctx: ServiceContext, schemaId: string, fromVersion: string, target: ComparisonTarget, caller: string, gone: () => boolean,
): Promise<BreakingChangeRecord[]> {
  if (!target.candidate) return fromVersion === target.version ? [] : ctx.compareVersions(schemaId, fromVersion, target.version, caller, gone);
  return compareWithCandidate(ctx, schemaId, fromVersion, target.candidate, caller, gone);
}

/** Which version a deploy check compares with, and why (CanIDeployResponse.compared_with). */
type Baseline = { version: string; source: 'deployed' | 'previous' } | { version: undefined; source: 'none' };

/**
 * Spec "Consumer impact rules" 1-6, with these corrections (docs/deploy-gate.md):
 * - the environment must be known (a misspelt one is an error, not "no consumers, safe");
 * - the changes are counted from the version recorded as deployed in the environment when there is
 *   one, from the previous version otherwise, and the answer says which;
 * - a consumer is judged by the changes from the version it was tested against to new_version;
 * - new_version may be a candidate document that is not registered (candidate_content);
 * - fail_if_no_consumers turns "no consumers registered" into a negative answer.
 */
async function canIDeploy(
  ctx: ServiceContext,
  request: CanIDeployRequest__Output,
  call: ServerUnaryCall<CanIDeployRequest__Output, CanIDeployResponse>,
): Promise<CanIDeployResponse> {
  const schemaId = request.schema_id;
  const caller = callerOf(call, ctx.trustedProxies);
  const gone = () => call.cancelled;
  const environment = request.environment || DEFAULT_DEPLOY_ENVIRONMENT;
  checkEnvironment('environment', environment);
  await ctx.environments.require(environment, { create: false });
  const target = await comparisonTarget(ctx, schemaId, request.new_version, request.candidate_content, 'new_version', caller, gone);
  const newVersion = target.version;
  const deployment = await ctx.deployments.current({ schemaId, environment, consumerId: '' });
  // A deployed version registered again since: what runs there is gone, so the spec's previous version is the baseline.
  const deployed = deployment && !registeredAgainSince(ctx, schemaId, deployment.version, deployment.recordedAt) ? deployment.version : undefined;
  const baseline: Baseline = deployed !== undefined
    ? { version: deployed, source: 'deployed' }
    : target.previousVersion !== undefined ? { version: target.previousVersion, source: 'previous' } : { version: undefined, source: 'none' };
  const breaking = baseline.version === undefined ? [] : await changesTo(ctx, schemaId, baseline.version, target, caller, gone);

  const registered = await ctx.consumers.list(schemaId, environment);
  const evidence = await gatherEvidence(ctx, { schemaId, environment, registered, includeObserved: request.include_observed });
  const consumers = [...registered, ...evidence.observed];
  const candidateRef = target.candidate || request.skip_replay ? undefined : ctx.schemas.findVersionRef(schemaId, newVersion);
  // One comparison after another, each version once: a caller's comparisons run one at a time anyway
  // (threadsPerCaller), and a gate over many consumer versions must not meet documentTaskMaxQueuedPerCaller
  // by asking for all of them at once.
  const changesByVersion = new Map<string, BreakingChangeRecord[]>();
  const versionOf = (consumer: ConsumerRecord) => `${consumer.schemaId}\n${consumer.schemaVersion}`;
  for (const consumer of consumers) {
    requireTestedContent(ctx, consumer);
    const version = versionOf(consumer);
    if (!changesByVersion.has(version)) changesByVersion.set(version, await changesSinceTested(ctx, consumer, target, baseline, breaking, caller, gone));
  }
  // Consumers of one version that use the same endpoints meet the same changes: filtered once.
  const onEndpointsOf = new Map<string, BreakingChangeRecord[]>();
  const listing = createChangeListing();
  // Judged one after another, in their order (the lists' room goes to consumers in that order), in
  // turns of the event loop of at most JUDGING_TURN_MS: 300 consumers of 1,000 endpoints each meeting
  // 9,000 changes held other callers 260-360 ms in one piece, 680-1,070 ms with field-level impact.
  const judged: Array<{ consumer: ConsumerRecord; relevant: number; listed: ConsumerChangeLists }> = [];
  const turns = eventLoopTurns(JUDGING_TURN_MS);
  for (const consumer of consumers) {
    if (turns.due()) await turns.next();
    const version = versionOf(consumer);
    const endpointsKey = `${version}\n${consumer.usedEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`).join('\n')}`;
    let onEndpoints = onEndpointsOf.get(endpointsKey);
    if (onEndpoints === undefined) onEndpointsOf.set(endpointsKey, (onEndpoints = changesRelevantToEndpoints(changesByVersion.get(version)!, consumer.usedEndpoints)));
    const { reached: relevant, unreached } = request.field_level_impact
      ? splitByUsedFields(onEndpoints, (change) => evidence.usedFieldsOf(consumer, change))
      : { reached: onEndpoints, unreached: [] };
    judged.push({ consumer, relevant: relevant.length, listed: listing.listFor(relevant, unreached) });
  }
  const impacts: ConsumerImpact__Output[] = await Promise.all(judged.map(async ({ consumer, relevant, listed }) => {
    const replay = candidateRef ? await replaySamples(ctx, evidence.samplesOf(consumer), candidateRef) : { replayed: 0, failures: [] };
    return {
      consumer_id: consumer.consumerId,
      consumer_version: consumer.consumerVersion,
      current_schema_version: consumer.schemaVersion,
      environment: consumer.environment,
      will_break: relevant > 0 || replay.failures.length > 0,
      relevant_changes: listed.relevant,
      replay_failures: replay.failures,
      replayed_interactions: replay.replayed,
      observed: evidence.isObserved(consumer),
      unreached_changes: listed.unreached,
      omitted_changes: listed.omitted,
    };
  }));
  const replayed = impacts.reduce((sum, impact) => sum + impact.replayed_interactions, 0);
  const broken = impacts.filter((impact) => impact.will_break);
  const unchecked = impacts.length === 0 && request.fail_if_no_consumers;
  const safe = broken.length === 0 && !unchecked;
  ctx.audit('can_i_deploy_decision', {
    schemaId, schemaVersion: newVersion, environment, safeToDeploy: safe, affectedConsumers: broken.length,
    comparedWith: baseline.source, comparedWithVersion: baseline.version, candidate: target.candidate !== undefined,
  }, call);
  return {
    safe_to_deploy: safe,
    summary: deploySummary({ schemaId, newVersion, environment, baseline, breaking, impacts, broken, failIfNoConsumers: request.fail_if_no_consumers })
      + replaySummary(impacts, replayed) + omittedSummary(listing.omitted),
    breaking_changes: breaking.map(toBreakingChangeWire),
    affected_consumers: impacts,
    compared_with_version: baseline.version ?? '',
    compared_with: baseline.source,
    checked_version: newVersion,
    replayed_interactions: replayed,
  };
}

async function changesSinceTested(
  ctx: ServiceContext,
  consumer: ConsumerRecord,
  target: ComparisonTarget,
  baseline: Baseline,
  breaking: BreakingChangeRecord[],
  caller: string,
  gone: () => boolean,
): Promise<BreakingChangeRecord[]> {
  if (consumer.schemaVersion === baseline.version) return breaking;
  try {
    return await changesTo(ctx, consumer.schemaId, consumer.schemaVersion, target, caller, gone);
  } catch (error) {
    // Versions are never removed, so this is a store edited by hand: judge by rule 1 alone.
    if (!(error instanceof SvcError) || error.code !== ErrorCode.SCHEMA_VERSION_NOT_FOUND) throw error;
    ctx.logger.warn({ caller: 'compatibility', consumerId: consumer.consumerId, schemaVersion: consumer.schemaVersion }, 'consumer tested against a version that is not registered');
    return breaking;
  }
}

/**
 * Refuses to judge a consumer whose tested version was registered again since its test: what it was
 * tested against is gone, and comparing the version's new content would answer for a test never run
 * (a version updated to drop the consumer's endpoint was judged "no breaking changes").
 */
function requireTestedContent(ctx: ServiceContext, consumer: ConsumerRecord): void {
  const tested = registeredAgainSince(ctx, consumer.schemaId, consumer.schemaVersion, consumer.lastValidatedAt);
  if (!tested) return;
  throw new SvcError(
    ErrorCode.FAILED_PRECONDITION,
    `consumer ${consumer.consumerId} was tested against ${consumer.schemaId} ${consumer.schemaVersion}, which was registered again since `
      + `(${new Date(tested.updatedAt * 1000).toISOString()}): it cannot be checked. Test it against ${consumer.schemaVersion} as registered now and register it again `
      + '(a server that keeps published versions immutable, --immutable-versions, never meets this)',
  );
}

/**
 * The version's summary when it was registered again (new content or ownership) after `since` (Unix
 * seconds): what a consumer was tested against, or what was deployed, then. Whole seconds, so an
 * update within the same second as the test is not seen.
 */
function registeredAgainSince(ctx: ServiceContext, schemaId: string, version: string, since: number): SchemaVersionSummary | undefined {
  const summary = ctx.schemas.findSummary(schemaId, version);
  return summary && summary.updatedAt > summary.registeredAt && summary.updatedAt > since ? summary : undefined;
}

interface SummaryFacts {
  schemaId: string;
  newVersion: string;
  environment: string;
  baseline: Baseline;
  breaking: BreakingChangeRecord[];
  impacts: ConsumerImpact__Output[];
  broken: ConsumerImpact__Output[];
  failIfNoConsumers: boolean;
}

/** One paragraph a person can act on: the verdict, why, and what to do when unsafe. */
function deploySummary(facts: SummaryFacts): string {
  const { schemaId, newVersion, environment, baseline, breaking, impacts, broken } = facts;
  const target = `${schemaId} ${newVersion} to ${environment}`;
  const since = baseline.source === 'none'
    ? `(${newVersion} is the first version)`
    : baseline.source === 'deployed'
      ? `since ${baseline.version} (deployed in ${environment})`
      : `since ${baseline.version}`;
  const changeCount = plural(breaking.length, 'breaking change');
  if (impacts.length === 0) {
    if (facts.failIfNoConsumers) {
      return `Not safe to deploy ${target}: no consumers are registered for ${schemaId} in ${environment}, so nothing was checked (fail_if_no_consumers); ${changeCount} ${since}. Register the consumers in ${environment}, or record their deployments there.`;
    }
    const unchecked = breaking.length > 0 ? `; ${changeCount} ${since} went unchecked, register consumers to gate on them` : '';
    return `Safe to deploy ${target}: no consumers are registered for ${schemaId} in ${environment}${unchecked}.`;
  }
  const checked = plural(impacts.length, 'consumer');
  if (broken.length === 0) {
    return breaking.length === 0
      ? `Safe to deploy ${target}: no breaking changes ${since}; ${checked} checked.`
      : `Safe to deploy ${target}: ${changeCount} ${since}, none on an endpoint used by the ${checked} in ${environment}.`;
  }
  const named = broken.slice(0, MAX_NAMED_CONSUMERS).map(describeBroken).join('; ');
  const more = broken.length > MAX_NAMED_CONSUMERS ? `; and ${broken.length - MAX_NAMED_CONSUMERS} more` : '';
  return (
    `Not safe to deploy ${target}: ${broken.length} of ${checked} would break: ${named}${more}. ` +
    `Keep those endpoints compatible, or update the consumers and register them against ${newVersion} before deploying.`
  );
}

function describeBroken(impact: ConsumerImpact__Output): string {
  const endpoints = [...new Set([
    ...impact.relevant_changes.map((change) => (change.path === '' ? 'every endpoint' : `${change.method || 'any method'} ${change.path}`)),
    ...impact.replay_failures.map((failure) => `${failure.method} ${failure.path} (recorded ${failure.status_code} fails replay)`),
  ])];
  const version = impact.consumer_version ? ` ${impact.consumer_version}` : '';
  return `${impact.consumer_id}${version} (tested against ${impact.current_schema_version}) on ${endpoints.join(', ')}`;
}

/** " The consumers' change lists leave out 4,900 changes (…); each consumer's omitted_changes counts its own." or nothing. */
function omittedSummary(omitted: number): string {
  if (omitted === 0) return '';
  const { perConsumer, total } = DEFAULT_LISTING_LIMITS;
  return ` The consumers' change lists leave out ${plural(omitted, 'change')} (at most ${perConsumer} are listed per consumer and ${total} in all); `
    + 'each consumer\'s omitted_changes counts its own, and the verdict counts them all.';
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export interface CompatibilityCheck {
  breakingChanges: BreakingChange__Output[];
  /** For the RegisterSchema message: `3 breaking change(s) found since 1.0.0`, or why none could be looked for. */
  summary: string;
}

/**
 * RegisterSchema with check_compatibility: the changes from the version before the registered one
 * (semantic-version order) to the content just registered. The registration has already happened,
 * so a comparison that cannot complete is reported in the summary, not thrown.
 */
export async function checkAgainstPreviousVersion(
  ctx: ServiceContext,
  registered: SchemaVersionSummary,
  previousVersion: string | undefined,
  caller: string,
  gone: () => boolean,
): Promise<CompatibilityCheck> {
  if (previousVersion === undefined) return { breakingChanges: [], summary: 'no earlier version to check compatibility against' };
  const schemaId = registered.schemaId;
  try {
    if (ctx.schemas.versionRef(schemaId, registered.version).hash !== registered.contentHash) {
      return { breakingChanges: [], summary: `compatibility with ${previousVersion} was not checked: ${registered.version} was registered again with other content meanwhile` };
    }
    const changes = await ctx.compareVersions(schemaId, previousVersion, registered.version, caller, gone);
    return { breakingChanges: changes.map(toBreakingChangeWire), summary: `${changes.length} breaking change(s) found since ${previousVersion}` };
  } catch (error) {
    if (!(error instanceof SvcError)) throw error;
    return { breakingChanges: [], summary: `compatibility with ${previousVersion} could not be checked: ${error.message}` };
  }
}


/** Breaking changes from a registered version to a candidate document that is not registered (yet). */
export async function compareWithCandidate(
  ctx: ServiceContext, schemaId: string, oldVersion: string, candidate: SchemaCandidate, caller: string, gone: () => boolean,
): Promise<BreakingChangeRecord[]> {
  const old = await ctx.schemas.documentSource(schemaId, oldVersion);
  return ctx.comparisons.compare(
    { hash: old.ref.hash, documentJson: old.documentJson },
    { hash: candidate.contentHash, documentJson: candidate.documentJson },
    caller,
    gone,
  );
}

/**
 * RegisterSchema's check before anything is stored: the changes from the version before the
 * candidate's to the candidate. `complete` is false when the comparison could not be made.
 */
export async function checkCandidate(
  ctx: ServiceContext, candidate: SchemaCandidate, caller: string, gone: () => boolean,
): Promise<CompatibilityCheck & { complete: boolean }> {
  const previousVersion = candidate.previousVersion;
  if (previousVersion === undefined) return { breakingChanges: [], summary: 'no earlier version to check compatibility against', complete: true };
  try {
    const changes = await compareWithCandidate(ctx, candidate.schemaId, previousVersion, candidate, caller, gone);
    for (const change of changes) ctx.metrics.breakingChangesDetected.labels(change.type).inc();
    return { breakingChanges: changes.map(toBreakingChangeWire), summary: `${changes.length} breaking change(s) found since ${previousVersion}`, complete: true };
  } catch (error) {
    if (!(error instanceof SvcError) || error.code === ErrorCode.INTERNAL) throw error;
    return { breakingChanges: [], summary: `compatibility with ${previousVersion} could not be checked: ${error.message}`, complete: false };
  }
}

/** Resolves a version, turning "not found" into a message that says which version of which schema. */
function resolveVersion(ctx: ServiceContext, schemaId: string, version: string, field: string): SchemaMetadata__Output {
  try {
    return toSchemaMetadata(ctx.schemas.metadata(schemaId, version));
  } catch (error) {
    if (error instanceof SvcError && error.code === ErrorCode.SCHEMA_VERSION_NOT_FOUND) {
      throw new SvcError(
        error.code,
        `${messages.schemaVersionNotFound()}: ${field} ${version.slice(0, 64)} of ${schemaId} (registered: ${recentVersions(ctx.schemas.versionsOf(schemaId))})`,
      );
    }
    throw error;
  }
}
