/**
 * The framework-independent core of the producer middleware: which exchanges are validated (path
 * filters, sampling), the strict-mode request check, the validation after the response, and what a
 * violation leads to in each mode (400, log line, count, callback).
 *
 * Two promises hold everywhere: the work after the response runs off the request path (scheduled
 * once the response has gone out, bounded by `maxPendingValidations`), and a validator that fails or
 * is unreachable never fails the application: the failure is counted and reported, the traffic goes on.
 */
import { isContractValidatorError } from '../client-error';
import { encodeBody } from '../wire';
import type { SchemaCallOptions } from '../contract-validator';
import type { InteractionStream } from '../interaction-stream';
import type { InteractionRecording, RecordingStats } from '../recording/interaction-recording';
import type { ValidationRequest, ValidationResponse, ValidationResult } from '../types';
import { EMPTY_RECORDING_STATS, RECORDING_DEFAULTS } from '../recording/interaction-recording';
import {
  MIDDLEWARE_DEFAULTS,
  resolveMiddlewareOptions,
  stderrLogger,
  type ContractViolation,
  type ProducerMiddlewareOptions,
  type ResolvedMiddlewareOptions,
  type ValidationMode,
  type ViolationLogger,
  type ViolationPhase,
} from './middleware-options';
import { pathnameOf } from '../consumer/path-templates';
import type { HttpHeaders } from '../types';

/** An HTTP message as captured; `complete` is false when the body was over `maxBodyBytes`. */
export interface CapturedMessage {
  headers: HttpHeaders;
  body: string;
  complete: boolean;
}

export interface CapturedRequest extends CapturedMessage {
  method: string;
  /** Path with query string. */
  url: string;
  /**
   * The request came with a body that neither the application nor a body parser read (a handler
   * that answered early): its bytes are unknown, so only the response is checked, as in strict mode.
   */
  bodyUnread?: boolean;
}

export interface CapturedResponse extends CapturedMessage {
  statusCode: number;
}

export interface ProducerValidationStats {
  /** Exchanges (or strict-mode requests) the validator answered for. */
  validated: number;
  /** Of those, the ones with violations. */
  violations: number;
  /** Requests answered with 400 in strict mode. */
  rejected: number;
  /** Strict-mode requests to a route the document does not describe, passed to the app (`undocumentedRoutes: 'pass'`). */
  undocumented: number;
  /** Exchanges left out: path filters, sampling, bodies over the size limit. */
  skipped: number;
  /** Exchanges not validated because `maxPendingValidations` were already waiting. */
  dropped: number;
  /** Validator calls that failed (unreachable, deadline, refused); the traffic went on. */
  validatorErrors: number;
  /** Validations scheduled or in flight now. */
  pending: number;
  /** With `recordInteractions`: the background recording's counts. */
  recording?: RecordingStats;
}

/** What every middleware returns besides being a middleware. */
export interface ProducerValidationHandle {
  readonly mode: ValidationMode;
  stats(): ProducerValidationStats;
  /** Resolves when every validation scheduled so far has finished (tests, graceful shutdown). */
  flush(): Promise<void>;
}

/** The 400 body of a request rejected in strict mode. */
export interface RejectionBody {
  error: 'Bad Request';
  message: string;
  errors: string[];
}

export class ProducerValidation implements ProducerValidationHandle {
  readonly #options: ResolvedMiddlewareOptions;
  #logger: ViolationLogger;
  readonly #counts = { validated: 0, violations: 0, rejected: 0, undocumented: 0, skipped: 0, dropped: 0, validatorErrors: 0 };
  readonly #pending = new Set<Promise<void>>();
  /** Exchanges waiting for the next batch; each has its settle function in #pending's promise. */
  readonly #queue: Array<() => void> = [];
  #batchTimer: NodeJS.Timeout | undefined;
  /** warn and shadow validate request and response together over one long-lived stream (cheapest per exchange). */
  #stream: InteractionStream | undefined;
  /** With `recordInteractions`: opened on the first validated exchange. */
  #recording: InteractionRecording | undefined;
  #lastValidatorErrorLogMs = Number.NEGATIVE_INFINITY;
  #unreportedValidatorErrors = 0;

  constructor(options: ProducerMiddlewareOptions) {
    this.#options = resolveMiddlewareOptions(options);
    this.#logger = this.#options.logger ?? stderrLogger;
  }

  get mode(): ValidationMode {
    return this.#options.mode;
  }

  get maxBodyBytes(): number {
    return this.#options.maxBodyBytes;
  }

