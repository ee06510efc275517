/**
 * API-key authentication as a grpc-js server interceptor: the key is checked when the call's
 * metadata arrives, before the request message is read or any handler runs. Refused calls end with
 * UNAUTHENTICATED, count in `svc_auth_failure_total{reason}` and write an `auth_failure` audit line
 * (at most authFailureAuditLinesPerMinute, the rest summed into the next line's `suppressed`);
 * accepted ones count in `svc_auth_success_total` and reach the handler with the key removed from
 * their metadata and the key's name bound as the call's actor. Each message of the call is let
 * through only while its key is still valid and allowed the operation: a stream (RecordInteractions
 * runs for the life of an app) outlives reloads and expiry, and a key revoked by SIGHUP or expired
 * went on recording evidence into any schema. Such a call ends UNAUTHENTICATED (or PERMISSION_DENIED).
 *
 * Open without a key: the standard health service (load balancers and orchestrators probe it with
 * no credentials). Server reflection needs a key like the API itself (grpcurl sends `-H` headers on
 * reflection requests too).
 */
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../shared/limits';
import type { BlockList } from 'node:net';
import { callOrigin, type AuditRecorder } from '../audit';
import { rateLimited, withSuppressed } from '../log-rate-limit';
import type { AuthFailureReason, Metrics } from '../metrics';
import { operationOf } from '../call-observer';
import type { ApiKeyStore } from './api-key-store';
import { digestKey } from './api-key-sources';
import { bindKeyName } from './principal';
import { allowsScope, bindKeyAccess, describeScopes, scopeForPath, type KeyAccess } from './key-scopes';
import { presentedKey, withoutCredentials } from './presented-key';

const OPEN_SERVICE_PREFIXES = Object.freeze(['/grpc.health.v1.Health/']);

export interface AuthDependencies {
  keys: ApiKeyStore;
  metrics: Metrics;
  audit: AuditRecorder;
  /** `--trusted-proxies`: the audit lines of calls through one name the client it forwards for. */
  trustedProxies: BlockList | undefined;
}

export function createAuthInterceptor({ keys, metrics, audit, trustedProxies }: AuthDependencies): grpc.ServerInterceptor {
  const auditFailure = rateLimited(LIMITS.authFailureAuditLinesPerMinute, 60_000);
  return (descriptor, call) => {
    if (OPEN_SERVICE_PREFIXES.some((prefix) => descriptor.path.startsWith(prefix))) {
      return new grpc.ServerInterceptingCall(call);
    }
    const operation = operationOf(descriptor.path) ?? descriptor.path.slice(0, 200);
    const scope = scopeForPath(descriptor.path);
    /** The call's metadata as received (refusals happen once it has arrived). */
    let received = new grpc.Metadata();
    const refuse = (reason: AuthFailureReason, details: string, detail: string, keyName?: string) => {
      metrics.authFailure.labels(reason).inc();
      // Read now: a line left out may be written at the end of the minute, after the connection is gone.
      const origin = callOrigin(call.getPeer(), received, trustedProxies);
      auditFailure((suppressed) => audit('auth_failure', withSuppressed({ reason, detail, keyName, operation, ...origin }, suppressed)));
      call.sendStatus({ code: grpc.status.UNAUTHENTICATED, details });
    };
    /** The name of the key with this digest while it is valid; else the call is refused UNAUTHENTICATED. */
    const validKeyName = (digest: string): string | undefined => {
      const verdict = keys.checkDigest(digest);
      if (verdict.ok) return verdict.name;
      // The client learns only "invalid"; the audit line tells operators whether it had expired.
      refuse('invalid_key', 'invalid API key', verdict.detail === 'expired' ? 'expired key' : 'unknown key', verdict.name);
      return undefined;
    };
    /** The key's access while it allows the operation; else the call is refused PERMISSION_DENIED. */
    const allowedAccess = (keyName: string): KeyAccess | undefined => {
      const access = keys.access(keyName);
      if (allowsScope(access, scope)) return access;
      // Authenticated, so every refusal is counted and audited (no rate limit: the key is known).
      metrics.permissionDenied.labels(operation, scope).inc();
      audit('permission_denied', { actor: keyName, operation, scope, ...callOrigin(call.getPeer(), received, trustedProxies) });
      call.sendStatus({
        code: grpc.status.PERMISSION_DENIED,
        details: `API key "${keyName}" may not call ${operation}: it needs scope "${scope}" (the key has: ${describeScopes(access)})`,
      });
      return undefined;
    };
    /** The digest of the call's key once accepted; undefined: not yet, or refused. */
    let acceptedDigest: string | undefined;
    const listener = new grpc.ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        received = metadata;
        const presented = presentedKey(metadata);
        if (presented.kind === 'missing') {
          refuse('missing_key', 'API key required: send it in metadata "x-api-key" or "authorization: Bearer <key>"', 'no key');
          return;
        }
        if (presented.kind === 'malformed') {
          refuse('invalid_key', `invalid API key: ${presented.detail}`, presented.detail);
          return;
        }
        const digest = digestKey(presented.key);
        const keyName = validKeyName(digest);
        if (keyName === undefined) return;
        metrics.authSuccess.inc();
        const access = allowedAccess(keyName);
        if (access === undefined) return;
        acceptedDigest = digest;
        const forwarded = withoutCredentials(metadata);
        bindKeyName(forwarded, keyName);
        bindKeyAccess(forwarded, access);
        next(forwarded);
      })
      .withOnReceiveMessage((message, next) => {
        if (acceptedDigest === undefined) return;
        // Checked again: the key set may have been reloaded, or the key expired, since the call began.
        const keyName = validKeyName(acceptedDigest);
        if (keyName === undefined || allowedAccess(keyName) === undefined) {
          acceptedDigest = undefined;
          return;
        }
        next(message);
      })
      .build();
    return new grpc.ServerInterceptingCall(call, { start: (next) => next(listener) });
  };
}
