/**
 * InteractionRecording: sends the interactions an app sees to the server (RecordInteractions) in the
 * background, for coverage, observed consumers and replay in can-i-deploy (docs/evidence.md).
 *
 * Recording never slows the app: `record()` only appends to a bounded queue (full: the interaction
 * is dropped and counted); redaction, encoding and the writes happen later, over one long-lived
 * client stream that is ended when idle (the server's answer is counted then) and reopened on demand.
 * A failing server is counted, never thrown at the app.
 */
import { invalidUse, type ContractValidatorError } from '../client-error';
import { positiveInteger, positiveMs } from '../client-options';
import type { RecordedInteraction } from '../generated/svc/RecordedInteraction';
import type { RecordInteractionsResponse__Output } from '../generated/svc/RecordInteractionsResponse';
import { DEFAULT_CONSUMER_ENVIRONMENT } from '../protocol/wire-constants';
import type { RecordingStream, Transport } from '../transport';
import type { ValidationRequest, ValidationResponse, ValidationResult } from '../types';
import { toRequestData, toResponseData } from '../wire';
import { DEFAULT_REDACTED_KEYS, Redactor } from './redaction';

/** The `recordInteractions` option of the middleware and the capture adapters. */
export interface RecordInteractionsOptions {
  /** The environment the traffic belongs to; default `dev`. */
  environment?: string;
  /** Capture adapters: the consumer this traffic comes from; default `unknown`. */
  consumerId?: string;
  /** Producer middleware: the request header naming the calling consumer; default `x-consumer-id`. */
  consumerIdHeader?: string;
  /** Header and JSON key names whose values are replaced before sending; default the server's list. */
  redactKeys?: readonly string[];
  /** Interactions waiting to be sent; beyond it new ones are dropped (counted). */
  maxQueuedInteractions?: number;
  /** Capture adapters: how long the consumer's reads of a response are tracked before it is sent. */
  readWindowMs?: number;
  /** An idle stream is ended after this long (and the server's counts are read); the next interaction reopens it. */
  idleCloseMs?: number;
}

export const RECORDING_DEFAULTS = Object.freeze({
  environment: DEFAULT_CONSUMER_ENVIRONMENT,
  consumerId: 'unknown',
  consumerIdHeader: 'x-consumer-id',
  redactKeys: DEFAULT_REDACTED_KEYS,
  maxQueuedInteractions: 1_000,
  readWindowMs: 2_000,
  idleCloseMs: 2_000,
  /** Queued interactions are sent at most this long after the first of a burst was queued. */
  sendBatchDelayMs: 20,
});

/** One interaction handed to the recording. */
export interface InteractionToRecord {
  schemaId: string;
  /** The version validated against; empty: the latest. */
  schemaVersion: string;
  consumerId: string;
  request: ValidationRequest;
  response: ValidationResponse;
  /** Undefined: validated in the background before sending. */
  valid: boolean | undefined;
  /** Fields the consumer's code read, when tracked (still growing until sent). */
  readFields?: ReadonlySet<string>;
  /** Send no earlier than this (epoch ms): reads are still being tracked. */
  notBefore?: number;
}

export interface RecordingStats {
  /** Interactions handed over and queued. */
  recorded: number;
  /** Written to the server. */
  sent: number;
  /** Not queued because the queue was full. */
  dropped: number;
  /** Lost to a failing server or validator. */
  failed: number;
  /** The server's answers: interactions kept, and not kept (unknown route, limits). */
  accepted: number;
  notKept: number;
  /** Waiting now. */
  queued: number;
}

/** The counts of a recording that has not started (nothing recorded yet). */
export const EMPTY_RECORDING_STATS: Readonly<RecordingStats> = Object.freeze({ recorded: 0, sent: 0, dropped: 0, failed: 0, accepted: 0, notKept: 0, queued: 0 });

export interface InteractionRecordingSettings {
  transport: Transport;
  options: RecordInteractionsOptions;
  /** Validates an interaction whose validity is not known yet. */
  validate(request: ValidationRequest, response: ValidationResponse, schemaId: string, schemaVersion: string): Promise<ValidationResult>;
  onClose?: () => void;
}

