/**
 * How requests are decoded, operation by operation. The validation operations keep their messages
 * as raw protobuf bytes on the main thread (workers decode them). Every other operation is decoded by
 * the protobuf library, behind a guard: grpc-js answers a request that fails to decode with
 * INTERNAL, while a malformed message is the caller's mistake, so the guard hands the handler a
 * marker instead and the handler answers INVALID_ARGUMENT.
 */
import type * as grpc from '@grpc/grpc-js';
import type { ContractValidatorDefinition } from '@svc/client/protocol';
import { invalidArgument, errorMessage, type SvcError } from '../shared/errors';
import { RAW_VALIDATION_OPERATIONS } from '../shared/pool-protocol/validation-codec';

const MALFORMED = Symbol('malformed request');

interface MalformedRequest {
  readonly [MALFORMED]: SvcError;
}

/** The SvcError to answer when `request` is the marker of a message that did not decode. */
export function malformedRequestError(request: unknown): SvcError | undefined {
  return typeof request === 'object' && request !== null && MALFORMED in request ? (request as MalformedRequest)[MALFORMED] : undefined;
}

/** The service definition with pass-through codecs for the validation operations and guarded decoding for the rest. */
export function withRequestCodecs(definition: ContractValidatorDefinition): grpc.ServiceDefinition {
  // One map for operations of different message types: only `any` fits them all.
  const codecs: Record<string, grpc.MethodDefinition<any, any>> = {};
  for (const [name, method] of Object.entries(definition) as Array<[string, grpc.MethodDefinition<any, any>]>) {
    codecs[name] = name in RAW_VALIDATION_OPERATIONS
      ? { ...method, requestDeserialize: (bytes: Buffer) => bytes, responseSerialize: (bytes: Buffer) => bytes }
      : { ...method, requestDeserialize: guardedDeserializer(method.requestDeserialize) };
  }
  return codecs as grpc.ServiceDefinition;
}

function guardedDeserializer(deserialize: (bytes: Buffer) => unknown): (bytes: Buffer) => unknown {
  return (bytes) => {
    try {
      return deserialize(bytes);
    } catch (error) {
      const marker: MalformedRequest = { [MALFORMED]: invalidArgument(`the request is not a valid protobuf message: ${errorMessage(error)}`) };
      return marker;
    }
  };
}
