/**
 * RecordInteractions and PurgeRecordings (docs/evidence.md). The stream is read as fast as the main
 * thread's turns for streams allow (stream-turns.ts, counting messages and body characters): each
 * interaction is attributed to an operation by routing its real path, described (redacted again with
 * the server's key list, the sender redacts first; field paths; shape), on a document-task thread
 * when its bodies are over recordingInlineBodyChars, and handed to the usage registry, which drops and
 * counts when a limit is reached. An interaction over a header limit arrives already marked by its
 * decoder (request-codecs.ts) and is dropped unbuilt; a malformed message fails the call with
 * INVALID_ARGUMENT. The answer says how many were kept and how many were not, and why; it comes
 * once what was kept is written to the store, so a store that cannot take writes fails the call.
 */
import type * as grpc from '@grpc/grpc-js';
import type {
  ContractValidatorHandlers, PurgeRecordingsRequest__Output, RecordedInteraction__Output, RecordInteractionsResponse,
} from '@svc/client/protocol';
import { ErrorCode, SvcError, errorMessage, invalidArgument } from '../../shared/errors';
import { OperationMatcher } from '../evidence/operation-matcher';
import { isInteractionLimit, notKeptMessage, type RecordingDropReason } from '../evidence/drop-reasons';
import { attributeInteraction, observationOf, type AttributedInteraction } from '../evidence/observe-interaction';
import type { DropReason as UsageDropReason } from '../evidence/usage-registry';
import { overLimitReason, wireBytesOf } from '../evidence/recorded-interaction-codec';
import { describeRecordedExchange, type RecordedEvidence } from '../../shared/evidence/recorded-evidence';
import { SERVER_REDACTED_KEYS } from '../../shared/evidence/redaction';
import { LIMITS } from '../../shared/limits';
import { toServiceError } from '../grpc-status';
import { KeyedMutex } from '../storage/keyed-mutex';
import { malformedRequestError } from '../message-codecs';
import type { VersionOperations } from '../registry/schema-registry';
import type { ServiceContext } from '../service-context';
import { unary } from '../unary-handler';
import { callerOf } from '../auth/principal';
import { rateLimited, withSuppressed } from '../log-rate-limit';
import { isIdentifier } from '../../shared/identifiers';

/** Matchers of versions whose listing is over the registry's whole budget (it keeps none of those), by content hash. */
const MAX_OVERSIZED_MATCHERS = 4;
/** Versions a stream remembers finding in no store; past it they are forgotten, and read again when named. */
const MAX_REMEMBERED_MISSES = 1_000;