  /** Fastify hands its own logger over; an explicit `logger` option wins. */
  useDefaultLogger(logger: ViolationLogger | undefined): void {
    if (this.#options.logger === undefined && logger) this.#logger = logger;
  }

  /** Whether this exchange is validated: path filters first, then sampling. Left-out exchanges are counted. */
  selects(url: string): boolean {
    const { sampleRate } = this.#options;
    const selected = this.#pathSelected(url) && (sampleRate === 1 || Math.random() < sampleRate);
    if (!selected) this.#counts.skipped += 1;
    return selected;
  }

  /** The path filters; without any, the path is not even read. */
  #pathSelected(url: string): boolean {
    const { included, excluded } = this.#options;
    if (included === undefined && excluded === undefined) return true;
    const pathname = pathnameOf(url);
    return (included === undefined || included(pathname)) && !(excluded?.(pathname) ?? false);
  }

  /**
   * Strict mode, before the handler: the rejection to answer with 400, or undefined to go on. A
   * validator failure lets the request through. Never throws.
   */
  async checkRequest(request: CapturedRequest): Promise<RejectionBody | undefined> {
    if (!request.complete) {
      this.#counts.skipped += 1;
      return undefined;
    }
    const result = await this.#call(() => this.#options.validator.validateRequest(
      { method: request.method, path: request.url, headers: request.headers, body: request.body },
      this.#callOptions(this.#options.requestCheckDeadlineMs),
    ));
    if (!result || result.valid) return undefined;
    if (this.#options.undocumentedRoutes === 'pass' && isUndocumentedRoute(result)) {
      this.#counts.undocumented += 1;
      return undefined;
    }
    this.#counts.rejected += 1;
    this.#report('request', request, undefined, result);
    return { error: 'Bad Request', message: 'The request does not match the API contract', errors: result.errors };
  }

  /**
   * After the response went out: schedules the validation (the response alone in strict mode, where
   * the request was checked already; request and response otherwise). Never throws.
   */
  afterResponse(request: CapturedRequest, response: CapturedResponse): void {
    // Strict mode checked the request before the handler; only the response is left.
    const requestNeeded = this.#options.mode !== 'strict';
    if ((requestNeeded && !request.complete) || !response.complete) {
      this.#counts.skipped += 1;
      return;
    }
    if (this.#pending.size >= this.#options.maxPendingValidations) {
      this.#counts.dropped += 1;
      return;
    }
    const task: Promise<void> = new Promise<void>((start) => this.#enqueue(start))
      .then(() => this.#validateExchange(request, response))
      .finally(() => this.#pending.delete(task));
    this.#pending.add(task);
  }

  /**
   * Validations start in batches, a few milliseconds after the responses went out: away from the
   * moment the response is delivered, and one burst of stream writes (and of results) for many
   * exchanges instead of one wake-up each.
   */
  #enqueue(start: () => void): void {
    this.#queue.push(start);
    if (this.#queue.length >= MIDDLEWARE_DEFAULTS.maxValidationBatch) this.#dispatch();
    else this.#batchTimer ??= setTimeout(() => this.#dispatch(), MIDDLEWARE_DEFAULTS.validationBatchDelayMs);
  }

  #dispatch(): void {
    clearTimeout(this.#batchTimer);
    this.#batchTimer = undefined;
    for (const start of this.#queue.splice(0)) start();
  }

  stats(): ProducerValidationStats {
    const stats: ProducerValidationStats = { ...this.#counts, pending: this.#pending.size };
    if (this.#options.recording) stats.recording = this.#recording?.stats() ?? { ...EMPTY_RECORDING_STATS };
    return stats;
  }

  /** Waits for every validation scheduled so far and, when recording, for the server to have taken what was recorded. */
  async flush(): Promise<void> {
    this.#dispatch();
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    await this.#recording?.flush();
  }

  async #validateExchange(request: CapturedRequest, response: CapturedResponse): Promise<void> {
    const validator = this.#options.validator;
    const callOptions = this.#callOptions(this.#options.validationDeadlineMs);
    const responseData = { statusCode: response.statusCode, headers: response.headers, body: response.body };
    const requestData = { method: request.method, path: request.url, headers: request.headers, body: request.body };
    const strict = this.#options.mode === 'strict';
    // Strict mode checked the request before the handler; an unread body cannot be checked at all.
    const responseOnly = strict || request.bodyUnread === true;
    const result = await this.#call(() => responseOnly
      ? validator.validateProducerResponse(
        { method: request.method, path: request.url, request: { ...requestData, body: undefined }, response: responseData },
        callOptions,
      )
      : (this.#stream ??= validator.openInteractionStream(callOptions)).validate(requestData, responseData));
    if (result) this.#record(request, requestData, responseData, result);
    if (!result || result.valid) return;
    // The request check let an undocumented route through to the app; its response is not the contract's either.
    if (strict && this.#options.undocumentedRoutes === 'pass' && isUndocumentedRoute(result)) return;
    this.#report(responseOnly ? 'response' : 'interaction', request, response.statusCode, result);
  }

  /** Hands a validated exchange to the background recording (which never waits and drops when full). */
  #record(request: CapturedRequest, requestData: ValidationRequest, responseData: ValidationResponse, result: ValidationResult): void {
    const recording = this.#options.recording;
    if (!recording) return;
    this.#recording ??= this.#options.validator.openRecording!(recording);
    const named = request.headers[recording.consumerIdHeader];
    const consumerId = typeof named === 'string' && named !== '' ? named : RECORDING_DEFAULTS.consumerId;
    this.#recording.record({
      schemaId: this.#options.schemaId,
      schemaVersion: result.validatedAgainstVersion,
      consumerId,
      request: requestData,
      response: responseData,
      valid: result.valid,
    });
  }

  /** One validator call: counted, and never rejecting (undefined when the validator failed). */
  async #call(operation: () => Promise<ValidationResult>): Promise<ValidationResult | undefined> {
    try {
      const result = await operation();
      this.#counts.validated += 1;
      return result;
    } catch (error) {
      this.#counts.validatorErrors += 1;
      this.#reportValidatorError(error);
      return undefined;
    }
  }

  #report(phase: ViolationPhase, request: CapturedRequest, statusCode: number | undefined, result: ValidationResult): void {
    this.#counts.violations += 1;
    const { mode, schemaId } = this.#options;
    const violation: ContractViolation = {
      mode,
      phase,
      schemaId,
      method: request.method,
      path: request.url,
      ...(statusCode === undefined ? {} : { statusCode }),
      errors: result.errors,
      validatedAgainstVersion: result.validatedAgainstVersion,
    };
    if (mode === 'warn') this.#logger.warn({ violation }, 'contract violation');
    else if (mode === 'strict' && phase === 'request') this.#logger.warn({ violation }, 'request rejected: contract violation');
    else if (mode === 'strict') this.#logger.error({ violation }, 'response violates the contract');
    const callback = this.#options.onViolation;
    if (callback) {
      try {
        callback(violation);
      } catch (error) {
        this.#logger.error({ err: describe(error) }, 'onViolation callback threw');
      }
    }
  }

  /** A validator that keeps failing would flood the log: first failure, then one line per interval. */
  #reportValidatorError(error: unknown): void {
    this.#unreportedValidatorErrors += 1;
    const now = Date.now();
    if (now - this.#lastValidatorErrorLogMs < MIDDLEWARE_DEFAULTS.validatorErrorLogIntervalMs) return;
    this.#logger.warn(
      { err: describe(error), failures: this.#unreportedValidatorErrors, schemaId: this.#options.schemaId },
      'contract validator unavailable; traffic continues unvalidated',
    );
    this.#lastValidatorErrorLogMs = now;
    this.#unreportedValidatorErrors = 0;
  }

  #callOptions(deadlineMs: number): SchemaCallOptions {
    const { schemaId, schemaVersion } = this.#options;
    return schemaVersion === undefined ? { schemaId, deadlineMs } : { schemaId, schemaVersion, deadlineMs };
  }
}

/**
 * Whether a request check failed only because no operation of the document matches the route: the
 * service's documented route messages (`Path not found: <path>`, `method <METHOD> is not defined for
 * <template> (...)`), the only errors such a check can report.
 */
export function isUndocumentedRoute(result: ValidationResult): boolean {
  return result.errors.length === 1 && /^(?:Path not found: |method \S+ is not defined for )/.test(result.errors[0]!);
}

function describe(error: unknown): object {
  if (isContractValidatorError(error)) return { code: error.code, message: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}

/**
 * A body parser's result as the JSON text validated. A value JSON cannot write (a BigInt, a cycle)
 * leaves the exchange unvalidated (`complete: false`, counted as skipped) instead of throwing into
 * the application's request.
 */
export function parsedBodyText(body: unknown): { text: string; complete: boolean } {
  try {
    return { text: encodeBody(body).text, complete: true };
  } catch {
    return { text: '', complete: false };
  }
}

/** The stats/flush surface every middleware carries, bound to its validation. */
export function handleOf(validation: ProducerValidation): ProducerValidationHandle {
  return {
    mode: validation.mode,
    stats: () => validation.stats(),
    flush: () => validation.flush(),
  };
}
