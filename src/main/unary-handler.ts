/**
 * Wraps a unary implementation as a grpc-js handler: thrown SvcErrors become gRPC statuses in one
 * place (grpc-status.ts), a request that did not decode is answered INVALID_ARGUMENT, and an answer
 * with long lists is encoded in turns of the event loop (message-codecs.ts).
 */
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { toServiceError } from './grpc-status';
import { encodedInTurns, malformedRequestError } from './message-codecs';
import type { ServiceContext } from './service-context';

export type UnaryImplementation<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

export function unary<Req, Res>(
  ctx: ServiceContext,
  operation: string,
  implementation: UnaryImplementation<Req, Res>,
): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const malformed = malformedRequestError(call.request);
    if (malformed) {
      callback(toServiceError(malformed, ctx.logger, operation), null);
      return;
    }
    implementation(call.request, call).then((response) => encodedInTurns(operation, response, call) as Promise<Res>).then(
      (response) => callback(null, response),
      (error: unknown) => callback(toServiceError(error, ctx.logger, operation), null),
    );
  };
}
