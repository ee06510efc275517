/**
 * Every metric of the spec's table, in one registry, plus Node process metrics. Label values
 * come only from bounded sets: gRPC operation names, status names, change types, error
 * categories, auth reasons, audit event types, HTTP methods, and schema ids that are registered
 * (others become UNKNOWN_LABEL), so a flood of unknown ids cannot grow the series count. Values
 * callers choose by registering (schema ids, owners, teams) have their own series up to
 * metricsMaxLabelValues each, the rest share OTHER_LABEL: 3,000 registered schemas validated once
 * per method made a 36 MB scrape that held the main thread 1–2 s. The handlers that count an event
 * choose its label values; this file fixes the names and types.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import client from 'prom-client';
import { LIMITS } from '../shared/limits';
import { BreakingChangeType } from '@svc/client/protocol';
import { AUDIT_EVENT_TYPES } from './audit-event-types';
import { RECORDING_DROP_REASONS } from './evidence/drop-reasons';
import { PARTIAL_MESSAGE_RESET_REASONS } from './partial-messages';
import { UNSENT_ANSWER_RESET_REASONS } from './unsent-answers';
import { SeriesCounter, SeriesHistogram, SeriesMetric } from './series-metrics';

/** The label value for anything outside a bounded set (an unregistered schema id, an odd method). */
export const UNKNOWN_LABEL = '__unknown__';

/** The label value shared by a label's values beyond metricsMaxLabelValues. */
export const OTHER_LABEL = '__other__';

/** Values of a label taken in the order first asked for, up to `max`; every later one is OTHER_LABEL. */
export function createBoundedLabel(max: number): (value: string) => string {
  const taken = new Set<string>();
  return (value) => {
    if (taken.has(value)) return value;
    if (taken.size >= max) return OTHER_LABEL;
    taken.add(value);
    return value;
  };
}

/** `reason` label values of `svc_auth_failure_total` (spec "Authentication"). */
export const AUTH_FAILURE_REASONS = Object.freeze(['missing_key', 'invalid_key'] as const);
export type AuthFailureReason = (typeof AUTH_FAILURE_REASONS)[number];

/** Label sets started at zero, so rates work from the first event and a scrape lists them all. */
const INITIAL_LABELS = Object.freeze({
  registrationStatus: ['success', 'failure'],
  authFailureReason: AUTH_FAILURE_REASONS,
  auditEventType: AUDIT_EVENT_TYPES,
  // The spec's change types 1 to 6: every BreakingChangeType name but the unset one.
  changeType: Object.keys(BreakingChangeType).filter((name) => name !== BreakingChangeType.BREAKING_CHANGE_UNSPECIFIED),
});

const DURATION_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Counts of every schema for the schema gauges, and a number that changes whenever they may have. */
export interface SchemaCountsSource {
  revision(): number;
  counts(): { versionsBySchema: ReadonlyMap<string, number>; byOwner: ReadonlyMap<string, number>; byTeam: ReadonlyMap<string, number> };
}

export class Metrics {
  readonly registry = new client.Registry();
  /** The `schema_id` label of a registered schema, the same in every metric that has one. */
  readonly schemaIdLabel = createBoundedLabel(LIMITS.metricsMaxLabelValues);