export function createRecordingHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  const matchers = createMatcherCache(ctx);
  const { streamTurns } = ctx;

  // A client causes one at will, with one interaction a call.
  const logDropped = rateLimited(LIMITS.droppedInteractionLogLinesPerMinute, 60_000);
  /** One large interaction of a caller at a time on the document-task threads, whatever its number of streams. */
  const describingFor = new KeyedMutex();
  /**
   * The interaction's evidence: on the main thread for small bodies, else on a document-task thread
   * counted against the caller (dropped when the pool's queues are full all the same).
   */
  const describe = async (interaction: AttributedInteraction, caller: string, offThread: boolean): Promise<RecordedEvidence | 'server_busy'> => {
    if (!offThread) return describeRecordedExchange(interaction.exchange, SERVER_REDACTED_KEYS);
    try {
      return (await describingFor.run(caller, () => ctx.documentTasks.run<'observe'>({ kind: 'observe', exchange: interaction.exchange }, caller))).evidence;
    } catch (error) {
      if (error instanceof SvcError && error.code === ErrorCode.OVERLOADED) return 'server_busy';
      throw error;
    }
  };

  return {
    RecordInteractions: (call: grpc.ServerReadableStream<RecordedInteraction__Output, RecordInteractionsResponse>, callback: grpc.sendUnaryData<RecordInteractionsResponse>) => {
      // Who a new version's operation listing is counted against, on the document-task threads.
      const caller = callerOf(call, ctx.trustedProxies);
      let accepted = 0;
      let dropped = 0;
      let received = 0;
      let answered = false;
      const answer: grpc.sendUnaryData<RecordInteractionsResponse> = (error, response) => {
        if (answered) return;
        answered = true;
        callback(error, response);
      };
      const skipped = new Map<RecordingDropReason, number>();
      /** Schema versions this stream found in no store (`schemaId\nversion`). */
      const unknownVersions = new Set<string>();
      /** Which of the usage registry's limits the `limit` drops met. */
      const usageLimited = new Map<UsageDropReason, number>();
      const drop = (reason: RecordingDropReason) => {
        dropped++;
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
        ctx.metrics.recordedInteractions.labels('dropped', reason).inc();
      };
      const handle = async (message: RecordedInteraction__Output, offThread: boolean): Promise<void> => {
        if (answered) return;
        if (accepted + dropped >= ctx.usage.limits.maxInteractionsPerStream) {
          drop('stream_limit');
          return;
        }
        const overLimit = overLimitReason(message);
        if (overLimit) {
          drop(overLimit);
          return;
        }
        const resolved = matchers.cached(message.schema_id, message.schema_version) ?? await matchers.load(message.schema_id, message.schema_version, caller, unknownVersions, () => call.cancelled);
        if (resolved === 'server_busy') {
          drop(resolved);
          return;
        }
        const attribution = resolved ? attributeInteraction(message, resolved) : { skipped: 'unknown_schema' as const };
        if ('skipped' in attribution) {
          drop(attribution.skipped);
          return;
        }
        const evidence = await describe(attribution.interaction, caller, offThread);
        if (evidence === 'server_busy') {
          drop(evidence);
          return;
        }
        const limited = ctx.usage.observe(observationOf(attribution.interaction, evidence));
        if (limited === undefined) {
          accepted++;
        } else {
          drop('limit');
          usageLimited.set(limited, (usageLimited.get(limited) ?? 0) + 1);
        }
      };
      let stored: Promise<void> | undefined;
      /**
       * Writes what this call kept, once, and counts it by the write's outcome: accepted means stored
       * (counted before the write, a refused write still showed as accepted). A failed call is
       * settled too, at the end of its chain, since what it kept before failing is kept.
       */
      const store = () => stored ??= accepted === 0 ? Promise.resolve() : ctx.usage.persist().then(
        () => { ctx.metrics.recordedInteractions.labels('accepted', '').inc(accepted); },
        (error: unknown) => {
          ctx.metrics.recordedInteractions.labels('dropped', 'not_stored').inc(accepted);
          throw notStored(accepted, error);
        },
      );
      const failCall = (error: unknown) => {
        answer(toServiceError(error, ctx.logger, 'RecordInteractions'), null);
        // Links still in the chain return at once (answered); the call has its status already.
        done = done.then(store).catch(() => undefined);
      };
      let done: Promise<void> = Promise.resolve();
      /** Messages read and not yet handled (in `done`), and their bytes. */
      let queued = 0;
      let queuedBytes = 0;
      call.on('data', (message: RecordedInteraction__Output) => {
        received++;
        const bytes = wireBytesOf(message);
        queued++;
        queuedBytes += bytes;
        // What describing it reads: its bodies (parse, redact, walk, stringify).
        const bodyChars = (message.request?.body.length ?? 0) + (message.response?.body.length ?? 0);
        // Past this turn's allowance the message waits for a later turn, not only the ones after it:
        // each stream would otherwise still handle one message per turn, 64 streams 64 large ones.
        const inTurn = streamTurns.take(bodyChars);
        // A message described off the main thread holds its stream until it is done: a fast sender
        // cannot pile large messages up here.
        const offThread = bodyChars > LIMITS.recordingInlineBodyChars;
        // Behind a message that waits, the rest would pile up here as fast as the sender sends.
        const held = !inTurn || offThread || queued >= LIMITS.recordingStreamMaxQueued || queuedBytes >= LIMITS.recordingStreamMaxQueuedBytes;
        if (held) call.pause();
        const malformed = malformedRequestError(message);
        if (malformed) {
          // Those before it are handled (kept or dropped) as usual; the rest of the stream is not read.
          failCall(invalidArgument(`${malformed.message} (message ${received} of the stream; the ones before it were handled)`));
          return;
        }
        if (answered) return;
        // Messages are handled in order; what they wait for: a new version's operation listing, a
        // large interaction's description. Once the call is answered (a failure), the rest are not.
        done = done.then(async () => {
          if (!inTurn) await streamTurns.turnFor(bodyChars);
          await handle(message, offThread).finally(() => {
            queued--;
            queuedBytes -= bytes;
            if (held) call.resume();
          });
        }).catch((error: unknown) => {
          // The call fails with it; every link settles here, so no rejection is left unhandled
          // (one ended the process while the stream was still open).
          failCall(error);
        });
      });
      call.on('end', () => {
        void done.then(async () => {
          const message = notKeptMessage(skipped, usageLimited, ctx.usage.limits);
          const overLimit = [...skipped].filter(([reason]) => isInteractionLimit(reason));
          if (overLimit.length > 0) {
            const line = { caller: 'services/recording', accepted, dropped, ...Object.fromEntries(overLimit) };
            logDropped((suppressed) => ctx.logger.info(withSuppressed(line, suppressed), `recorded interactions dropped over a limit: ${message}`));
          }
          // Accepted means stored: a store that cannot take writes fails the call instead.
          await store();
          answer(null, { accepted, dropped, message });
        }).catch((error: unknown) => answer(toServiceError(error, ctx.logger, 'RecordInteractions'), null));
      });
      call.on('error', () => undefined);
    },
    PurgeRecordings: unary(ctx, 'PurgeRecordings', async (request: PurgeRecordingsRequest__Output, call) => {
      const filter = {
        ...(request.schema_id ? { schemaId: request.schema_id } : {}),
        ...(request.consumer_id ? { consumerId: request.consumer_id } : {}),
        ...(request.environment ? { environment: request.environment } : {}),
      };
      const removed = await ctx.usage.purge(filter);
      ctx.logger.info({ caller: 'services/recording', ...filter, removed }, 'recorded usage purged');
      // It removes the evidence CanIDeploy judges consumers by: who did it is part of the trail.
      ctx.audit('recordings_purged', { ...filter, removed }, call);
      return { success: true, removed, message: `${removed} recorded row(s) removed` };
    }),
  } as Partial<ContractValidatorHandlers>;
}