export interface ResolvedRecordingOptions {
  environment: string;
  consumerId: string;
  consumerIdHeader: string;
  redactKeys: readonly string[];
  maxQueuedInteractions: number;
  readWindowMs: number;
  idleCloseMs: number;
}

export function resolveRecordingOptions(name: string, value: boolean | RecordInteractionsOptions | undefined): ResolvedRecordingOptions | undefined {
  if (value === undefined || value === false) return undefined;
  const options: RecordInteractionsOptions = value === true ? {} : value;
  if (options === null || typeof options !== 'object') throw invalidUse(`${name} must be true, false or an options object`);
  for (const key of ['environment', 'consumerId', 'consumerIdHeader'] as const) {
    const text = options[key];
    if (text !== undefined && (typeof text !== 'string' || text === '')) throw invalidUse(`${name}.${key} must be a non-empty string`);
  }
  if (options.redactKeys !== undefined && (!Array.isArray(options.redactKeys) || !options.redactKeys.every((key) => typeof key === 'string'))) {
    throw invalidUse(`${name}.redactKeys must be an array of key names`);
  }
  return {
    environment: options.environment ?? RECORDING_DEFAULTS.environment,
    consumerId: options.consumerId ?? RECORDING_DEFAULTS.consumerId,
    consumerIdHeader: (options.consumerIdHeader ?? RECORDING_DEFAULTS.consumerIdHeader).toLowerCase(),
    redactKeys: options.redactKeys ?? RECORDING_DEFAULTS.redactKeys,
    maxQueuedInteractions: positiveInteger(`${name}.maxQueuedInteractions`, options.maxQueuedInteractions) ?? RECORDING_DEFAULTS.maxQueuedInteractions,
    readWindowMs: options.readWindowMs === 0 ? 0 : positiveMs(`${name}.readWindowMs`, options.readWindowMs) ?? RECORDING_DEFAULTS.readWindowMs,
    idleCloseMs: positiveMs(`${name}.idleCloseMs`, options.idleCloseMs) ?? RECORDING_DEFAULTS.idleCloseMs,
  };
}

