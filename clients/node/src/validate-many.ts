/**
 * Validates many interactions over the bidirectional ValidateInteractionStream operation: requests
 * written with back-pressure, each tagged with its index as `correlation_id`, results placed by it.
 *
 * - A stream that ends UNAVAILABLE after answering part of the batch (a worker or the server went
 *   away) is reopened for the interactions still unanswered, a bounded number of times.
 * - A server without the streaming operation (UNIMPLEMENTED before any result) gets unary calls
 *   instead, a bounded number in flight, so suites also run against older servers.
 * The deadline covers the whole batch, reopened streams included.
 */
import type { InteractionRequest } from './generated/svc/InteractionRequest';
import type { ValidationResult__Output } from './generated/svc/ValidationResult';
import { ContractValidatorError, fromServiceError } from './client-error';
import type { Transport, ValidationStream } from './transport';

export const VALIDATE_MANY_DEFAULTS = Object.freeze({
  /** Streams reopened after an UNAVAILABLE end that followed some progress. */
  maxStreamReopens: 3,
  /** Unary calls in flight when the server has no streaming operation. */
  unaryFallbackConcurrency: 16,
});

export async function validateMany(
  transport: Transport,
  requests: readonly InteractionRequest[],
  deadlineMs: number,
): Promise<ValidationResult__Output[]> {
  const results = new Array<ValidationResult__Output | undefined>(requests.length);
  const deadline = Date.now() + deadlineMs;
  let reopens = 0;
  let pending = requests.map((_, index) => index);
  while (pending.length > 0) {
    const { answered, error } = await streamOnce(transport, requests, pending, results, Math.max(1, deadline - Date.now()));
    if (!error) break;
    const neverAnswered = answered === 0 && pending.length === requests.length;
    if (error.code === 'UNIMPLEMENTED' && neverAnswered) {
      return validateUnary(transport, requests, Math.max(1, deadline - Date.now()));
    }
    if (error.code !== 'UNAVAILABLE' || answered === 0 || reopens >= VALIDATE_MANY_DEFAULTS.maxStreamReopens) throw error;
    reopens += 1;
    pending = pending.filter((index) => results[index] === undefined);
  }
  return results as ValidationResult__Output[];
}

/** One stream over the `pending` indices; resolves with how many were answered and how it ended. */
function streamOnce(
  transport: Transport,
  requests: readonly InteractionRequest[],
  pending: readonly number[],
  results: Array<ValidationResult__Output | undefined>,
  deadlineMs: number,
): Promise<{ answered: number; error?: ContractValidatorError }> {
  return new Promise((resolve) => {
    const stream = transport.validationStream(deadlineMs);
    let answered = 0;
    let settled = false;
    const settle = (error?: ContractValidatorError) => {
      if (settled) return;
      settled = true;
      if (error) stream.cancel();
      resolve(error ? { answered, error } : { answered });
    };

    stream.on('data', (result: ValidationResult__Output) => {
      const index = Number(result.correlation_id);
      if (!Number.isInteger(index) || index < 0 || index >= requests.length || results[index] !== undefined) {
        settle(new ContractValidatorError('INTERNAL', `the server answered an unknown correlation_id "${result.correlation_id}"`));
        return;
      }
      results[index] = result;
      answered += 1;
    });
    stream.on('error', (error: Error) => settle(fromServiceError(error)));
    stream.on('end', () => {
      if (answered === pending.length) settle();
      else settle(new ContractValidatorError('UNAVAILABLE', `the stream ended after ${answered} of ${pending.length} results`));
    });

    void writeAll(stream, requests, pending, () => settled).then(() => {
      if (!settled) stream.end();
    });
  });
}

async function writeAll(stream: ValidationStream, requests: readonly InteractionRequest[], pending: readonly number[], stopped: () => boolean): Promise<void> {
  for (const index of pending) {
    if (stopped()) return;
    if (!stream.write({ ...requests[index], correlation_id: String(index) })) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
      });
    }
  }
}

async function validateUnary(transport: Transport, requests: readonly InteractionRequest[], deadlineMs: number): Promise<ValidationResult__Output[]> {
  const results = new Array<ValidationResult__Output>(requests.length);
  // The deadline covers the whole batch: each call gets what is left of it, not all of it.
  const deadline = Date.now() + deadlineMs;
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < requests.length) {
      const index = next++;
      try {
        results[index] = await transport.unary('ValidateInteraction', requests[index]!, Math.max(1, deadline - Date.now()));
      } catch (error) {
        failed = true; // the other workers stop taking new requests
        throw error;
      }
    }
  };
  const workers = Math.min(VALIDATE_MANY_DEFAULTS.unaryFallbackConcurrency, requests.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
