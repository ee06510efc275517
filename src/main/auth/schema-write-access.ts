/**
 * The part of a key's scope that needs the request: which schema ids (and which team's schemas) a
 * key with the `schemas` scope may register. Refusals are counted and audited like the
 * interceptor's, and answered PERMISSION_DENIED.
 */
import type { Metadata } from '@grpc/grpc-js';
import { ErrorCode, SvcError } from '../../shared/errors';
import type { AuditableCall } from '../audit';
import type { ServiceContext } from '../service-context';
import { actorOf } from './principal';
import { accessOf, schemaWriteDenial } from './key-scopes';

/** Throws PERMISSION_DENIED when the call's key may not register `schemaId` with the ownership it would get. */
export function requireSchemaWriteAccess(ctx: ServiceContext, call: AuditableCall & { metadata: Metadata }, schemaId: string, givenTeam: string | undefined): void {
  const access = accessOf(call.metadata);
  if (access.schemaPatterns === undefined && access.team === undefined) return;
  // A registration without ownership inherits the latest version's (SchemaRegistry.register).
  const team = givenTeam ?? (ctx.schemas.hasSchema(schemaId) ? ctx.schemas.metadata(schemaId).ownership?.team ?? '' : '');
  const denial = schemaWriteDenial(actorOf(call.metadata), access, schemaId, team);
  if (denial === undefined) return;
  ctx.metrics.permissionDenied.labels('RegisterSchema', 'schemas').inc();
  ctx.audit('permission_denied', { operation: 'RegisterSchema', scope: 'schemas', schemaId }, call);
  throw new SvcError(ErrorCode.PERMISSION_DENIED, denial);
}
