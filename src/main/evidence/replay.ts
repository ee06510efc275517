/**
 * Replay for CanIDeploy (docs/evidence.md): a consumer's recorded interactions that were valid when
 * recorded are validated again, in the worker pool, against the version they were recorded against
 * (which rules out anything redaction changed) and against the checked version. One that passes the
 * first and fails the second is evidence that the consumer would break.
 */
import type { ReplayEvidence__Output as ReplayEvidence } from '@svc/client/protocol';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../../shared/limits';
import { ValidationOperation } from '../../shared/pool-protocol/batches';
import type { ServiceContext } from '../service-context';
import type { VersionRef as ContractRef } from '../../shared/schema-records';
import type { InteractionSampleRecord } from '../storage/storage';

/** Recorded interactions replayed per consumer at most (the newest valid ones, read no further). */
export const MAX_REPLAYED_PER_CONSUMER = 200;
/** Failing interactions reported per consumer at most. */
export const MAX_EVIDENCE_PER_CONSUMER = 5;
/** Violation messages reported per failing interaction at most. */
export const MAX_MESSAGES_PER_EVIDENCE = 3;

/** A consumer's recorded samples, read from the store only when they are replayed (deploy-evidence.ts). */
export interface ConsumerSamples {
  /**
   * Runs `replay` with the consumer's newest valid samples (at most `limit`, newest first) once its
   * CanIDeploy has room: one CanIDeploy reads and replays replayConsumersAtOnce consumers at a time.
   */
  replayNewest<T>(limit: number, replay: (samples: readonly InteractionSampleRecord[]) => Promise<T>): Promise<T>;
}

export interface ReplayOutcome {
  replayed: number;
  failures: ReplayEvidence[];
}

interface StoredInteraction {
  request: { method: string; path: string; headers: Record<string, string>; body: string };
  response: { status_code: number; headers: Record<string, string>; body: string };
}

let codec: ReturnType<typeof contractValidatorDefinition>['ValidateInteraction'] | undefined;
function interactionCodec() {
  codec ??= contractValidatorDefinition().ValidateInteraction;
  return codec;
}

/** Replays the consumer's samples against `candidate`; each is checked against its own recorded version first. */
export function replaySamples(ctx: ServiceContext, source: ConsumerSamples, candidate: ContractRef): Promise<ReplayOutcome> {
  return source.replayNewest(MAX_REPLAYED_PER_CONSUMER, async (samples) => {
    const outcomes: Array<ReplayEvidence | undefined | 'skipped'> = [];
    // A portion at a time: all of them at once met validationMaxQueuedBytes (RESOURCE_EXHAUSTED) by themselves.
    for (let start = 0; start < samples.length; start += LIMITS.replaySamplesAtOnce) {
      const portion = samples.slice(start, start + LIMITS.replaySamplesAtOnce);
      outcomes.push(...await Promise.all(portion.map((sample) => replayOne(ctx, sample, candidate))));
    }
    const failures = outcomes.filter((outcome) => outcome !== undefined && outcome !== 'skipped') as ReplayEvidence[];
    return { replayed: outcomes.filter((outcome) => outcome !== 'skipped').length, failures: failures.slice(0, MAX_EVIDENCE_PER_CONSUMER) };
  });
}

/** undefined: still valid; 'skipped': not valid against its own version any more (redaction, a re-registration). */
async function replayOne(ctx: ServiceContext, sample: InteractionSampleRecord, candidate: ContractRef): Promise<ReplayEvidence | undefined | 'skipped'> {
  const stored = JSON.parse(sample.interactionJson) as StoredInteraction;
  // Recorded on another replica, against a version this one may not have indexed yet.
  await ctx.schemas.readThrough(sample.schemaId, sample.schemaVersion);
  const recordedRef = ctx.schemas.findVersionRef(sample.schemaId, sample.schemaVersion);
  if (!recordedRef) return 'skipped';
  const message = (version: string): Buffer => interactionCodec().requestSerialize({
    schema_id: sample.schemaId, schema_version: version, request: stored.request, response: stored.response,
  });
  if (recordedRef.hash !== candidate.hash) {
    const before = await ctx.pool.validate({ operation: ValidationOperation.INTERACTION, message: message(recordedRef.version), contract: recordedRef });
    if (!before.valid) return 'skipped';
  }
  const after = await ctx.pool.validate({ operation: ValidationOperation.INTERACTION, message: message(candidate.version), contract: candidate });
  if (after.valid) return undefined;
  const result = interactionCodec().responseDeserialize(after.result);
  return {
    method: stored.request.method, path: stored.request.path, status_code: stored.response.status_code,
    errors: result.errors.slice(0, MAX_MESSAGES_PER_EVIDENCE), recorded_at: sample.recordedAt,
  };
}
