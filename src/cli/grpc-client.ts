/**
 * The command line's connection to an svc server: a typed client built from src/shared/proto.ts,
 * with the client library's TLS and API-key options, a deadline on every call, and gRPC failures
 * turned into one-line errors that start with the status name (`UNAVAILABLE: ...`).
 */
import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { invalidArgument } from '../shared/errors';
import { LIMITS } from '../shared/limits';
import { loadSvcProto } from '../shared/proto';
import type { ContractValidatorClient, ContractValidatorDefinition } from '../shared/generated/svc/ContractValidator';
import { CLI_DEFAULTS } from './defaults';

/** Same names as the client library's `tls` options. */
export interface TlsOptions {
  enabled: boolean;
  /** CA certificate (PEM) that signs the server's certificate; the system CAs when absent. */
  rootCertPath?: string;
  /** Client certificate and key (PEM) for mutual TLS; both or neither. */
  certPath?: string;
  keyPath?: string;
}

export interface ConnectionOptions {
  /** `host:port`; a bare host gets the default port. */
  address: string;
  /** Deadline of each call. */
  timeoutMs: number;
  tls?: TlsOptions;
  /** Sent as `x-api-key` metadata with every call. */
  apiKey?: string;
}

/** gRPC metadata key of the API key (DESIGN.md "Semantics we chose"). */
export const API_KEY_METADATA = 'x-api-key';

type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** Every unary operation of the ContractValidator service. */
export type UnaryOperation = Exclude<KnownKeys<ContractValidatorDefinition>, 'ValidateInteractionStream'>;
type Parts<N extends UnaryOperation> = ContractValidatorDefinition[N] extends MethodDefinition<infer Req, infer Res, infer ReqOut, infer ResOut>
  ? { request: Req; response: Res; requestOut: ReqOut; responseOut: ResOut }
  : never;
/** What a call takes (the message type, every field optional). */
export type RequestOf<N extends UnaryOperation> = Parts<N>['request'];
/** What a call returns (the decoded message, defaults filled in). */
export type ResponseOf<N extends UnaryOperation> = Parts<N>['responseOut'];

/** A failed call: `code` is the gRPC status name (UNAVAILABLE, DEADLINE_EXCEEDED, ...), as the client library reports it. */
export class RpcError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.name = 'RpcError';
    this.code = code;
  }
}

export class ServerConnection {
  readonly address: string;
  readonly #timeoutMs: number;
  readonly #apiKey: string | undefined;
  readonly #client: ContractValidatorClient;

  constructor(options: ConnectionOptions) {
    this.address = normalizeAddress(options.address);
    this.#timeoutMs = options.timeoutMs;
    this.#apiKey = options.apiKey;
    const Client = loadSvcProto().proto.svc.ContractValidator;
    this.#client = new Client(this.address, channelCredentials(options.tls), {
      'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
      'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
    });
  }

  call<N extends UnaryOperation>(operation: N, request: RequestOf<N>): Promise<ResponseOf<N>> {
    const method = (this.#client as unknown as Record<string, Function>)[operation]!;
    const deadline = new Date(Date.now() + this.#timeoutMs);
    return new Promise((resolve, reject) => {
      method.call(this.#client, request, callMetadata(this.#apiKey), { deadline }, (error: grpc.ServiceError | null, response: ResponseOf<N>) => {
        if (error) reject(describeCallError(error, this.address, this.#timeoutMs));
        else resolve(response);
      });
    });
  }

  /** Idempotent. */
  close(): void {
    this.#client.close();
  }
}

/** `localhost` → `localhost:9550`; anything with a port or a scheme (`unix:`, `dns:`) is kept as is. */
export function normalizeAddress(server: string): string {
  const address = server.trim();
  if (address === '') throw invalidArgument('--server must not be empty');
  if (/^[\w.-]+$/.test(address) || /^\[[^\]]+\]$/.test(address)) return `${address}:${CLI_DEFAULTS.grpcPort}`;
  return address;
}

export function channelCredentials(tls: TlsOptions | undefined): grpc.ChannelCredentials {
  if (!tls?.enabled) return grpc.credentials.createInsecure();
  const rootCerts = tls.rootCertPath ? readPem(tls.rootCertPath, '--ca') : null;
  const key = tls.keyPath ? readPem(tls.keyPath, '--key') : null;
  const cert = tls.certPath ? readPem(tls.certPath, '--cert') : null;
  return grpc.credentials.createSsl(rootCerts, key, cert);
}

export function callMetadata(apiKey: string | undefined): grpc.Metadata {
  const metadata = new grpc.Metadata();
  if (apiKey) metadata.set(API_KEY_METADATA, apiKey);
  return metadata;
}

/** One line that says what went wrong and, where there is one, what to do about it. */
export function describeCallError(error: grpc.ServiceError, address: string, timeoutMs: number): RpcError {
  const code = grpc.status[error.code] ?? `STATUS_${error.code}`;
  const details = error.details || error.message;
  switch (error.code) {
    case grpc.status.UNAVAILABLE:
      return new RpcError(code, `cannot reach the svc server at ${address} (${connectionFailure(details)})`, { cause: error });
    case grpc.status.DEADLINE_EXCEEDED:
      return new RpcError(code, `no answer from ${address} within ${timeoutMs / 1000} s (--timeout)`, { cause: error });
    case grpc.status.UNAUTHENTICATED:
      return new RpcError(code, `${details} (give the API key with --api-key or ${CLI_DEFAULTS.apiKeyEnvVar})`, { cause: error });
    default:
      return new RpcError(code, details, { cause: error });
  }
}

/** grpc-js: "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: " → "connect ECONNREFUSED 127.0.0.1:1". */
function connectionFailure(details: string): string {
  const lastError = /Last error: (?:Error: )?(.*?)\.?\s*(?:Resolution note:.*)?$/.exec(details);
  return lastError?.[1] || details;
}

function readPem(filePath: string, flag: string): Buffer {
  try {
    return fs.readFileSync(filePath);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw invalidArgument(`cannot read the ${flag} file "${filePath}": ${reason}`);
  }
}