/** The store refused the write of a call's interactions: its own code (UNAVAILABLE for a store that cannot take writes), with what was lost. */
function notStored(accepted: number, error: unknown): SvcError {
  const code = error instanceof SvcError ? error.code : ErrorCode.UNAVAILABLE;
  // They stay in the registry's queue: said, so that a sender does not resend them (which counts them twice).
  return new SvcError(code, `${accepted} recorded interaction(s) were not stored: ${errorMessage(error)}; `
    + 'the server keeps them and writes them when the store takes writes again, so sending them again counts them twice');
}

interface ResolvedMatcher {
  version: string;
  matcher: OperationMatcher;
}

/**
 * Operation matchers by the registry's listing of the version, kept as long as it keeps the listing
 * (registryOperationIndexMaxBytes): `cached` answers without awaiting, `load` lists the version's
 * operations. Kept apart (64 by content hash), a stream cycling through 66 versions of 2,000
 * operations rebuilt one per interaction on the main thread (about 3 ms each): another caller's
 * calls waited p50 529 ms. A listing the registry dropped is listed again off the main thread.
 */
function createMatcherCache(ctx: ServiceContext) {
  const matchers = new WeakMap<VersionOperations, OperationMatcher>();
  const oversized = new Map<string, OperationMatcher>();
  return {
    cached(schemaId: string, version: string): ResolvedMatcher | undefined {
      const ref = ctx.schemas.findVersionRef(schemaId, version);
      const listing = ref && ctx.schemas.cachedOperations(ref);
      const matcher = listing ? matchers.get(listing) : ref && oversized.get(ref.hash);
      return ref && matcher ? { version: ref.version, matcher } : undefined;
    },
    /**
     * Reads through to a shared store for a version this replica has not indexed yet (registered on
     * another one a moment ago), once per stream for each miss: `missed` remembers them.
     * 'server_busy' when the caller's queue of document tasks is full for the operation listing.
     * `gone` tells whether the stream has gone: a listing nobody else waits for is then stopped.
     */
    async load(schemaId: string, version: string, caller: string, missed: Set<string>, gone?: () => boolean): Promise<ResolvedMatcher | undefined | 'server_busy'> {
      // An id or version that could never be registered is just unknown here, and not remembered: V8
      // hashes a string over 16 Ki characters by its length alone, and a stream naming 1,500 ids of
      // 256 Ki characters made each look-up compare them all (the main thread held 290 ms, 406 MiB kept).
      if (!isIdentifier(schemaId) || version.length > LIMITS.maxMetadataLength) return undefined;
      const key = `${schemaId}\n${version}`;
      if (missed.has(key)) return undefined;
      await ctx.schemas.readThrough(schemaId, version);
      const ref = ctx.schemas.findVersionRef(schemaId, version);
      if (!ref) {
        if (missed.size >= MAX_REMEMBERED_MISSES) missed.clear();
        missed.add(key);
        return undefined;
      }
      let listing: VersionOperations;
      try {
        // Listed off the main thread: a recording stream never parses a document here.
        listing = await ctx.schemas.operations(schemaId, ref.version, caller, gone);
      } catch (error) {
        if (error instanceof SvcError && error.code === ErrorCode.SCHEMA_VERSION_NOT_FOUND) return undefined;
        // The caller's document-task queue is full: dropped and counted, as a large body is then.
        if (error instanceof SvcError && error.code === ErrorCode.OVERLOADED) return 'server_busy';
        throw error;
      }
      let matcher = matchers.get(listing);
      if (!matcher) matchers.set(listing, (matcher = new OperationMatcher(listing.operations)));
      if (ctx.schemas.cachedOperations(ref) !== listing) {
        // Listed again at each interaction otherwise.
        if (oversized.size >= MAX_OVERSIZED_MATCHERS) oversized.delete(oversized.keys().next().value!);
        oversized.set(ref.hash, matcher);
      }
      return { version: ref.version, matcher };
    },
  };
}
