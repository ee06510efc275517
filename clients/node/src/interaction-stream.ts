/**
 * InteractionStream: validates interactions one at a time as they happen, pipelined over one
 * long-lived ValidateInteractionStream call instead of a unary call each. A message on an open stream
 * costs the caller's process a fraction of a unary call's CPU (no new HTTP/2 stream, no headers),
 * which is what a producer validating its live traffic in the background needs.
 *
 * - Each validation has its own deadline; results are matched by `correlation_id`.
 * - The stream opens on first use and closes after `idleCloseMs` with nothing in flight, so an idle
 *   process can exit (cancelled when the server has not finished it another `idleCloseMs` later);
 *   the next validation reopens it.
 * - A stream that fails rejects the validations it carried (the next one opens a new stream); a
 *   server without the streaming operation gets unary calls from then on.
 */
import type { InteractionRequest } from './generated/svc/InteractionRequest';
import type { ValidationResult__Output } from './generated/svc/ValidationResult';
import { ContractValidatorError, fromServiceError } from './client-error';
import { toValidationResult } from './results';
import type { Transport, ValidationStream } from './transport';
import type { ValidationRequest, ValidationResponse, ValidationResult } from './types';
import { toRequestData, toResponseData } from './wire';

export const INTERACTION_STREAM_DEFAULTS = Object.freeze({
  /** A stream with nothing in flight for this long is ended; the next validation reopens one. */
  idleCloseMs: 5_000,
});

interface Pending {
  message: InteractionRequest;
  deadlineAt: number;
  resolve(result: ValidationResult__Output): void;
  reject(error: Error): void;
}

export interface InteractionStreamSettings {
  transport: Transport;
  schemaId: string;
  schemaVersion: string;
  /** Deadline of each validation. */
  deadlineMs: number;
  idleCloseMs?: number;
  /** Told once when the stream is closed (the client forgets it then). */
  onClose?: () => void;
}

export class InteractionStream {
  readonly #settings: InteractionStreamSettings;
  readonly #idleCloseMs: number;
  /** In write order, which is also deadline order: the deadline sweep only looks at the front. */
  readonly #pending = new Map<string, Pending>();
  #stream: ValidationStream | undefined;
  #streamUnsupported = false;
  #nextId = 0;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(settings: InteractionStreamSettings) {
    this.#settings = settings;
    this.#idleCloseMs = settings.idleCloseMs ?? INTERACTION_STREAM_DEFAULTS.idleCloseMs;
  }

  /** Validates one interaction (request and response); failures to validate reject, violations resolve. */
  async validate(request: ValidationRequest, response: ValidationResponse): Promise<ValidationResult> {
    if (this.#closed) throw new ContractValidatorError('FAILED_PRECONDITION', 'the interaction stream is closed');
    const { schemaId, schemaVersion, deadlineMs, transport } = this.#settings;
    const message: InteractionRequest = {
      schema_id: schemaId,
      schema_version: schemaVersion,
      request: toRequestData(request),
      response: toResponseData(response),
    };
    if (this.#streamUnsupported) return toValidationResult(await transport.unary('ValidateInteraction', message, deadlineMs));
    return toValidationResult(await new Promise<ValidationResult__Output>((resolve, reject) => {
      const stream = this.#currentStream();
      const id = String(this.#nextId++);
      this.#pending.set(id, { message, deadlineAt: Date.now() + deadlineMs, resolve, reject });
      clearTimeout(this.#idleTimer);
      stream.write({ ...message, correlation_id: id });
      this.#armDeadline();
    }));
  }

  /** Validations in flight. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Ends the stream; validations still in flight are rejected (CANCELLED). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#settings.onClose?.();
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#deadlineTimer);
    this.#failAll(new ContractValidatorError('CANCELLED', 'the interaction stream was closed'));
    this.#stream?.cancel();
    this.#stream = undefined;
  }

  #currentStream(): ValidationStream {
    if (this.#stream) return this.#stream;
    // No deadline on the call itself: it lives as long as there is traffic; each validation has its own.
    const stream = this.#settings.transport.validationStream(undefined);
    let answered = false;
    stream.on('data', (result: ValidationResult__Output) => {
      answered = true;
      const entry = this.#pending.get(result.correlation_id);
      if (!entry) return; // its deadline passed already
      this.#pending.delete(result.correlation_id);
      entry.resolve(result);
      if (this.#pending.size === 0) this.#armIdleClose();
    });
    stream.on('error', (error: Error) => {
      if (this.#stream !== stream) return;
      this.#stream = undefined;
      const mapped = fromServiceError(error);
      if (mapped.code === 'UNIMPLEMENTED' && !answered) this.#switchToUnary();
      else this.#failAll(mapped);
    });
    stream.on('end', () => {
      if (this.#stream !== stream) return;
      this.#stream = undefined;
      this.#failAll(new ContractValidatorError('UNAVAILABLE', 'the server ended the validation stream'));
    });
    this.#stream = stream;
    return stream;
  }

  /** The server has no streaming operation: what was written goes out as unary calls, and so does all that follows. */
  #switchToUnary(): void {
    this.#streamUnsupported = true;
    const { transport, deadlineMs } = this.#settings;
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of waiting) transport.unary('ValidateInteraction', entry.message, deadlineMs).then(entry.resolve, entry.reject);
  }

  #failAll(error: Error): void {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const entry of waiting) entry.reject(error);
  }

  #armDeadline(): void {
    if (this.#deadlineTimer !== undefined) return;
    const first = this.#pending.values().next().value;
    if (!first) return;
    this.#deadlineTimer = setTimeout(() => {
      this.#deadlineTimer = undefined;
      const now = Date.now();
      for (const [id, entry] of this.#pending) {
        if (entry.deadlineAt > now) break;
        this.#pending.delete(id);
        entry.reject(new ContractValidatorError('DEADLINE_EXCEEDED', `no validation result within ${this.#settings.deadlineMs} ms`));
      }
      if (this.#pending.size === 0) this.#armIdleClose();
      else this.#armDeadline();
    }, Math.max(0, first.deadlineAt - Date.now()));
    this.#deadlineTimer.unref();
  }

  #armIdleClose(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => {
      const stream = this.#stream;
      if (!stream || this.#pending.size > 0) return;
      this.#stream = undefined;
      stream.end();
      // A server that stopped answering never finishes the call, which would hold the process open
      // for good: what it has not finished within another idleCloseMs is cancelled.
      const cancel = setTimeout(() => stream.cancel(), this.#idleCloseMs);
      stream.on('status', () => clearTimeout(cancel));
    }, this.#idleCloseMs);
    this.#idleTimer.unref();
  }
}
