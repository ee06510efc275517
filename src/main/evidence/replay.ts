/**
 * Replay for CanIDeploy (docs/evidence.md): a consumer's recorded interactions that were valid when
 * recorded are validated again, in the worker pool, against the version they were recorded against
 * (which rules out anything redaction changed) and against the checked version. One that passes the
 * first and fails the second is evidence that the consumer would break.
 */
import type { ReplayEvidence__Output as ReplayEvidence } from '@svc/client/protocol';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { ValidationOperation } from '../../shared/pool-protocol/batches';
import type { ServiceContext } from '../service-context';
import type { VersionRef as ContractRef } from '../../shared/schema-records';
import type { InteractionSampleRecord } from '../storage/storage';

/** Recorded interactions replayed per consumer at most (newest first). */
export const MAX_REPLAYED_PER_CONSUMER = 200;
/** Failing interactions reported per consumer at most. */
export const MAX_EVIDENCE_PER_CONSUMER = 5;
/** Violation messages reported per failing interaction at most. */
export const MAX_MESSAGES_PER_EVIDENCE = 3;

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

/** Replays the samples against `candidate`; each is checked against its own recorded version first. */
export async function replaySamples(ctx: ServiceContext, samples: readonly InteractionSampleRecord[], candidate: ContractRef): Promise<ReplayOutcome> {
  const chosen = samples.filter((sample) => sample.valid).slice(0, MAX_REPLAYED_PER_CONSUMER);
  const outcomes = await Promise.all(chosen.map((sample) => replayOne(ctx, sample, candidate)));
  const failures = outcomes.filter((outcome) => outcome !== undefined && outcome !== 'skipped') as ReplayEvidence[];
  return { replayed: outcomes.filter((outcome) => outcome !== 'skipped').length, failures: failures.slice(0, MAX_EVIDENCE_PER_CONSUMER) };
}

/** undefined: still valid; 'skipped': not valid against its own version any more (redaction, a re-registration). */
async function replayOne(ctx: ServiceContext, sample: InteractionSampleRecord, candidate: ContractRef): Promise<ReplayEvidence | undefined | 'skipped'> {
  const stored = JSON.parse(sample.interactionJson) as StoredInteraction;
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
