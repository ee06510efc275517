/**
 * One validation call inside a worker: decode the request message, check the call's own fields,
 * run the compiled contract. Everything it answers is a value; a malformed message is reported
 * to the caller as a call failure, never thrown across the thread boundary.
 */
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import { WireFormatError } from '../shared/pool-protocol/protobuf-wire';
import { MessageLimitError, decodeInteractionRequest, decodeProducerRequest, readInteractionHead } from '../shared/pool-protocol/validation-codec';
import { ValidationOperation } from '../shared/pool-protocol/batches';
import { NOT_PREPARED, type CompiledContract, type ValidationOutcome } from '../shared/validation';

export type MessageVerdict =
  | { ok: true; outcome: ValidationOutcome; correlationId: string }
  | { ok: false; code: ErrorCode; message: string }
  /** Only with `preparedOnly`: the call would compile part of the contract first, so it was not run. */
  | { ok: 'cold' };

/** Messages of the call-level checks made here (the engine words everything about the interaction). */
export const callMessages = Object.freeze({
  requestRequired: () => 'request is required: InteractionRequest.request is empty',
  responseRequired: () => 'response is required: ValidateProducerRequest.response is empty',
  contractUnavailable: (reason: string) => `the schema could not be prepared for validation: ${reason}`,
});

/**
 * Validates one call. With `preparedOnly`, a call whose operation has never been validated by this
 * contract (so the first one compiles its schemas) is answered `cold` instead of being run.
 */
export function validateMessage(operation: ValidationOperation, bytes: Buffer, contract: CompiledContract, preparedOnly = false): MessageVerdict {
  try {
    return operation === ValidationOperation.INTERACTION
      ? validateInteraction(bytes, contract, preparedOnly)
      : validateProducerResponse(bytes, contract, preparedOnly);
  } catch (error) {
    if (error instanceof WireFormatError) {
      return { ok: false, code: ErrorCode.INVALID_ARGUMENT, message: `the request is not a valid protobuf message: ${error.message}` };
    }
    if (error instanceof MessageLimitError) return { ok: false, code: ErrorCode.LIMIT_EXCEEDED, message: error.message };
    // The engine's own refusals (a value too long for any engine to check against its format or pattern).
    if (error instanceof SvcError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: ErrorCode.INTERNAL, message: `validation failed unexpectedly: ${errorMessage(error)}` };
  }
}

/** The answer for every call against a schema whose contract could not be built. */
export function contractFailureOutcome(reason: string): ValidationOutcome {
  return { valid: false, errors: [callMessages.contractUnavailable(reason)], category: 'router_creation' };
}

/** The correlation id of a message, for answers that never reach the engine. */
export function correlationIdOf(operation: ValidationOperation, bytes: Buffer): string {
  if (operation !== ValidationOperation.INTERACTION) return '';
  try {
    return readInteractionHead(bytes).correlationId;
  } catch {
    return '';
  }
}

function validateInteraction(bytes: Buffer, contract: CompiledContract, preparedOnly: boolean): MessageVerdict {
  const message = decodeInteractionRequest(bytes);
  const { correlationId, request, response } = message;
  if (request === undefined) return { ok: true, outcome: inputInvalid(callMessages.requestRequired()), correlationId };
  const outcome = contract.validateInteraction(response === undefined ? { request } : { request, response }, { preparedOnly });
  return outcome === NOT_PREPARED ? { ok: 'cold' } : { ok: true, outcome, correlationId };
}

function validateProducerResponse(bytes: Buffer, contract: CompiledContract, preparedOnly: boolean): MessageVerdict {
  const { method, path, response, request } = decodeProducerRequest(bytes);
  if (response === undefined) return { ok: true, outcome: inputInvalid(callMessages.responseRequired()), correlationId: '' };
  const input = request === undefined ? { method, path, response } : { method, path, response, request };
  const outcome = contract.validateProducerResponse(input, { preparedOnly });
  return outcome === NOT_PREPARED ? { ok: 'cold' } : { ok: true, outcome, correlationId: '' };
}

function inputInvalid(message: string): ValidationOutcome {
  return { valid: false, errors: [message], category: 'input_validation' };
}
