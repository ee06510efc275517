/**
 * The RPC edge, shared by every operation: a grpc-js server interceptor that counts
 * `svc_grpc_requests_total{method,status}`, times `svc_grpc_request_duration_seconds{method}` and
 * writes one log line per call of the ContractValidator service, whatever ends the call: the handler,
 * an auth refusal, a message over the size limit, a decompression bomb, the deadline or the client
 * going away. Label values are bounded: `method` is an operation name of the service, `status` a
 * gRPC status name.
 */
import * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { SERVICE_NAME, contractValidatorDefinition } from '@svc/client/protocol';
import { clip, contextOf } from './call-log-context';
import { statusName } from './grpc-status';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

const OPERATION_PATH_PREFIX = `/${SERVICE_NAME}/`;
let operationNames: ReadonlySet<string> | undefined;

/** `RegisterSchema` for `/svc.ContractValidator/RegisterSchema`; undefined for other services. */
export function operationOf(path: string): string | undefined {
  operationNames ??= new Set(Object.keys(contractValidatorDefinition()));
  if (!path.startsWith(OPERATION_PATH_PREFIX)) return undefined;
  const name = path.slice(OPERATION_PATH_PREFIX.length);
  return operationNames.has(name) ? name : undefined;
}

export function createCallObserver(metrics: Metrics, logger: Logger): grpc.ServerInterceptor {
  const log = logger.child({ caller: 'rpc' });
  const record = createCallRecorder(metrics);
  return (descriptor, call) => {
    const operation = operationOf(descriptor.path);
    if (operation === undefined) return new grpc.ServerInterceptingCall(call); // health, reflection
    const started = process.hrtime.bigint();
    // The first request, read for log context only when a line is written.
    let firstMessage: unknown;
    let ended = false;
    const end = (code: status, details: string | undefined) => {
      if (ended) return;
      ended = true;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      record(operation, code, seconds);
      const level = code === status.OK ? 'debug' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const line = {
        operation, code: statusName(code), durationMs: Math.round(seconds * 1e6) / 1e3, peer: call.getPeer(),
        ...contextOf(operation, firstMessage),
      };
      if (code === status.OK) log.debug(line, 'call completed');
      else log.info({ ...line, details: clip(details ?? '') }, 'call failed');
    };

    // grpc-js ends calls for oversized or undecompressable messages and for deadlines from inside
    // its base call (BaseServerInterceptingCall in grpc-js src/server-interceptors.ts), without
    // passing through interceptor responders. This interceptor is installed first, so `call` is that
    // base call, and wrapping its sendStatus is the one place that sees every ending.
    const send = call.sendStatus.bind(call);
    call.sendStatus = (finalStatus) => {
      end(finalStatus.code, finalStatus.details);
      send(finalStatus);
    };
    const listener = new grpc.ServerListenerBuilder()
      .withOnReceiveMessage((message, next) => {
        firstMessage ??= message;
        next(message);
      })
      .withOnCancel(() => {
        // Reached without a status only when the client went away (or its deadline passed first).
        end(deadlinePassed(call.getDeadline()) ? status.DEADLINE_EXCEEDED : status.CANCELLED, 'call ended by the client');
      })
      .build();
    return new grpc.ServerInterceptingCall(call, { start: (next) => next(listener) });
  };
}

/**
 * Counts and times one ended call. Label children are looked up once per (operation, status):
 * both sets are bounded, and this runs on every call of the main thread.
 */
function createCallRecorder(metrics: Metrics): (operation: string, code: status, seconds: number) => void {
  const counters = new Map<string, { inc(): void }>();
  const histograms = new Map<string, { observe(value: number): void }>();
  return (operation, code, seconds) => {
    const key = `${operation} ${code}`;
    let counter = counters.get(key);
    if (!counter) {
      counter = metrics.grpcRequests.labels(operation, statusName(code));
      counters.set(key, counter);
    }
    counter.inc();
    let histogram = histograms.get(operation);
    if (!histogram) {
      histogram = metrics.grpcDuration.labels(operation);
      histograms.set(operation, histogram);
    }
    histogram.observe(seconds);
  };
}

function deadlinePassed(deadline: grpc.Deadline): boolean {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) && ms <= Date.now();
}
