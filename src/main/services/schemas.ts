/** RegisterSchema, GetSchema, ListSchemas, ListEndpoints. */
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { ErrorCode, SvcError, errorMessage, invalidArgument, invalidSchema } from '../../shared/errors';
import { LIMITS, formatBytes } from '../../shared/limits';
import { BytesInFlight } from '../answer-bytes';
import { createStreamTurns } from '../stream-turns';
import { TaskSlots } from '../storage/task-slots';
import type { ContractValidatorHandlers, ListSchemasRequest__Output, ListSchemasResponse, RegisterSchemaRequest__Output, RegisterSchemaResponse, SchemaOwnership__Output } from '@svc/client/protocol';
import type { SchemaOwnershipRecord } from '../../shared/schema-records';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';
import type { RegisterResult, SchemaCandidate } from '../registry/schema-registry';
import { checkAgainstPreviousVersion, checkCandidate, type CompatibilityCheck } from '../compatibility/compatibility-service';
import { requireSchemaWriteAccess, schemaWriteGuard } from '../auth/schema-write-access';
import { callerOf } from '../auth/principal';
import { toSchemaMetadata } from './schema-wire';
import { registeredSchemaText, schemaContentIsNotUtf8, type GetSchemaAnswer } from '../message-codecs';

export function createSchemaHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  ctx.metrics.watchSchemaCounts({ revision: () => ctx.schemas.indexRevision, counts: () => ctx.schemas.gaugeCounts() });
  const schemaAnswers = new BytesInFlight(LIMITS.schemaAnswerMaxBytesInFlight);
  // A 30 MiB version's bytes are read on the store's thread and copied into the answer here (60–80 ms
  // of the main thread when the text was decoded and encoded again), and calls that arrive in one
  // read of a connection run back to back: four at once held other callers 300 ms. Each read takes a
  // turn of the event loop, and so does each encoding, so other connections are served between them.
  const schemaReadTurns = createStreamTurns(1, Number.MAX_SAFE_INTEGER);
  const contentReads = new TaskSlots(LIMITS.schemaContentReadsInFlight);
  return {
    RegisterSchema: unary(ctx, 'RegisterSchema', (request, call) => registerSchema(ctx, request, call)),

    GetSchema: unary(ctx, 'GetSchema', async (request, call): Promise<GetSchemaAnswer> => {
      await schemaReadTurns.turnFor(0);
      const overloaded = () => new SvcError(
        ErrorCode.OVERLOADED,
        `the server is sending ${formatBytes(schemaAnswers.held)} of GetSchema answers, at its limit of ${formatBytes(schemaAnswers.limit)} (schemaAnswerMaxBytesInFlight); retry shortly`,
      );
      try {
        // A document's size is known only once read: at most schemaContentReadsInFlight reads at once,
        // and none once the answers in flight are at their limit. 300 calls at once of a 4 MB version
        // each read it before being refused, and on PostgreSQL took every connection of the pool.
        const { metadata, content } = await contentReads.run(() => {
          if (schemaAnswers.held >= schemaAnswers.limit) throw overloaded();
          return ctx.schemas.getContentBytes(request.schema_id, request.schema_version);
        });
        // Held from here (read, before the answer is encoded) until the call ends, sent or not (answer-bytes.ts).
        if (!schemaAnswers.holdForCall(call, content.length)) throw overloaded();
        await schemaReadTurns.turnFor(0);
        return { found: true, metadata: toSchemaMetadata(metadata), schema_content_bytes: content };
      } catch (error) {
        if (error instanceof SvcError && (error.code === ErrorCode.SCHEMA_NOT_FOUND || error.code === ErrorCode.SCHEMA_VERSION_NOT_FOUND)) {
          return { found: false };
        }
        throw error;
      }
    }),

    ListSchemas: unary(ctx, 'ListSchemas', async (request) => listSchemas(ctx, request)),

    ListEndpoints: unary(ctx, 'ListEndpoints', async (request, call) => {
      const { operations } = await ctx.schemas.operations(request.schema_id, request.schema_version, callerOf(call, ctx.trustedProxies), () => call.cancelled);
      const endpoints = operations.map(({ method, path, operationId, summary }) => ({
        method, path, operation_id: operationId, summary,
      }));
      return { endpoints };
    }),
  };
}

