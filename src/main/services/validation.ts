/**
 * ValidateInteraction, ValidateProducerResponse and ValidateInteractionStream. These operations
 * carry raw protobuf bytes between gRPC and the worker pool (withMessageCodecs in message-codecs.ts): the main
 * thread never decodes a body or re-encodes a result, which keeps its share of a call small
 * enough that gRPC itself stays the ceiling (DESIGN.md "Measured here").
 *
 * Answers: every validation outcome is a ValidationResult. Invalid call parameters (an empty or
 * malformed schema id, an unknown HTTP method, a missing request or response) are results too,
 * valid=false with one message and error_category `input_validation`, so a stream goes on past
 * them. gRPC statuses are kept for calls that could not be validated at all: INVALID_ARGUMENT
 * for a message that is not valid protobuf, UNAVAILABLE when the worker holding the call stopped,
 * RESOURCE_EXHAUSTED (from grpc-js) for a message over LIMITS.maxGrpcMessageBytes.
 */
import type * as grpc from '@grpc/grpc-js';
import type { ContractValidatorHandlers } from '@svc/client/protocol';
import { ValidationOperation } from '../../shared/pool-protocol/batches';
import type { RawValidationOperation } from '../../shared/pool-protocol/validation-codec';
import type { VersionDocument, VersionRef } from '../../shared/schema-records';
import type { SchemaRegistry } from '../registry/schema-registry';
import { callerOf } from '../auth/principal';
import { unary } from '../unary-handler';
import type { ServiceContext } from '../service-context';
import { createCallValidators } from './validation-call';
import { createValidationStreamHandler } from './validation-stream';

export function createValidationHandlers(ctx: ServiceContext): Partial<ContractValidatorHandlers> {
  const { single: validate, streamed } = createCallValidators(ctx);
  const handlers: Record<RawValidationOperation, grpc.UntypedHandleCall> = {
    ValidateInteraction: unary<Buffer, Buffer>(ctx, 'ValidateInteraction', (message, call) =>
      validate(ValidationOperation.INTERACTION, message, () => call.cancelled, () => callerOf(call, ctx.trustedProxies))),
    ValidateProducerResponse: unary<Buffer, Buffer>(ctx, 'ValidateProducerResponse', (message, call) =>
      validate(ValidationOperation.PRODUCER_RESPONSE, message, () => call.cancelled, () => callerOf(call, ctx.trustedProxies))),
    ValidateInteractionStream: createValidationStreamHandler(ctx, streamed),
  };
  // The generated handler types describe decoded messages; withMessageCodecs makes them bytes.
  return handlers as unknown as Partial<ContractValidatorHandlers>;
}

/** How the pool fetches a document a worker lacks: from the registry (its cache, then storage). */
export function registryContractLoader(schemas: SchemaRegistry): (ref: VersionRef) => Promise<VersionDocument> {
  return (ref) => schemas.documentSource(ref.schemaId, ref.version);
}
