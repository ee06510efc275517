/**
 * What an API key may do. A key from the keys file may carry `scopes`; a key without them (and every
 * key of SVC_API_KEYS) keeps all access, so existing setups keep working.
 *
 * - `read`: look at the registry (schemas, endpoints, comparisons, consumers, environments, deployments, can-i-deploy, fixtures)
 * - `validate`: validate interactions and producer responses, and record them (RecordInteractions)
 * - `record`: register and deregister consumers, record deployments and undeployments
 * - `schemas`: register schemas; `schemas` (id patterns, `*` any run of characters) and `team` limit which
 *   (a key with a team writes only into schemas of its team, and only versions of its team)
 * - `admin`: everything, environments' creation and deletion included
 *
 * The operation's scope is checked by the auth interceptor before the request is read; the schema-id
 * and team limits need the request and are checked by RegisterSchema's handler, and again under the
 * schema's write lock (schema-write-access.ts).
 */
import type { Metadata } from '@grpc/grpc-js';

export const KEY_SCOPES = Object.freeze(['read', 'validate', 'record', 'schemas', 'admin'] as const);
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The scope each operation of svc.ContractValidator needs; an operation missing here needs `admin`. */
export const OPERATION_SCOPES: Readonly<Record<string, KeyScope>> = Object.freeze({
  GetSchema: 'read',
  ListSchemas: 'read',
  ListEndpoints: 'read',
  CompareSchemas: 'read',
  GenerateFixture: 'read',
  ListConsumers: 'read',
  CanIDeploy: 'read',
  ListEnvironments: 'read',
  ListDeployments: 'read',
  GetCoverage: 'read',
  ValidateInteraction: 'validate',
  ValidateProducerResponse: 'validate',
  ValidateInteractionStream: 'validate',
  // Recording comes from the same middleware and adapters that validate.
  RecordInteractions: 'validate',
  RegisterConsumer: 'record',
  DeregisterConsumer: 'record',
  RecordDeployment: 'record',
  RecordUndeployment: 'record',
  RegisterSchema: 'schemas',
  CreateEnvironment: 'admin',
  DeleteEnvironment: 'admin',
  PurgeRecordings: 'admin',
});

/** Server reflection lists the service; it reveals nothing a `read` key could not see. */
const REFLECTION_PREFIX = '/grpc.reflection.';

/** Limits of a key; `scopes` undefined means all access. */
export interface KeyAccess {
  scopes: ReadonlySet<KeyScope> | undefined;
  /** Schema ids the `schemas` scope may register, as anchored patterns; undefined: any. */
  schemaPatterns: readonly RegExp[] | undefined;
  /** Schema ids as written in the keys file, for messages. */
  schemaPatternTexts: readonly string[] | undefined;
  /** The team every registration through this key must belong to (given or inherited ownership); undefined: any. */
  team: string | undefined;
}

export const FULL_ACCESS: KeyAccess = Object.freeze({ scopes: undefined, schemaPatterns: undefined, schemaPatternTexts: undefined, team: undefined });

/** `users-*` → /^users-.*$/; every other character literal. */
export function schemaIdPattern(text: string): RegExp {
  return new RegExp(`^${text.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('.*')}$`);
}

/** The scope `path` (`/svc.ContractValidator/RegisterSchema`) needs. */
export function scopeForPath(path: string): KeyScope {
  if (path.startsWith(REFLECTION_PREFIX)) return 'read';
  const operation = path.slice(path.lastIndexOf('/') + 1);
  return OPERATION_SCOPES[operation] ?? 'admin';
}

export function allowsScope(access: KeyAccess, scope: KeyScope): boolean {
  return access.scopes === undefined || access.scopes.has('admin') || access.scopes.has(scope);
}

/**
 * Why the key may not register `schemaId` for `team`, or undefined when it may. `ownedBy`: the teams
 * of what the registration would change (the schema's latest version, the version registered again).
 * A key limited to a team never writes into another team's schema: naming its own team took the
 * schema over (its latest version, the listings by team, every later registration of its owners).
 */
export function schemaWriteDenial(keyName: string, access: KeyAccess, schemaId: string, team: string, ownedBy: readonly string[] = []): string | undefined {
  if (access.scopes === undefined || access.scopes.has('admin')) return undefined;
  if (access.schemaPatterns && !access.schemaPatterns.some((pattern) => pattern.test(schemaId))) {
    return `API key "${keyName}" may register only schemas ${access.schemaPatternTexts!.join(', ')}, not ${schemaId}`;
  }
  const other = access.team === undefined ? undefined : ownedBy.find((owner) => owner !== access.team);
  if (other !== undefined) {
    return `API key "${keyName}" may register only schemas of team ${access.team}; ${schemaId} belongs to ${other === '' ? 'no team' : `team ${other}`} (a key of that team, or an admin key, may change it)`;
  }
  if (access.team !== undefined && team !== access.team) {
    return `API key "${keyName}" may register only schemas of team ${access.team}; ${schemaId} would belong to ${team === '' ? 'no team' : `team ${team}`} (give --team ${access.team})`;
  }
  return undefined;
}

const accessByMetadata = new WeakMap<Metadata, KeyAccess>();

/** Bound by the auth interceptor beside the key's name (see principal.ts). */
export function bindKeyAccess(metadata: Metadata, access: KeyAccess): void {
  accessByMetadata.set(metadata, access);
}

/** The access of the call's key; full access without authentication. */
export function accessOf(metadata: Metadata): KeyAccess {
  return accessByMetadata.get(metadata) ?? FULL_ACCESS;
}

export function describeScopes(access: KeyAccess): string {
  return access.scopes === undefined ? 'all' : [...access.scopes].join(', ') || 'none';
}