async function registerSchema(
  ctx: ServiceContext,
  request: RegisterSchemaRequest__Output,
  call: ServerUnaryCall<RegisterSchemaRequest__Output, RegisterSchemaResponse>,
): Promise<RegisterSchemaResponse> {
  const log = ctx.logger.child({ caller: 'services/schemas', schemaId: request.schema_id.slice(0, LIMITS.maxIdLength) });
  requireSchemaWriteAccess(ctx, call, request.schema_id, request.ownership ? request.ownership.team : undefined);
  const caller = callerOf(call, ctx.trustedProxies);
  // A caller that has gone (cancelled, past its deadline) frees the document-task thread its intake or comparison holds.
  const gone = () => call.cancelled;
  // refuse_breaking_changes checks before anything is stored (docs/deploy-gate.md); so does a dry run asked to check.
  const refuseBreaking = request.refuse_breaking_changes;
  let check: (CompatibilityCheck & { complete: boolean }) | undefined;
  const gate = refuseBreaking || request.check_compatibility
    ? async (candidate: SchemaCandidate) => {
      check = await checkCandidate(ctx, candidate, caller, gone);
      return !refuseBreaking || (check.complete && check.breakingChanges.length === 0);
    }
    : undefined;
  let result: RegisterResult;
  try {
    if (schemaContentIsNotUtf8(request)) throw invalidSchema('content is not valid UTF-8 text');
    result = await ctx.schemas.register({
      schemaId: request.schema_id,
      content: await registeredSchemaText(request),
      version: request.schema_version,
      ownership: toOwnershipRecord(request.ownership),
    }, { caller, gone, gate, dryRun: request.dry_run, authorize: schemaWriteGuard(ctx, call, request.schema_id) });
  } catch (error) {
    // An unreachable store is a status (UNAVAILABLE), not a refused registration; so is a key's refusal, as before the lock.
    if (!(error instanceof SvcError) || error.code === ErrorCode.UNAVAILABLE || error.code === ErrorCode.PERMISSION_DENIED) throw error;
    ctx.metrics.schemasRegistered.labels('failure').inc();
    ctx.metrics.schemaRegistrationErrors.labels(error.code.toLowerCase()).inc();
    if (error.code === ErrorCode.READ_ONLY) {
      ctx.metrics.readOnlyViolations.inc();
      ctx.audit('read_only_violation', { schemaId: request.schema_id, schemaVersion: request.schema_version || undefined }, call);
    }
    log.warn({ code: error.code }, `registration refused: ${errorMessage(error)}`);
    return { success: false, message: error.message, breaking_changes: [] };
  }

  const versionWarnings = result.versionAssignment ? [result.versionAssignment] : [];
  if (result.outcome === 'not-stored') return notStoredResponse(ctx, request, result, check, versionWarnings);

  ctx.metrics.schemasRegistered.labels('success').inc();
  const { metadata: registered, outcome } = result;
  log.info({ version: registered.version, outcome, hash: registered.contentHash }, 'schema registered');
  if (outcome !== 'unchanged') {
    ctx.audit(outcome === 'created' ? 'schema_registered' : 'schema_updated', {
      schemaId: registered.schemaId, schemaVersion: registered.version, schemaHash: registered.contentHash,
      owner: registered.ownership.owner || undefined, team: registered.ownership.team || undefined, readOnly: registered.ownership.readOnly,
    }, call);
  }
  const { warnings, warningCounts } = result.loaded;
  for (const [code, count] of Object.entries(warningCounts)) ctx.metrics.schemaRegistrationWarnings.labels(code.toLowerCase()).inc(count);
  if (warnings.length > 0) log.info({ warnings: warningCounts }, 'schema registered with warnings');
  const verb = { created: 'registered', updated: 'updated', unchanged: 'already registered with identical content' }[outcome];
  // check_compatibility reports and registers anyway (DESIGN.md); the CLI's --fail-on-breaking decides.
  // Checked by the gate before storing, unless nothing was stored (identical content already registered).
  check ??= request.check_compatibility || refuseBreaking
    ? { ...await checkAgainstPreviousVersion(ctx, registered, result.previousVersion, caller, gone), complete: true }
    : undefined;
  return {
    success: true,
    message: `Schema ${registered.schemaId} version ${registered.version} ${verb}${check ? `; ${check.summary}` : ''}`,
    metadata: toSchemaMetadata(registered),
    breaking_changes: check?.breakingChanges ?? [],
    warnings: [...versionWarnings, ...warnings].map(({ code, pointer, message }) => ({ code, pointer, message })),
  };
}

