/**
 * Wraps unary handlers: one place that turns thrown SvcErrors into gRPC statuses, counts
 * `svc_grpc_requests_total{method,status}` and times `svc_grpc_request_duration_seconds`.
 */
import { status, type handleUnaryCall, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { SvcError } from '../shared/errors';
import { grpcStatusOf, statusName, toServiceError } from './grpc-status';
import type { ServiceContext } from './service-context';

export type UnaryImplementation<Req, Res> = (request: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>;

export function unary<Req, Res>(
  ctx: ServiceContext,
  operation: string,
  implementation: UnaryImplementation<Req, Res>,
): handleUnaryCall<Req, Res> {
  const requests = ctx.metrics.grpcRequests;
  const duration = ctx.metrics.grpcDuration.labels(operation);
  const okCounter = requests.labels(operation, statusName(status.OK));
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    const started = process.hrtime.bigint();
    implementation(call.request, call).then(
      (response) => {
        okCounter.inc();
        duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
        callback(null, response);
      },
      (error: unknown) => {
        const code = grpcStatusOf(error);
        requests.labels(operation, statusName(code)).inc();
        duration.observe(Number(process.hrtime.bigint() - started) / 1e9);
        if (!(error instanceof SvcError)) ctx.logger.error({ err: error, operation }, 'unexpected failure');
        callback(toServiceError(error), null);
      },
    );
  };
}