  readonly schemasRegistered = this.#counter('svc_schemas_registered_total', 'Schema registrations', ['status']);
  readonly schemaRegistrationErrors = this.#counter('svc_schema_registration_errors_total', 'Registration errors by type', ['error_type']);
  readonly schemaRegistrationWarnings = this.#counter('svc_schema_registration_warnings_total', 'Leniencies reported by registrations, by warning code', ['code']);
  // Counted on every validation and every call: series held by their callers (series-metrics.ts).
  readonly validations = new SeriesCounter({ name: 'svc_validations_total', help: 'Validations performed', labelNames: ['schema_id', 'method', 'result'], registry: this.registry });
  readonly validationDuration = new SeriesHistogram({
    name: 'svc_validation_duration_seconds',
    help: 'Validation duration',
    labelNames: ['schema_id', 'method'],
    buckets: DURATION_BUCKETS_SECONDS,
    registry: this.registry,
  });
  readonly validationErrors = this.#counter('svc_validation_errors_total', 'Validation errors by category', ['error_category']);
  readonly cacheHits = this.#counter('svc_cache_hits_total', 'Cache hits', []);
  readonly cacheMisses = this.#counter('svc_cache_misses_total', 'Cache misses', []);
  readonly cacheSizeBytes = this.#gauge('svc_cache_size_bytes', 'Current cache size', []);
  readonly cacheItems = this.#gauge('svc_cache_items_total', 'Current cached items', []);
  readonly grpcRequests = new SeriesCounter({ name: 'svc_grpc_requests_total', help: 'gRPC requests', labelNames: ['method', 'status'], registry: this.registry });
  readonly grpcDuration = new SeriesHistogram({
    name: 'svc_grpc_request_duration_seconds',
    help: 'gRPC request duration',
    labelNames: ['method'],
    buckets: DURATION_BUCKETS_SECONDS,
    registry: this.registry,
  });
  readonly breakingChangesDetected = this.#counter('svc_breaking_changes_detected_total', 'Breaking changes by type', ['change_type']);
  readonly schemaVersions = this.#gauge('svc_schema_versions_total', 'Versions per schema', ['schema_id'], () => this.#refreshSchemaGauges());
  readonly authSuccess = this.#counter('svc_auth_success_total', 'Successful authentications', []);
  readonly authFailure = this.#counter('svc_auth_failure_total', 'Authentication failures', ['reason']);
  readonly schemasByOwner = this.#gauge('svc_schemas_by_owner', 'Schemas per owner', ['owner'], () => this.#refreshSchemaGauges());
  readonly schemasByTeam = this.#gauge('svc_schemas_by_team', 'Schemas per team', ['team'], () => this.#refreshSchemaGauges());
  readonly readOnlyViolations = this.#counter('svc_read_only_violations_total', 'Attempts to modify read-only schemas', []);
  readonly auditEvents = this.#counter('svc_audit_events_total', 'Audit events by type', ['event_type']);
  // Additions beyond the spec's list.
  readonly storageUp = this.#gauge('svc_storage_up', 'Whether the registry store answers (1) or not (0); an embedded store is always up', []);
  readonly permissionDenied = this.#counter('svc_permission_denied_total', 'Calls refused with PERMISSION_DENIED because the API key\'s scopes do not allow them, by operation and the scope needed', ['operation', 'scope']);
  readonly validationSlowContracts = this.#gauge('svc_validation_slow_contracts', 'Contracts whose calls the validation pool treats as slow work for now (each travels alone, never on the last lane free of slow work)', []);
  readonly validationShed = this.#counter('svc_validation_shed_total', 'Validation calls refused with RESOURCE_EXHAUSTED because validationMaxQueuedBytes was reached', []);
  readonly recordedInteractions = this.#counter('svc_recorded_interactions_total', 'Interactions received by RecordInteractions, kept or not, and why not', ['outcome', 'reason']);
  readonly peerConnectionsRefused = this.#counter('svc_peer_connections_refused_total', 'Connections reset on arrival: their client address already had maxConnectionsPerPeer open', []);
  readonly peerCallsRefused = this.#counter('svc_peer_calls_refused_total', 'Calls reset on arrival (RESOURCE_EXHAUSTED): their client address already had maxCallsPerPeer calls in flight', []);
  readonly peerCallLimitsReached = this.#counter('svc_peer_call_limit_reached_total', 'Times a client address reached maxCallsPerPeer calls in flight, and its connections were told to open no new call (SETTINGS_MAX_CONCURRENT_STREAMS 0) until it was down to three quarters of it', []);
  readonly unsentAnswerResets = this.#counter('svc_unsent_answer_resets_total', 'Calls reset (RESOURCE_EXHAUSTED) while their answer waited for the client to take it, by the limit it met', ['reason']);
  readonly partialMessageResets = this.#counter('svc_partial_message_resets_total', 'Calls reset (RESOURCE_EXHAUSTED) while their request message was arriving, by the limit it met', ['reason']);
  /** The rendering in progress, which scrapes arriving meanwhile share. */
  #rendering: Promise<string> | undefined;
  /**
   * Where the schema gauges read their counts, at a scrape after the registry's index changed: one
   * pass over every schema, which once ran after every registration (a flood of registrations at
   * 7,000 schemas held other callers up to 400 ms).
   */
  #schemaCounts: SchemaCountsSource | undefined;
  #schemaCountsRevision: number | undefined;
  /** Read at each scrape from the listener that follows partly received messages (src/main/partial-messages.ts). */
  #readPartialMessageBytes: () => number = () => 0;
  readonly partialMessageBytes = this.#sampledGauge('svc_partial_message_bytes', 'Bytes of request messages begun but not yet whole, all connections together', () => this.#readPartialMessageBytes());

