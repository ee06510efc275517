/**
 * One validation call on the main thread, shared by the unary operations and the stream: read the
 * routing head of the raw request, resolve the schema version, hand the bytes to the worker pool,
 * count the outcome. Failures a client must see as results (unknown schema or version, invalid
 * call parameters) come back as encoded ValidationResults with valid=false; only a call that
 * could not be validated at all (malformed message, worker stopped) rejects with an SvcError.
 */
import { ErrorCode, SvcError, invalidArgument } from '../../shared/errors';
import { HTTP_METHODS } from '../../shared/openapi/document';
import { ValidationOperation } from '../../shared/pool-protocol/batches';
import { WireFormatError } from '../../shared/pool-protocol/protobuf-wire';
import {
  encodeValidationResult, readInteractionHead, readProducerHead, type MessageHead,
} from '../../shared/pool-protocol/validation-codec';
import { ERROR_CATEGORIES, type ErrorCategory } from '../../shared/validation/types';
import { UNKNOWN_LABEL, type Metrics } from '../metrics';
import type { ServiceContext } from '../service-context';

/**
 * Validates one raw request message and resolves with the encoded ValidationResult. `isCancelled`
 * tells whether the caller has gone (cancelled, past its deadline): the pool then drops the call, or
 * stops a long batch that holds nothing else. `caller` says who sent it (auth/principal.ts
 * callerOf), read only when the call must compile: compiles go in turns by caller.
 */
export type CallValidator = (operation: ValidationOperation, message: Buffer, isCancelled: () => boolean, caller: () => string) => Promise<Buffer>;

/** `result` label of svc_validations_total: the result's `valid`, or `error` when no result could be given. */
type ResultLabel = 'valid' | 'invalid' | 'error';

const METHOD_LABELS = new Set(HTTP_METHODS.map((method) => method.toUpperCase()));
const MESSAGE_NAMES = Object.freeze({
  [ValidationOperation.INTERACTION]: 'svc.InteractionRequest',
  [ValidationOperation.PRODUCER_RESPONSE]: 'svc.ValidateProducerRequest',
});

/**
 * The validator of single calls and the one of ValidateInteractionStream items, which the pool
 * queues behind single calls; both count into the same metric series.
 */
export function createCallValidators(ctx: ServiceContext): { single: CallValidator; streamed: CallValidator } {
  const record = createOutcomeRecorder(ctx.metrics);
  return { single: callValidator(ctx, record, false), streamed: callValidator(ctx, record, true) };
}

function callValidator(ctx: ServiceContext, record: OutcomeRecorder, streamed: boolean): CallValidator {
  return async (operation, message, isCancelled, caller) => {
    const started = performance.now();
    let head: MessageHead;
    try {
      head = readHead(operation, message);
    } catch (error) {
      record(UNKNOWN_LABEL, UNKNOWN_LABEL, 'error', '', started);
      throw error;
    }
    const method = methodLabel(head.method);
    let validating = false;
    try {
      // The reference only: the document travels to a worker once, when that worker first needs it.
      // A replica that has not seen this schema yet reads it from the shared store before answering "not found".
      const contract = ctx.schemas.findVersionRef(head.schemaId, head.schemaVersion) ?? await ctx.schemas.readVersionRef(head.schemaId, head.schemaVersion);
      validating = true;
      const answer = await ctx.pool.validate({ operation, message, contract, streamed, isCancelled, caller });
      record(head.schemaId, method, answer.valid ? 'valid' : 'invalid', answer.category, started);
      return answer.result;
    } catch (error) {
      const failure = failureResult(error, validating);
      const schemaLabel = ctx.schemas.hasSchema(head.schemaId) ? head.schemaId : UNKNOWN_LABEL;
      if (failure === undefined) {
        record(schemaLabel, method, 'error', '', started);
        throw error;
      }
      record(schemaLabel, method, 'invalid', failure.category, started);
      return encodeValidationResult({ valid: false, errors: [failure.message], version: '', hash: '', correlationId: head.correlationId });
    }
  };
}

