/**
 * GetCoverage (docs/evidence.md): for each operation of a schema version and each documented status,
 * which consumers exercised it in recorded traffic, how often and when last; undocumented statuses
 * seen in traffic are listed too. Coverage is documented (operation, status) pairs exercised, of all.
 */
import type { ContractValidatorHandlers, GetCoverageRequest__Output, GetCoverageResponse, OperationCoverage, StatusCoverage } from '@svc/client/protocol';
import { callerGone, limitExceeded } from '../../shared/errors';
import { checkEnvironment } from '../../shared/identifiers';
import { LIMITS } from '../../shared/limits';
import { callerOf } from '../auth/principal';
import { eventLoopTurns, type EventLoopTurns } from '../event-loop-turns';
import { documentedStatusKey } from '../evidence/operation-matcher';
import type { VersionOperations } from '../registry/schema-registry';
import type { ServiceContext } from '../service-context';
import type { UsageCountRecord } from '../storage/storage';
import { operationKey } from '../storage/usage-keys';
import { unary } from '../unary-handler';

/**
 * Longest GetCoverage builds its answer in one turn of the event loop before it lets other calls in:
 * built in one piece, an answer of 29,290 entries and 10,000 usage rows held a neighbour's validation
 * up to 104 ms (35–69 ms in turns).
 */
const BUILDING_TURN_MS = 5;

export function createCoverageHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  return {
    GetCoverage: unary(ctx, 'GetCoverage', (request: GetCoverageRequest__Output, call) => coverage(ctx, request, callerOf(call, ctx.trustedProxies), () => call.cancelled)),
  };
}

async function coverage(ctx: ServiceContext, request: GetCoverageRequest__Output, caller: string, gone: () => boolean): Promise<GetCoverageResponse> {
  if (request.environment) checkEnvironment('environment', request.environment);
  // The version's operations, listed off the main thread: coverage never parses the document here.
  const listed = await ctx.schemas.operations(request.schema_id, request.schema_version, caller, gone);
  let entries = listed.operations.length;
  for (const operation of listed.operations) entries += operation.statuses.length;
  if (entries > LIMITS.coverageMaxEntries) {
    throw limitExceeded(
      `${listed.schemaId} version ${listed.version} has ${listed.operations.length} operations and ${entries - listed.operations.length} documented statuses, `
        + `over the limit of ${LIMITS.coverageMaxEntries} (together) one GetCoverage answer lists (coverageMaxEntries)`,
    );
  }
  const usage = await ctx.usage.counts({ schemaId: request.schema_id, ...(request.environment ? { environment: request.environment } : {}) });
  return coverageAnswer(listed, usage, request.environment, eventLoopTurns(BUILDING_TURN_MS), gone);
}

/**
 * The answer from the version's operations and its recorded usage, built in turns of the event loop
 * (`turns`): between usage rows and between operations, once a turn has run its time. A caller that
 * has gone by then gets no answer (CANCELLED), and nothing more is built for it.
 */
export async function coverageAnswer(
  listed: VersionOperations, usage: readonly UsageCountRecord[], environment: string, turns: EventLoopTurns, gone: () => boolean,
): Promise<GetCoverageResponse> {
  const nextTurn = async () => {
    await turns.next();
    if (gone()) throw callerGone('its GetCoverage answer was not built');
  };
  const byOperation = new Map<string, UsageCountRecord[]>();
  for (const record of usage) {
    if (turns.due()) await nextTurn();
    const key = operationKey(record.method, record.path);
    // Pushed in place: copying the group per record made 10,000 keys on one operation quadratic.
    const group = byOperation.get(key);
    if (group) group.push(record);
    else byOperation.set(key, [record]);
  }
  let documented = 0;
  let exercised = 0;
  const operations: OperationCoverage[] = [];
  for (const operation of listed.operations) {
    if (turns.due()) await nextTurn();
    const records = byOperation.get(operationKey(operation.method, operation.path)) ?? [];
    const statuses = new Map<string, StatusCoverage & { consumers: NonNullable<StatusCoverage['consumers']> }>();
    for (const key of operation.statuses) {
      statuses.set(key, { status: key, documented: true, call_count: 0, last_seen: 0, consumers: [] });
    }
    for (const record of records) {
      const key = documentedStatusKey(operation.statuses, record.status) ?? String(record.status);
      let entry = statuses.get(key);
      if (!entry) statuses.set(key, (entry = { status: key, documented: false, call_count: 0, last_seen: 0, consumers: [] }));
      entry.call_count = Number(entry.call_count) + record.callCount;
      entry.last_seen = Math.max(Number(entry.last_seen), record.lastSeenAt);
      entry.consumers.push({ consumer_id: record.consumerId, call_count: record.callCount, last_seen: record.lastSeenAt, environment: record.environment });
    }
    for (const entry of statuses.values()) {
      // The heaviest consumer first.
      entry.consumers.sort((a, b) => Number(b.call_count) - Number(a.call_count) || ((a.consumer_id ?? '') < (b.consumer_id ?? '') ? -1 : 1));
      if (!entry.documented) continue;
      documented++;
      if (Number(entry.call_count) > 0) exercised++;
    }
    operations.push({
      method: operation.method, path: operation.path, operation_id: operation.operationId,
      call_count: records.reduce((sum, record) => sum + record.callCount, 0),
      statuses: [...statuses.values()],
    });
  }
  return {
    schema_id: listed.schemaId,
    schema_version: listed.version,
    environment,
    operations,
    exercised_statuses: exercised,
    documented_statuses: documented,
    coverage_percent: documented === 0 ? 0 : Math.round((exercised / documented) * 1000) / 10,
    consumers: [...new Set(usage.map((record) => record.consumerId))].sort(),
  };
}