/** A dry run, or a registration refused before storing for its breaking changes: nothing was stored. */
function notStoredResponse(
  ctx: ServiceContext,
  request: RegisterSchemaRequest__Output,
  result: RegisterResult,
  check: (CompatibilityCheck & { complete: boolean }) | undefined,
  versionWarnings: RegisterResult['versionAssignment'][],
): RegisterSchemaResponse {
  const metadata = toSchemaMetadata(result.metadata);
  const label = `Schema ${metadata.schema_id} version ${metadata.schema_version}`;
  const warnings = [...versionWarnings, ...result.loaded.warnings].map((warning) => ({ code: warning!.code, pointer: warning!.pointer, message: warning!.message }));
  const refused = request.refuse_breaking_changes && check !== undefined && (!check.complete || check.breakingChanges.length > 0);
  if (refused) {
    ctx.metrics.schemasRegistered.labels('failure').inc();
    ctx.metrics.schemaRegistrationErrors.labels('breaking_changes').inc();
    return {
      success: false,
      message: `${label} not registered: ${check!.summary} (refuse_breaking_changes); nothing was stored`,
      metadata,
      breaking_changes: check!.breakingChanges,
      warnings,
    };
  }
  return {
    success: true,
    message: `Dry run: ${label} would be ${result.previousVersion === undefined && !ctx.schemas.hasSchema(metadata.schema_id) ? 'registered as the first version' : 'registered'}${check ? `; ${check.summary}` : ''}; nothing was stored`,
    metadata,
    breaking_changes: check?.breakingChanges ?? [],
    warnings,
  };
}

function listSchemas(ctx: ServiceContext, request: ListSchemasRequest__Output): ListSchemasResponse {
  if (request.page_size < 0) throw invalidArgument('page_size must not be negative');
  const pageSize = Math.min(request.page_size || LIMITS.defaultPageSize, LIMITS.maxPageSize);
  const after = request.page_token === '' ? undefined : decodePageToken(request.page_token);
  const { page, total, more } = ctx.schemas.pageLatest({ owner: request.owner, team: request.team }, after, pageSize);
  const last = page[page.length - 1];
  return {
    // Only the page is translated to the wire, however many schemas match.
    schemas: page.map(toSchemaMetadata),
    next_page_token: more && last ? encodePageToken(last.schemaId) : '',
    total_count: total,
  };
}

/** Page tokens are opaque to clients: the last schema id of the page, versioned and base64url-encoded. */
function encodePageToken(lastSchemaId: string): string {
  return Buffer.from(JSON.stringify({ v: 1, after: lastSchemaId }), 'utf8').toString('base64url');
}

function decodePageToken(token: string): string {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && (parsed as { v?: unknown }).v === 1
      && typeof (parsed as { after?: unknown }).after === 'string') {
      return (parsed as { after: string }).after;
    }
  } catch {
    // fall through to the error below
  }
  throw invalidArgument('page_token is not valid: pass the next_page_token of a previous ListSchemas response');
}

function toOwnershipRecord(ownership: SchemaOwnership__Output | null): SchemaOwnershipRecord | undefined {
  if (!ownership) return undefined;
  return {
    owner: ownership.owner,
    team: ownership.team,
    contactEmail: ownership.contact_email,
    readOnly: ownership.read_only,
  };
}
