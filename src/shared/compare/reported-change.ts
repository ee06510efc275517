/**
 * Changes as reports show them: every change (breaking or not) with a stable rule id and a severity,
 * so CI can gate on `--fail-on`, ignore one rule on one path, and diff two reports.
 *
 * Severities: `error` for the six breaking kinds of the specification; `warning` for changes that may
 * break some clients (a tightened request constraint, a response enum gaining a value, a newly
 * deprecated operation); `info` for the rest (added endpoints, optional fields, new enum values).
 */
import type { BreakingChangeType } from './breaking-change';

export const SEVERITIES = Object.freeze(['info', 'warning', 'error'] as const);
export type Severity = (typeof SEVERITIES)[number];

export interface ReportedChange {
  /** Stable kebab-case rule id (`response-property-removed`), documented in docs/cli.md. */
  id: string;
  severity: Severity;
  /** The proto BreakingChangeType name for an `error`; '' for the others. */
  breakingType: BreakingChangeType | '';
  /** Path template; '' when the change applies to every endpoint. */
  path: string;
  /** Upper-case method; '' when the change applies to every method. */
  method: string;
  description: string;
  oldValue: string;
  newValue: string;
  /** JSON pointer (`#/...`) of the changed node, in the document the user wrote where it could be mapped. */
  pointer: string;
}

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** The `(at #/...)` suffix every engine description ends with; '' when there is none. */
export function pointerInDescription(description: string): string {
  const match = /\(at (#[^()]*)\)$/.exec(description);
  return match ? match[1]! : '';
}

/** A breaking change (from the local engine or a server) with its rule id; severity `error`. */
export function classifyBreakingChange(change: {
  type: string;
  path: string;
  method: string;
  description: string;
  oldValue: string;
  newValue: string;
}): ReportedChange {
  return {
    id: breakingRuleId(change.type, change.path, change.description),
    severity: 'error',
    breakingType: change.type as BreakingChangeType,
    path: change.path,
    method: change.method,
    description: change.description,
    oldValue: change.oldValue,
    newValue: change.newValue,
    pointer: pointerInDescription(change.description),
  };
}

/**
 * The rule id of a breaking change, read from its type and the part of the operation its
 * description names (`query parameter "limit"`, `request body (...)`, `response 200 (...)`).
 */
export function breakingRuleId(type: string, path: string, description: string): string {
  const detail = description.includes(': ') ? description.slice(description.indexOf(': ') + 2) : description;
  const inParameter = /^\w+ parameter "/.test(detail);
  const inResponse = /^response /.test(detail);
  const inResponseHeader = /^response \S+ header /.test(detail);
  switch (type) {
    case 'ENDPOINT_REMOVED':
      return path === '' ? 'base-path-removed' : 'endpoint-removed';
    case 'REQUIRED_PARAMETER_ADDED':
      return / is now required /.test(detail) ? 'parameter-became-required' : 'required-parameter-added';
    case 'REQUIRED_FIELD_ADDED':
      return / is now required /.test(detail) ? 'request-property-became-required' : 'request-required-property-added';
    case 'TYPE_CHANGED':
      if (inResponse) return 'response-type-changed';
      if (/ is no longer accepted /.test(detail)) return 'request-media-type-removed';
      if (/ no longer accepts the alternative /.test(detail)) return 'request-alternative-removed';
      return inParameter ? 'parameter-type-changed' : 'request-type-changed';
    case 'RESPONSE_SCHEMA_CHANGED':
      if (inResponseHeader) return / is no longer required /.test(detail) ? 'response-header-became-optional' : 'response-header-removed';
      if (/^response \S+ was removed /.test(detail)) return 'response-status-removed';
      if (/ now writeOnly\)/.test(detail)) return 'response-property-became-write-only';
      if (/ is no longer required /.test(detail)) return 'response-property-became-optional';
      if (/ may now return the alternative /.test(detail)) return 'response-alternative-added';
      if (/ is no longer returned /.test(detail)) return 'response-media-type-removed';
      if (/ was removed /.test(detail)) return / field "/.test(detail) ? 'response-property-removed' : 'response-body-removed';
      return 'response-schema-changed';
    case 'ENUM_VALUE_REMOVED':
      return inParameter ? 'parameter-enum-value-removed' : 'request-enum-value-removed';
    default:
      return 'breaking-change';
  }
}
