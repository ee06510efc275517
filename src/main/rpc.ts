/**
 * The RPC edge, shared by every operation.
 * - `createCallObserver`: a grpc-js server interceptor that counts `svc_grpc_requests_total{method,status}`,
 *   times `svc_grpc_request_duration_seconds{method}` and writes one log line per call of the
 *   ContractValidator service, whatever ends the call: the handler, an auth refusal, a message over
 *   the size limit, a decompression bomb, the deadline or the client going away.
 * - `unary`: wraps a unary implementation; thrown SvcErrors become gRPC statuses in one place.
 * Label values are bounded: `method` is an operation name of the service, `status` a gRPC status name.
 */
import * as grpc from '@grpc/grpc-js';
import { status, type handleUnaryCall, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { LIMITS } from '../shared/limits';
import { SERVICE_NAME, contractValidatorDefinition } from '../shared/proto';
import { readInteractionHead, readProducerHead, type MessageHead } from '../shared/validation-messages/validation-codec';
import { statusName, toServiceError } from './grpc-status';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
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

const OPERATION_PATH_PREFIX = `/${SERVICE_NAME}/`;
let operationNames: ReadonlySet<string> | undefined;

/** `RegisterSchema` for `/svc.ContractValidator/RegisterSchema`; undefined for other services. */
export function operationOf(path: string): string | undefined {
  operationNames ??= new Set(Object.keys(contractValidatorDefinition()));
  if (!path.startsWith(OPERATION_PATH_PREFIX)) return undefined;
  const name = path.slice(OPERATION_PATH_PREFIX.length);
  return operationNames.has(name) ? name : undefined;
}

/** Longest request path or status detail copied into a log line (a 200,000-character path stays out). */
const MAX_LOGGED_CHARS = 256;

/** Operation context of a log line, taken from the request (the first one of a stream). */
export interface CallContext {
  schemaId?: string;
  schemaVersion?: string;
  consumerId?: string;
  environment?: string;
  /** HTTP method of the interaction, fixture or producer response. */
  method?: string;
  /** HTTP path of the interaction, fixture or producer response. */
  path?: string;
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

/** Validation operations keep their messages as raw protobuf bytes (services/validation.ts). */
const RAW_HEAD_READERS: Readonly<Record<string, (bytes: Buffer) => MessageHead>> = Object.freeze({
  ValidateInteraction: readInteractionHead,
  ValidateInteractionStream: readInteractionHead,
  ValidateProducerResponse: readProducerHead,
});

function contextOf(operation: string, message: unknown): CallContext {
  if (Buffer.isBuffer(message)) return rawContextOf(operation, message);
  if (typeof message !== 'object' || message === null) return {};
  const fields = message as Record<string, unknown>;
  const request = typeof fields.request === 'object' && fields.request !== null ? (fields.request as Record<string, unknown>) : {};
  return withoutEmpty({
    schemaId: text(fields.schema_id, LIMITS.maxIdLength),
    schemaVersion: text(fields.schema_version ?? fields.new_version, LIMITS.maxMetadataLength),
    consumerId: text(fields.consumer_id, LIMITS.maxIdLength),
    environment: text(fields.environment, LIMITS.maxIdLength),
    method: text(fields.method ?? request.method, 16),
    path: text(fields.path ?? request.path, MAX_LOGGED_CHARS),
  });
}

function rawContextOf(operation: string, message: Buffer): CallContext {
  const read = RAW_HEAD_READERS[operation];
  if (!read) return {};
  try {
    const head = read(message);
    return withoutEmpty({
      schemaId: text(head.schemaId, LIMITS.maxIdLength),
      schemaVersion: text(head.schemaVersion, LIMITS.maxMetadataLength),
      method: text(head.method, 16),
    });
  } catch {
    return {}; // not valid protobuf: the handler answers that
  }
}

function withoutEmpty(context: CallContext): CallContext {
  for (const key of Object.keys(context) as Array<keyof CallContext>) if (context[key] === undefined) delete context[key];
  return context;
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value !== '' ? clip(value, max) : undefined;
}

function clip(value: string, max = MAX_LOGGED_CHARS): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function deadlinePassed(deadline: grpc.Deadline): boolean {
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) && ms <= Date.now();
}
