/** The audit event types, the `event_type` label values of `svc_audit_events_total`. */

/** The documented event types (docs/operating.md, "Audit events", lists what each carries). */
export const AUDIT_EVENT_TYPES = Object.freeze([
  /** A new schema version was stored. */
  'schema_registered',
  /** An existing schema version got new content or ownership. */
  'schema_updated',
  /** An update of a read-only schema version was refused. */
  'read_only_violation',
  /** A consumer registration was created or replaced. */
  'consumer_registered',
  /** A consumer registration was removed. */
  'consumer_deregistered',
  /** A CanIDeploy verdict was given (safe or not). */
  'can_i_deploy_decision',
  /** An environment was created (CreateEnvironment, or on first use where unknown ones are allowed). */
  'environment_created',
  /** An environment was deleted. */
  'environment_deleted',
  /** A schema or consumer version was recorded as deployed in an environment. */
  'deployment_recorded',
  /** A schema or consumer was recorded as no longer deployed in an environment. */
  'undeployment_recorded',
  /** Recorded usage was removed (PurgeRecordings): evidence CanIDeploy and coverage read. */
  'recordings_purged',
  /** A call with a valid API key was refused because the key's scopes do not allow it. */
  'permission_denied',
  /** A call was refused for a missing, unknown or expired API key. */
  'auth_failure',
  /** The API key set was read again (SIGHUP), or the attempt failed and the old set stayed. */
  'api_keys_reloaded',
] as const);

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