export class InteractionRecording {
  readonly #settings: InteractionRecordingSettings;
  readonly #options: ResolvedRecordingOptions;
  readonly #redactor: Redactor;
  readonly #queue: InteractionToRecord[] = [];
  readonly #counts = { recorded: 0, sent: 0, dropped: 0, failed: 0, accepted: 0, notKept: 0 };
  #stream: { stream: RecordingStream; written: { count: number } } | undefined;
  /** Settles when the server answered the stream last ended. */
  #answered: Promise<void> = Promise.resolve();
  #pump: Promise<void> | undefined;
  #wakeTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(settings: InteractionRecordingSettings) {
    this.#settings = settings;
    this.#options = resolveRecordingOptions('recordInteractions', settings.options)!;
    this.#redactor = new Redactor(this.#options.redactKeys);
  }

  get options(): ResolvedRecordingOptions {
    return this.#options;
  }

  /** Queues an interaction; false when it was dropped (queue full, recording closed). Never throws, never waits. */
  record(interaction: InteractionToRecord): boolean {
    if (this.#closed || this.#queue.length >= this.#options.maxQueuedInteractions) {
      this.#counts.dropped += 1;
      return false;
    }
    this.#queue.push(interaction);
    this.#counts.recorded += 1;
    this.#schedule();
    return true;
  }

  stats(): RecordingStats {
    return { ...this.#counts, queued: this.#queue.length };
  }

  /** Sends everything queued (read windows cut short), ends the stream and waits for the server's answer. */
  async flush(): Promise<void> {
    clearTimeout(this.#wakeTimer);
    this.#wakeTimer = undefined;
    while (this.#queue.length > 0 || this.#pump) await (this.#pump ?? this.#startPump(true));
    this.#endStream();
    await this.#answered;
  }

  /** Ends the stream (what was written is still answered); queued interactions are dropped. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#settings.onClose?.();
    clearTimeout(this.#wakeTimer);
    clearTimeout(this.#idleTimer);
    this.#counts.dropped += this.#queue.splice(0).length;
    this.#endStream();
  }

  #schedule(): void {
    if (this.#pump || this.#wakeTimer || this.#queue.length === 0) return;
    // Interactions go out in bursts, a little after they happened: one wake-up for many, away from the request path.
    const wait = Math.max(RECORDING_DEFAULTS.sendBatchDelayMs, (this.#queue[0]!.notBefore ?? 0) - Date.now());
    this.#wakeTimer = setTimeout(() => {
      this.#wakeTimer = undefined;
      void this.#startPump(false);
    }, wait);
    this.#wakeTimer.unref();
  }

  #startPump(ignoreReadWindows: boolean): Promise<void> {
    this.#pump ??= this.#send(ignoreReadWindows).finally(() => {
      this.#pump = undefined;
      if (this.#queue.length > 0) this.#schedule();
      else this.#armIdleClose();
    });
    return this.#pump;
  }

  /** Writes the ready interactions in queue order, respecting the stream's back-pressure. */
  async #send(ignoreReadWindows: boolean): Promise<void> {
    clearTimeout(this.#idleTimer);
    while (this.#queue.length > 0 && !this.#closed) {
      const next = this.#queue[0]!;
      if (!ignoreReadWindows && (next.notBefore ?? 0) > Date.now()) return;
      this.#queue.shift();
      let message: RecordedInteraction;
      try {
        message = await this.#toMessage(next);
      } catch {
        this.#counts.failed += 1;
        continue;
      }
      if (this.#closed) return;
      let stream: RecordingStream;
      try {
        const current = this.#currentStream();
        stream = current.stream;
        current.written.count += 1;
      } catch {
        this.#counts.failed += 1; // the client was closed
        continue;
      }
      this.#counts.sent += 1;
      if (!stream.write(message)) await drained(stream);
    }
  }

  async #toMessage(interaction: InteractionToRecord): Promise<RecordedInteraction> {
    const { schemaId, schemaVersion, request, response, readFields } = interaction;
    let version = schemaVersion;
    let valid = interaction.valid;
    if (valid === undefined) {
      const result = await this.#settings.validate(request, response, schemaId, schemaVersion);
      valid = result.valid;
      version = result.validatedAgainstVersion || schemaVersion;
    }
    const requestData = toRequestData(request);
    const responseData = toResponseData(response);
    return {
      schema_id: schemaId,
      schema_version: version,
      environment: this.#options.environment,
      consumer_id: interaction.consumerId,
      request: { ...requestData, path: this.#redactor.path(requestData.path ?? ''), headers: this.#redactor.headers(requestData.headers ?? {}), body: this.#redactor.body(requestData.body ?? '') },
      response: { ...responseData, headers: this.#redactor.headers(responseData.headers ?? {}), body: this.#redactor.body(responseData.body ?? '') },
      valid,
      read_fields: readFields ? [...readFields].sort() : [],
      read_fields_tracked: readFields !== undefined,
    };
  }

  #currentStream(): { stream: RecordingStream; written: { count: number } } {
    if (this.#stream) return this.#stream;
    let settle!: () => void;
    this.#answered = new Promise<void>((resolve) => (settle = resolve));
    const written = { count: 0 };
    const stream = this.#settings.transport.recordingStream((error: ContractValidatorError | null, answer?: RecordInteractionsResponse__Output) => {
      if (error || !answer) this.#counts.failed += written.count;
      else {
        this.#counts.accepted += Number(answer.accepted);
        this.#counts.notKept += Number(answer.dropped);
      }
      if (this.#stream?.stream === stream) this.#stream = undefined;
      settle();
    });
    stream.on('error', () => undefined); // the callback above has the failure
    this.#stream = { stream, written };
    return this.#stream;
  }

  #endStream(): void {
    const stream = this.#stream;
    this.#stream = undefined;
    stream?.stream.end();
  }

  #armIdleClose(): void {
    clearTimeout(this.#idleTimer);
    if (!this.#stream) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#queue.length === 0 && !this.#pump) this.#endStream();
    }, this.#options.idleCloseMs);
    this.#idleTimer.unref();
  }
}

/** Resolves when the stream can take more, or is gone. */
function drained(stream: RecordingStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