/** The HTTP method as a bounded label value: a known method upper-cased, anything else UNKNOWN_LABEL. */
function methodLabel(method: string): string {
  const upper = method.toUpperCase();
  return METHOD_LABELS.has(upper) ? upper : UNKNOWN_LABEL;
}

function readHead(operation: ValidationOperation, message: Buffer): MessageHead {
  try {
    return operation === ValidationOperation.INTERACTION ? readInteractionHead(message) : readProducerHead(message);
  } catch (error) {
    if (error instanceof WireFormatError) {
      throw invalidArgument(`the request is not a valid ${MESSAGE_NAMES[operation]} message: ${error.message}`);
    }
    throw error;
  }
}

/**
 * The answer-as-result for the failures the spec reports in ValidationResult; undefined for the
 * others. From the pool (`validating`), INVALID_ARGUMENT says the message itself is malformed past
 * the routing head read here (an embedded RequestData or ResponseData): a call failure, like a
 * malformed head. It was answered `valid: false`, status OK, a verdict on a contract nobody checked.
 */
function failureResult(error: unknown, validating: boolean): { category: ErrorCategory; message: string } | undefined {
  if (!(error instanceof SvcError)) return undefined;
  switch (error.code) {
    case ErrorCode.INVALID_ARGUMENT: return validating ? undefined : { category: 'input_validation', message: error.message };
    case ErrorCode.SCHEMA_NOT_FOUND:
    case ErrorCode.SCHEMA_VERSION_NOT_FOUND: return { category: 'schema_not_found', message: error.message };
    default: return undefined;
  }
}

type OutcomeRecorder = ReturnType<typeof createOutcomeRecorder>;

/**
 * Counts one call in svc_validations_total, svc_validation_duration_seconds and
 * svc_validation_errors_total. Label children are looked up once per label combination, by nested
 * maps on the label values themselves (no key string built per call): the combinations are bounded
 * (metricsMaxLabelValues schema ids and OTHER_LABEL × methods × results) and the lookup is on the hot path.
 */
function createOutcomeRecorder(metrics: Metrics) {
  // Every category exported from the start (at 0), so dashboards see every series.
  const errorsByCategory = new Map<string, { inc(): void }>();
  for (const category of ERROR_CATEGORIES) {
    const counter = metrics.validationErrors.labels(category);
    counter.inc(0);
    errorsByCategory.set(category, counter);
  }
  const unknownCategory = metrics.validationErrors.labels(UNKNOWN_LABEL);
  interface Series {
    duration: { observe(value: number): void };
    results: Map<ResultLabel, { inc(): void }>;
  }
  interface SchemaSeries {
    /** The schema_id label: the id, or OTHER_LABEL past metricsMaxLabelValues (Metrics.schemaIdLabel). */
    label: string;
    byMethod: Map<string, Series>;
  }
  /** By schema id; ids that share a label share its series. */
  const bySchema = new Map<string, SchemaSeries>();
  const byLabel = new Map<string, SchemaSeries>();
  return (schemaId: string, method: string, result: ResultLabel, category: string, startedMs: number): void => {
    let schema = bySchema.get(schemaId);
    if (!schema) {
      const label = schemaId === UNKNOWN_LABEL ? UNKNOWN_LABEL : metrics.schemaIdLabel(schemaId);
      schema = byLabel.get(label) ?? { label, byMethod: new Map() };
      byLabel.set(label, schema);
      bySchema.set(schemaId, schema);
    }
    let series = schema.byMethod.get(method);
    if (!series) {
      series = { duration: metrics.validationDuration.labels(schema.label, method), results: new Map() };
      schema.byMethod.set(method, series);
    }
    series.duration.observe((performance.now() - startedMs) / 1000);
    let counter = series.results.get(result);
    if (!counter) {
      counter = metrics.validations.labels(schema.label, method, result);
      series.results.set(result, counter);
    }
    counter.inc();
    if (category !== '') (errorsByCategory.get(category) ?? unknownCategory).inc();
  };
}
