/**
 * Audit events: who changed what, who was refused, what was decided. Each is one JSON log line with
 * `audit: true`, `event_type`, `actor` (the API key's name, never the key; `anonymous` without
 * authentication), the caller's `peer` and the subject's ids, and counts in
 * `svc_audit_events_total{event_type}`. Behind a trusted proxy (`--trusted-proxies`) the peer is the
 * proxy, and `client` names the client it forwards for. Audit lines are written at LOG_LEVEL debug, info and warn
 * alike (an operator quieting the log to warnings keeps the trail); LOG_LEVEL=error is the quiet
 * mode that writes errors only, where audit events are still counted.
 */
import type { BlockList } from 'node:net';
import type { Metadata } from '@grpc/grpc-js';
import { forwardedClientOf } from './auth/client-address';
import { actorOf } from './auth/principal';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { AuditEventType } from './audit-event-types';

export { AUDIT_EVENT_TYPES, type AuditEventType } from './audit-event-types';


/** Subject ids and outcome of an event (camelCase, like log context fields). */
export type AuditSubject = Readonly<Record<string, string | number | boolean | undefined>>;

/** The parts of a server call an audit line reads (unary calls and streams both have them). */
export interface AuditableCall {
  metadata: Metadata;
  getPeer(): string;
}

export type AuditRecorder = (eventType: AuditEventType, subject: AuditSubject, call?: AuditableCall) => void;

/** Refusals are warnings; everything else is information. */
const WARNING_EVENTS: ReadonlySet<AuditEventType> = new Set(['read_only_violation', 'auth_failure']);

/**
 * Where a call came from, for an audit line: its `peer`, and `client` when the peer is a trusted
 * proxy that names the client it forwards for. Read when the line is made: one written later (a
 * rate-limited line at the end of its minute) must not hold the call.
 */
export function callOrigin(peer: string, metadata: Metadata, trustedProxies: BlockList | undefined): { peer: string; client?: string } {
  const client = forwardedClientOf(peer, metadata, trustedProxies);
  return client === undefined ? { peer } : { peer, client };
}

export function createAuditRecorder(logger: Logger, metrics: Metrics, trustedProxies: BlockList | undefined): AuditRecorder {
  const log = logger.child({ caller: 'audit', audit: true }, { level: logger.level === 'error' ? 'error' : 'info' });
  return (eventType, subject, call) => {
    metrics.auditEvents.labels(eventType).inc();
    const line = {
      event_type: eventType,
      ...(call ? { actor: actorOf(call.metadata), ...callOrigin(call.getPeer(), call.metadata, trustedProxies) } : {}),
      ...subject,
    };
    if (WARNING_EVENTS.has(eventType)) log.warn(line, `audit: ${eventType}`);
    else log.info(line, `audit: ${eventType}`);
  };
}
