/**
 * What the HTTP-client adapters share: a bounded list of captured interactions and, with
 * `autoValidate`, the validation of each one before the adapter hands the response back, so a
 * consumer test sees a contract failure at the call that caused it.
 */
import { invalidUse } from '../client-error';
import { positiveInteger } from '../client-options';
import type { ContractValidator } from '../contract-validator';
import type { CapturedInteraction, ValidationResult } from '../types';
import { EMPTY_RECORDING_STATS, resolveRecordingOptions, type InteractionRecording, type RecordInteractionsOptions, type RecordingStats, type ResolvedRecordingOptions } from '../recording/interaction-recording';

export interface CaptureOptions {
  /** Needed for `autoValidate` and `recordInteractions`. */
  validator?: Pick<ContractValidator, 'validate'> & Partial<Pick<ContractValidator, 'openRecording' | 'schemaId'>>;
  /** Validate each interaction as it completes; default false. */
  autoValidate?: boolean;
  /** Called for each auto-validated interaction that is not valid. */
  onValidationFailure?: (result: ValidationResult, interaction: CapturedInteraction) => void;
  /** Validate against this schema instead of the validator's bound one. */
  schemaId?: string;
  schemaVersion?: string;
  /** Oldest interactions are forgotten beyond this count. */
  maxInteractions?: number;
  /** Bodies larger than this are recorded without their body. */
  maxBodyBytes?: number;
  /**
   * Hand the code a parsed response body that notes which fields it reads (`readFields` of each
   * interaction; a consumer built from the interactions then uses the fields read). Default: on with
   * `recordInteractions`, off otherwise.
   */
  trackReads?: boolean;
  /**
   * Send each interaction (redacted, with the fields read) to the server in the background, for
   * coverage, observed consumers and replay in can-i-deploy (docs/evidence.md); default off. Name the
   * consumer with `consumerId`.
   */
  recordInteractions?: boolean | RecordInteractionsOptions;
}

/** The capture surface every adapter offers. */
export interface InteractionCapture {
  /** A copy of the interactions captured so far, oldest first. */
  getInteractions(): CapturedInteraction[];
  clearInteractions(): void;
  /** With `recordInteractions`: sends what is queued (read windows cut short) and waits for the server. */
  flushRecording(): Promise<void>;
  /** With `recordInteractions`: the background recording's counts; undefined otherwise. */
  recordingStats(): RecordingStats | undefined;
}

export const CAPTURE_DEFAULTS = Object.freeze({
  maxInteractions: 10_000,
  maxBodyBytes: 1024 * 1024, // 1 MiB
});

export class InteractionRecorder implements InteractionCapture {
  readonly #options: CaptureOptions;
  readonly #maxInteractions: number;
  readonly maxBodyBytes: number;
  readonly tracksReads: boolean;
  readonly #recordingOptions: ResolvedRecordingOptions | undefined;
  #recording: InteractionRecording | undefined;
  #interactions: CapturedInteraction[] = [];

  constructor(options: CaptureOptions = {}) {
    if (options.autoValidate && typeof options.validator?.validate !== 'function') {
      throw invalidUse('autoValidate needs options.validator (a ContractValidator)');
    }
    if (options.onValidationFailure !== undefined && typeof options.onValidationFailure !== 'function') {
      throw invalidUse('options.onValidationFailure must be a function');
    }
    this.#options = options;
    this.#maxInteractions = positiveInteger('options.maxInteractions', options.maxInteractions) ?? CAPTURE_DEFAULTS.maxInteractions;
    this.maxBodyBytes = positiveInteger('options.maxBodyBytes', options.maxBodyBytes) ?? CAPTURE_DEFAULTS.maxBodyBytes;
    this.#recordingOptions = resolveRecordingOptions('options.recordInteractions', options.recordInteractions);
    if (this.#recordingOptions && typeof options.validator?.openRecording !== 'function') {
      throw invalidUse('recordInteractions needs options.validator (a ContractValidator)');
    }
    this.tracksReads = options.trackReads ?? this.#recordingOptions !== undefined;
  }

  /**
   * Records an interaction and, with autoValidate, validates it. A validator failure (for example
   * UNAVAILABLE) rejects: a contract test must not pass because nothing was checked.
   */
  async record(interaction: CapturedInteraction): Promise<void> {
    this.#interactions.push(interaction);
    if (this.#interactions.length > this.#maxInteractions) this.#interactions.shift();
    const { autoValidate, validator, onValidationFailure, schemaId, schemaVersion } = this.#options;
    if (autoValidate && validator) {
      const callOptions = schemaId === undefined ? {} : { schemaId, ...(schemaVersion === undefined ? {} : { schemaVersion }) };
      const result = await validator.validate(interaction.request, interaction.response, callOptions);
      interaction.validation = result;
      if (!result.valid) onValidationFailure?.(result, interaction);
    }
    this.#sendToRecording(interaction);
  }

  /** Queues the interaction for the server; its reads are tracked for the read window before it is sent. */
  #sendToRecording(interaction: CapturedInteraction): void {
    const settings = this.#recordingOptions;
    const validator = this.#options.validator;
    if (!settings || !validator?.openRecording) return;
    const schemaId = this.#options.schemaId ?? validator.schemaId;
    if (schemaId === undefined) return; // nothing to attribute it to: no schema bound or given
    this.#recording ??= validator.openRecording(settings);
    this.#recording.record({
      schemaId,
      schemaVersion: interaction.validation?.validatedAgainstVersion ?? this.#options.schemaVersion ?? '',
      consumerId: settings.consumerId,
      request: interaction.request,
      response: interaction.response,
      valid: interaction.validation?.valid,
      // Read when sent: the code may still be reading the body now.
      get readFields() {
        return interaction.readFields;
      },
      notBefore: Date.now() + settings.readWindowMs,
    });
  }

  async flushRecording(): Promise<void> {
    await this.#recording?.flush();
  }

  recordingStats(): RecordingStats | undefined {
    if (!this.#recordingOptions) return undefined;
    return this.#recording?.stats() ?? { ...EMPTY_RECORDING_STATS };
  }

  getInteractions(): CapturedInteraction[] {
    return [...this.#interactions];
  }

  clearInteractions(): void {
    this.#interactions = [];
  }

  /** The methods handed to users, bound to this recorder. */
  surface(): InteractionCapture {
    return {
      getInteractions: () => this.getInteractions(),
      clearInteractions: () => this.clearInteractions(),
      flushRecording: () => this.flushRecording(),
      recordingStats: () => this.recordingStats(),
    };
  }
}

/**
 * Media types of bodies that arrive as a stream of messages, possibly without end (server-sent
 * events, JSON lines): never recorded, so the caller gets the response at once.
 */
const STREAMED_MEDIA_TYPE = /^\s*(?:text\/event-stream|application\/(?:x-)?ndjson|application\/jsonl|application\/json-seq|application\/stream\+json|application\/x-json-stream)\b/i;

/** Content types whose bodies are recorded: JSON and text, XML, forms; not streams of messages. */
export function isCapturableContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  if (STREAMED_MEDIA_TYPE.test(contentType)) return false;
  return /json|xml|x-www-form-urlencoded/i.test(contentType) || /^text\//i.test(contentType);
}

/** Recorded body: JSON text parsed to its value when it is an object, array, number or boolean; text otherwise. */
export function recordedBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (!contentType || /json/i.test(contentType)) {
    try {
      const value: unknown = JSON.parse(text);
      // A top-level JSON string stays text: handed back as a string it must not lose its quotes.
      if (typeof value !== 'string') return value;
    } catch {
      // not JSON after all: keep the text
    }
  }
  return text;
}