  constructor() {
    client.collectDefaultMetrics({ register: this.registry });
    for (const status of INITIAL_LABELS.registrationStatus) this.schemasRegistered.labels(status).inc(0);
    for (const reason of INITIAL_LABELS.authFailureReason) this.authFailure.labels(reason).inc(0);
    for (const changeType of INITIAL_LABELS.changeType) this.breakingChangesDetected.labels(changeType).inc(0);
    for (const eventType of INITIAL_LABELS.auditEventType) this.auditEvents.labels(eventType).inc(0);
    this.recordedInteractions.labels('accepted', '').inc(0);
    for (const reason of RECORDING_DROP_REASONS) this.recordedInteractions.labels('dropped', reason).inc(0);
    for (const reason of PARTIAL_MESSAGE_RESET_REASONS) this.partialMessageResets.labels(reason).inc(0);
    for (const reason of UNSENT_ANSWER_RESET_REASONS) this.unsentAnswerResets.labels(reason).inc(0);
  }

  /** Where the schema gauges read their counts when scraped (the schema registry). */
  watchSchemaCounts(source: SchemaCountsSource): void {
    this.#schemaCounts = source;
    this.#schemaCountsRevision = undefined;
  }

  /**
   * Sets the per-schema and per-owner/team gauges from counts of every schema, when they changed:
   * versions summed by schema_id label, owners and teams with the most schemas labelled by name, the
   * rest summed under OTHER_LABEL.
   */
  #refreshSchemaGauges(): void {
    const source = this.#schemaCounts;
    if (source === undefined || source.revision() === this.#schemaCountsRevision) return;
    this.#schemaCountsRevision = source.revision();
    const { versionsBySchema, byOwner, byTeam } = source.counts();
    this.schemaVersions.reset();
    const versions = new Map<string, number>();
    for (const [schemaId, count] of versionsBySchema) {
      const label = this.schemaIdLabel(schemaId);
      versions.set(label, (versions.get(label) ?? 0) + count);
    }
    for (const [label, count] of versions) this.schemaVersions.labels(label).set(count);
    setLargest(this.schemasByOwner, byOwner);
    setLargest(this.schemasByTeam, byTeam);
  }

  /** Where `svc_partial_message_bytes` reads its value at each scrape. */
  watchPartialMessageBytes(read: () => number): void {
    this.#readPartialMessageBytes = read;
  }

  /**
   * Text exposition for `GET /metrics`, the same as the registry's `metrics()`. Scrapes that arrive
   * while one renders share its text (eight concurrent scrapes each rendering their own held the
   * main thread 56–132 ms), and each metric is written in a turn of the event loop of its own, the
   * hot-path series from their own label strings: at the label bound one rendering held the main
   * thread 17–53 ms in one piece.
   */
  render(): Promise<string> {
    this.#rendering ??= this.#renderInTurns().finally(() => {
      this.#rendering = undefined;
    });
    return this.#rendering;
  }

  async #renderInTurns(): Promise<string> {
    const parts: string[] = [];
    for (const metric of this.registry.getMetricsAsArray()) {
      await nextTurn();
      parts.push(metric instanceof SeriesMetric ? metric.renderText() : await this.registry.getSingleMetricAsString(metric.name));
    }
    return `${parts.join('\n\n')}\n`;
  }

  /** What `render` writes: the Prometheus text format, whatever the registry is set to. */
  get contentType(): string {
    return client.Registry.PROMETHEUS_CONTENT_TYPE;
  }

  #counter<L extends string>(name: string, help: string, labelNames: L[]): client.Counter<L> {
    return new client.Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A gauge; `collect` runs when it is scraped. */
  #gauge<L extends string>(name: string, help: string, labelNames: L[], collect?: () => void): client.Gauge<L> {
    return new client.Gauge({ name, help, labelNames, registers: [this.registry], ...(collect && { collect }) });
  }

  /** A gauge without labels whose value is read when scraped. */
  #sampledGauge(name: string, help: string, read: () => number): client.Gauge {
    return new client.Gauge({ name, help, registers: [this.registry], collect() { this.set(read()); } });
  }
}

/** Sets `gauge` to `counts`, the metricsMaxLabelValues largest by name and the others summed under OTHER_LABEL. */
function setLargest(gauge: client.Gauge<string>, counts: ReadonlyMap<string, number>): void {
  gauge.reset();
  const largestFirst = [...counts].sort(([nameA, a], [nameB, b]) => b - a || (nameA < nameB ? -1 : 1));
  let others = 0;
  largestFirst.forEach(([name, count], index) => {
    if (index < LIMITS.metricsMaxLabelValues) gauge.labels(name).set(count);
    else others += count;
  });
  if (others > 0) gauge.labels(OTHER_LABEL).set(others);
}
