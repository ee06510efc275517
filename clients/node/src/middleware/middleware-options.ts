/**
 * Options of the producer middleware (Express, Fastify, node:http): one interface, one frozen defaults
 * object, validated once when the middleware is created.
 */
import { invalidUse } from '../client-error';
import { positiveInteger, positiveMs } from '../client-options';
import type { ContractValidator } from '../contract-validator';
import { compilePathPatterns, type PathPredicate } from './path-patterns';
import { resolveRecordingOptions, type RecordInteractionsOptions, type ResolvedRecordingOptions } from '../recording/interaction-recording';

/**
 * strict: a request violation is answered with 400 before the handler runs; a response violation is
 *   logged as an error. warn: violations are logged, traffic continues. shadow: nothing is logged,
 *   violations are only counted (and passed to `onViolation`). The recommended rollout goes
 *   shadow → warn → strict.
 */
export type ValidationMode = 'strict' | 'warn' | 'shadow';

export const VALIDATION_MODES: readonly ValidationMode[] = Object.freeze(['strict', 'warn', 'shadow']);

/** What was checked: the request before the handler (strict), the response after it (strict), or both after it. */
export type ViolationPhase = 'request' | 'response' | 'interaction';

export interface ContractViolation {
  mode: ValidationMode;
  phase: ViolationPhase;
  schemaId: string;
  method: string;
  /** The real path with its query string. */
  path: string;
  /** The response status; absent for a request rejected before the handler. */
  statusCode?: number;
  errors: string[];
  validatedAgainstVersion: string;
}

/** pino's calling convention (object first, message second); console-like loggers fit too. */
export interface ViolationLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The client operations the middleware uses (a ContractValidator). */
export type MiddlewareValidator = Pick<ContractValidator, 'openInteractionStream' | 'validateRequest' | 'validateProducerResponse'>
  & Partial<Pick<ContractValidator, 'openRecording'>>;

export interface ProducerMiddlewareOptions {
  schemaId: string;
  /** Default: the version the validator is bound to for this schema, else the latest. */
  schemaVersion?: string;
  validator: MiddlewareValidator;
  /** Default `warn`. */
  mode?: ValidationMode;
  /** Only paths matching one of these are validated (`*` one segment, `**` any depth). */
  includePaths?: readonly string[];
  /** Paths never validated; wins over includePaths. */
  excludePaths?: readonly string[];
  /** Share of the selected exchanges that are validated, from 0 to 1; default 1. */
  sampleRate?: number;
  /** Called for every violation, in every mode; exceptions it throws are logged and swallowed. */
  onViolation?: (violation: ContractViolation) => void;
  /** Default: JSON lines on stderr (Fastify: the app's logger). */
  logger?: ViolationLogger;
  /** Bodies larger than this are not captured; the exchange is skipped. */
  maxBodyBytes?: number;
  /** Validations waiting or in flight at once; beyond it, exchanges are dropped (counted). */
  maxPendingValidations?: number;
  /** Deadline of the strict-mode request check; past it the request goes on unchecked. */
  requestCheckDeadlineMs?: number;
  /** Deadline of the validations made after the response. */
  validationDeadlineMs?: number;
  /**
   * Strict mode: what happens to a request whose path (or method) the document does not describe.
   * `pass` (default) hands it to the app, so the app's own 404 or 405 still answers; `reject` answers
   * 400 like any other request violation.
   */
  undocumentedRoutes?: UndocumentedRoutePolicy;
  /**
   * Send the validated exchanges (redacted) to the server in the background, for coverage, observed
   * consumers and replay in can-i-deploy (docs/evidence.md); default off. The calling consumer is
   * named by the `consumerIdHeader` request header (`unknown` without it).
   */
  recordInteractions?: boolean | RecordInteractionsOptions;
}

export type UndocumentedRoutePolicy = 'pass' | 'reject';
export const UNDOCUMENTED_ROUTE_POLICIES: readonly UndocumentedRoutePolicy[] = Object.freeze(['pass', 'reject']);

export const MIDDLEWARE_DEFAULTS = Object.freeze({
  mode: 'warn' as ValidationMode,
  sampleRate: 1,
  maxBodyBytes: 1024 * 1024, // 1 MiB
  maxPendingValidations: 1_000,
  requestCheckDeadlineMs: 2_000,
  validationDeadlineMs: 10_000,
  undocumentedRoutes: 'pass' as UndocumentedRoutePolicy,
  /** Validations after the response start in batches, at most this long after it went out. */
  validationBatchDelayMs: 20,
  /** A batch this large starts at once. */
  maxValidationBatch: 64,
  /** A validator that keeps failing is reported at most once per interval. */
  validatorErrorLogIntervalMs: 60_000,
});

