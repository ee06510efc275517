/**
 * Wraps a unary implementation as a grpc-js handler: thrown SvcErrors become gRPC statuses in one
 * place (grpc-status.ts).
 */
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { toServiceError } from './grpc-status';
import type { ServiceContext } from './service-context';

export type UnaryImplementation<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

export function unary<Req, Res>(
  ctx: ServiceContext,
  operation: string,
  implementation: UnaryImplementation<Req, Res>,
): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    implementation(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => callback(toServiceError(error, ctx.logger, operation), null),
    );
  };
}
