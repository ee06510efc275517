/**
 * The part of a key's scope that needs the request: which schema ids (and which team's schemas) a
 * key with the `schemas` scope may register. Refusals are counted and audited like the
 * interceptor's, and answered PERMISSION_DENIED.
 */
import type { Metadata } from '@grpc/grpc-js';
import { ErrorCode, SvcError } from '../../shared/errors';
import type { AuditableCall } from '../audit';
import type { SchemaWrite } from '../registry/schema-registry';
import type { ServiceContext } from '../service-context';
import { actorOf } from './principal';
import { accessOf, schemaWriteDenial } from './key-scopes';

type SchemaWriteCall = AuditableCall & { metadata: Metadata };

/**
 * Throws PERMISSION_DENIED when the call's key may not register `schemaId` with the ownership it would
 * get: refused before the document is read. schemaWriteGuard checks again under the write lock.
 */
export function requireSchemaWriteAccess(ctx: ServiceContext, call: SchemaWriteCall, schemaId: string, givenTeam: string | undefined): void {
  const access = accessOf(call.metadata);
  if (access.schemaPatterns === undefined && access.team === undefined) return;
  const latestTeam = ctx.schemas.hasSchema(schemaId) ? ctx.schemas.metadata(schemaId).ownership?.team ?? '' : undefined;
  // A registration without ownership inherits the latest version's (SchemaRegistry.register).
  const team = givenTeam ?? latestTeam ?? '';
  refuseOn(ctx, call, schemaId, schemaWriteDenial(actorOf(call.metadata), access, schemaId, team, latestTeam === undefined ? [] : [latestTeam]));
}

/**
 * The registry's `authorize` for the call (undefined for a key without limits): the ownership the
 * version gets, inherited as the registry inherits it (from the version registered again, else the
 * latest), and the teams of the version and of the latest, as they are when the write happens. The
 * check before the lock read the latest only, and a registration in between could change it.
 */
export function schemaWriteGuard(ctx: ServiceContext, call: SchemaWriteCall, schemaId: string): ((write: SchemaWrite) => void) | undefined {
  const access = accessOf(call.metadata);
  if (access.schemaPatterns === undefined && access.team === undefined) return undefined;
  return ({ ownership, existing, latest }) => {
    const ownedBy = [latest, existing].flatMap((summary) => (summary ? [summary.ownership.team] : []));
    refuseOn(ctx, call, schemaId, schemaWriteDenial(actorOf(call.metadata), access, schemaId, ownership.team, ownedBy));
  };
}

function refuseOn(ctx: ServiceContext, call: SchemaWriteCall, schemaId: string, denial: string | undefined): void {
  if (denial === undefined) return;
  ctx.metrics.permissionDenied.labels('RegisterSchema', 'schemas').inc();
  ctx.audit('permission_denied', { operation: 'RegisterSchema', scope: 'schemas', schemaId }, call);
  throw new SvcError(ErrorCode.PERMISSION_DENIED, denial);
}