export interface ResolvedMiddlewareOptions {
  schemaId: string;
  schemaVersion: string | undefined;
  validator: MiddlewareValidator;
  mode: ValidationMode;
  included: PathPredicate | undefined;
  excluded: PathPredicate | undefined;
  sampleRate: number;
  onViolation: ((violation: ContractViolation) => void) | undefined;
  logger: ViolationLogger | undefined;
  maxBodyBytes: number;
  maxPendingValidations: number;
  requestCheckDeadlineMs: number;
  validationDeadlineMs: number;
  undocumentedRoutes: UndocumentedRoutePolicy;
  recording: ResolvedRecordingOptions | undefined;
}

export function resolveMiddlewareOptions(options: ProducerMiddlewareOptions): ResolvedMiddlewareOptions {
  if (options === null || typeof options !== 'object') throw invalidUse('the middleware needs an options object');
  if (typeof options.schemaId !== 'string' || options.schemaId === '') throw invalidUse('options.schemaId must be a non-empty string');
  const validator = options.validator;
  if (!validator || typeof validator.openInteractionStream !== 'function') {
    throw invalidUse('options.validator must be a ContractValidator');
  }
  const mode = options.mode ?? MIDDLEWARE_DEFAULTS.mode;
  if (!VALIDATION_MODES.includes(mode)) throw invalidUse(`options.mode must be one of ${VALIDATION_MODES.join(', ')} (got ${String(mode)})`);
  const sampleRate = options.sampleRate ?? MIDDLEWARE_DEFAULTS.sampleRate;
  if (typeof sampleRate !== 'number' || !(sampleRate >= 0 && sampleRate <= 1)) {
    throw invalidUse(`options.sampleRate must be a number from 0 to 1 (got ${String(sampleRate)})`);
  }
  if (options.onViolation !== undefined && typeof options.onViolation !== 'function') throw invalidUse('options.onViolation must be a function');
  const logger = options.logger;
  if (logger !== undefined && (typeof logger.warn !== 'function' || typeof logger.error !== 'function')) {
    throw invalidUse('options.logger must have warn() and error() methods');
  }
  const undocumentedRoutes = options.undocumentedRoutes ?? MIDDLEWARE_DEFAULTS.undocumentedRoutes;
  if (!UNDOCUMENTED_ROUTE_POLICIES.includes(undocumentedRoutes)) {
    throw invalidUse(`options.undocumentedRoutes must be one of ${UNDOCUMENTED_ROUTE_POLICIES.join(', ')} (got ${String(undocumentedRoutes)})`);
  }
  const recording = resolveRecordingOptions('options.recordInteractions', options.recordInteractions);
  if (recording && typeof validator.openRecording !== 'function') throw invalidUse('options.recordInteractions needs a ContractValidator as options.validator');
  return {
    schemaId: options.schemaId,
    schemaVersion: options.schemaVersion,
    validator,
    mode,
    included: compilePathPatterns('options.includePaths', options.includePaths),
    excluded: compilePathPatterns('options.excludePaths', options.excludePaths),
    sampleRate,
    onViolation: options.onViolation,
    logger,
    maxBodyBytes: positiveInteger('options.maxBodyBytes', options.maxBodyBytes) ?? MIDDLEWARE_DEFAULTS.maxBodyBytes,
    maxPendingValidations: positiveInteger('options.maxPendingValidations', options.maxPendingValidations) ?? MIDDLEWARE_DEFAULTS.maxPendingValidations,
    requestCheckDeadlineMs: positiveMs('options.requestCheckDeadlineMs', options.requestCheckDeadlineMs) ?? MIDDLEWARE_DEFAULTS.requestCheckDeadlineMs,
    validationDeadlineMs: positiveMs('options.validationDeadlineMs', options.validationDeadlineMs) ?? MIDDLEWARE_DEFAULTS.validationDeadlineMs,
    undocumentedRoutes,
    recording,
  };
}

/** The default logger: one JSON line per event on stderr, shaped like the server's log lines. */
export const stderrLogger: ViolationLogger = Object.freeze({
  warn: (details: object, message: string) => writeLine('warn', details, message),
  error: (details: object, message: string) => writeLine('error', details, message),
});

function writeLine(level: string, details: object, message: string): void {
  process.stderr.write(`${JSON.stringify({ level, ts: Date.now() / 1000, caller: 'svc-middleware', msg: message, ...details })}\n`);
}
