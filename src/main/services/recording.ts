/**
 * RecordInteractions and PurgeRecordings (docs/evidence.md). The stream is read as fast as it comes:
 * each interaction is attributed to an operation by routing its real path, redacted again with the
 * server's key list (the sender redacts first) and handed to the usage registry, which drops and
 * counts when a limit is reached. The answer says how many were kept and how many were not.
 */
import type * as grpc from '@grpc/grpc-js';
import type {
  ContractValidatorHandlers, PurgeRecordingsRequest__Output, RecordedInteraction__Output, RecordInteractionsResponse,
} from '@svc/client/protocol';
import { ErrorCode, SvcError } from '../../shared/errors';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { OperationMatcher } from '../evidence/operation-matcher';
import type { RecordingDropReason } from '../evidence/drop-reasons';
import { observeInteraction, type ObservationResult } from '../evidence/observe-interaction';
import { DEFAULT_REDACTED_KEYS } from '../evidence/redaction';
import { toServiceError } from '../grpc-status';
import type { ServiceContext } from '../service-context';
import { unary } from '../unary-handler';

/** Operation matchers kept, by content hash. */
const MAX_CACHED_MATCHERS = 64;
const SERVER_REDACTED_KEYS: ReadonlySet<string> = new Set(DEFAULT_REDACTED_KEYS);

export function createRecordingHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  const matchers = createMatcherCache(ctx);
  return {
    RecordInteractions: (call: grpc.ServerReadableStream<RecordedInteraction__Output, RecordInteractionsResponse>, callback: grpc.sendUnaryData<RecordInteractionsResponse>) => {
      let accepted = 0;
      let dropped = 0;
      const skipped = new Map<RecordingDropReason, number>();
      const drop = (reason: RecordingDropReason) => {
        dropped++;
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
        ctx.metrics.recordedInteractions.labels('dropped', reason).inc();
      };
      let done: Promise<void> = Promise.resolve();
      call.on('data', (message: RecordedInteraction__Output) => {
        // Messages are handled in order; the document of a new schema version is the only await.
        done = done.then(async () => {
          if (accepted + dropped >= ctx.usage.limits.maxInteractionsPerStream) {
            drop('stream_limit');
            return;
          }
          const resolved = matchers.cached(message.schema_id, message.schema_version) ?? await matchers.load(message.schema_id, message.schema_version);
          const result: ObservationResult = resolved ? observeInteraction(message, resolved, SERVER_REDACTED_KEYS) : { skipped: 'unknown_schema' };
          if ('skipped' in result) {
            drop(result.skipped);
          } else if (ctx.usage.observe(result.observation)) {
            accepted++;
            ctx.metrics.recordedInteractions.labels('accepted', '').inc();
          } else {
            drop('limit');
          }
        });
      });
      call.on('end', () => {
        void done.then(() => {
          const reasons = [...skipped].map(([reason, count]) => `${count} ${reason.replaceAll('_', ' ')}`).join(', ');
          callback(null, { accepted, dropped, message: dropped === 0 ? '' : `not kept: ${reasons}` });
        }, (error: unknown) => callback(toServiceError(error, ctx.logger, 'RecordInteractions'), null));
      });
      call.on('error', () => undefined);
    },
    PurgeRecordings: unary(ctx, 'PurgeRecordings', async (request: PurgeRecordingsRequest__Output) => {
      const filter = {
        ...(request.schema_id ? { schemaId: request.schema_id } : {}),
        ...(request.consumer_id ? { consumerId: request.consumer_id } : {}),
        ...(request.environment ? { environment: request.environment } : {}),
      };
      const removed = await ctx.usage.purge(filter);
      ctx.logger.info({ caller: 'services/recording', ...filter, removed }, 'recorded usage purged');
      return { success: true, removed, message: `${removed} recorded row(s) removed` };
    }),
  } as Partial<ContractValidatorHandlers>;
}

interface ResolvedMatcher {
  version: string;
  matcher: OperationMatcher;
}

/** Operation matchers by content hash: `cached` answers without awaiting, `load` reads the document. */
function createMatcherCache(ctx: ServiceContext) {
  const cache = new Map<string, OperationMatcher>();
  return {
    cached(schemaId: string, version: string): ResolvedMatcher | undefined {
      const ref = ctx.schemas.findVersionRef(schemaId, version);
      const matcher = ref && cache.get(ref.hash);
      return ref && matcher ? { version: ref.version, matcher } : undefined;
    },
    async load(schemaId: string, version: string): Promise<ResolvedMatcher | undefined> {
      const ref = ctx.schemas.findVersionRef(schemaId, version);
      if (!ref) return undefined;
      let matcher: OperationMatcher;
      try {
        const { document } = await ctx.schemas.resolve(schemaId, ref.version);
        matcher = new OperationMatcher(document as OpenApiDocument);
      } catch (error) {
        if (error instanceof SvcError && error.code === ErrorCode.SCHEMA_VERSION_NOT_FOUND) return undefined;
        throw error;
      }
      if (cache.size >= MAX_CACHED_MATCHERS) cache.delete(cache.keys().next().value!);
      cache.set(ref.hash, matcher);
      return { version: ref.version, matcher };
    },
  };
}
