/**
 * The command line's connection to an svc server: the client library's transport (one way to talk to
 * a server for the library and the CLI), with the CLI's flag names in option errors, a deadline on
 * every call, and failures turned into one-line errors that start with the status name
 * (`UNAVAILABLE: ...`) and say which flag helps.
 */
import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import type { ContractValidatorDefinition } from '@svc/client/protocol';
import { Transport, resolveClientOptions } from '@svc/client/internal';
import { invalidArgument } from '../shared/errors';
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
  /** Sent as the API-key metadata entry with every call. */
  apiKey?: string;
}

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
  readonly #transport: Transport;

  constructor(options: ConnectionOptions) {
    this.address = normalizeAddress(options.address);
    this.#timeoutMs = options.timeoutMs;
    this.#transport = new Transport(resolveClientOptions(clientOptions(this.address, options)));
  }

  async call<N extends UnaryOperation>(operation: N, request: RequestOf<N>): Promise<ResponseOf<N>> {
    try {
      // The transport's table of operations and this one are the same service definition.
      return await (this.#transport.unary as (op: string, req: unknown, deadlineMs: number) => Promise<ResponseOf<N>>)(operation, request, this.#timeoutMs);
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (isServiceError(cause)) throw describeCallError(cause, this.address, this.#timeoutMs);
      throw error;
    }
  }

  /** Idempotent. */
  close(): void {
    this.#transport.close();
  }
}

/** The client library's options for a CLI connection; certificate files are checked here to name the flag. */
export function clientOptions(address: string, options: ConnectionOptions) {
  const tls = options.tls?.enabled
    ? {
        enabled: true,
        rootCertPath: readablePem(options.tls.rootCertPath, '--ca'),
        certPath: readablePem(options.tls.certPath, '--cert'),
        keyPath: readablePem(options.tls.keyPath, '--key'),
      }
    : undefined;
  return { address, tls, apiKey: options.apiKey || undefined, deadlineMs: options.timeoutMs };
}

/** `localhost` → `localhost:9550`; anything with a port or a scheme (`unix:`, `dns:`) is kept as is. */
export function normalizeAddress(server: string): string {
  const address = server.trim();
  if (address === '') throw invalidArgument('--server must not be empty');
  if (/^[\w.-]+$/.test(address) || /^\[[^\]]+\]$/.test(address)) return `${address}:${CLI_DEFAULTS.grpcPort}`;
  return address;
}

/** One line that says what went wrong and, where there is one, what to do about it. */
export function describeCallError(error: grpc.ServiceError, address: string, timeoutMs: number): RpcError {
  const code = grpc.status[error.code] ?? `STATUS_${error.code}`;
  const details = error.details || error.message;
  switch (error.code) {
    case grpc.status.UNAVAILABLE:
      // The server's own UNAVAILABLE (a store that cannot take writes) says what to wait for; it was reached.
      if (answeredByServer(error)) return new RpcError(code, `the svc server at ${address} answered: ${details}`, { cause: error });
      return new RpcError(code, `cannot reach the svc server at ${address} (${connectionFailure(details)})`, { cause: error });
    case grpc.status.DEADLINE_EXCEEDED:
      return new RpcError(code, `no answer from ${address} within ${timeoutMs / 1000} s (--timeout)`, { cause: error });
    case grpc.status.UNAUTHENTICATED:
      return new RpcError(code, `${details} (give the API key with --api-key or ${CLI_DEFAULTS.apiKeyEnvVar})`, { cause: error });
    default:
      return new RpcError(code, details, { cause: error });
  }
}

function isServiceError(value: unknown): value is grpc.ServiceError {
  return value instanceof Error && typeof (value as Partial<grpc.ServiceError>).code === 'number';
}

/**
 * Whether a status came in a gRPC server's answer rather than from the client's transport. grpc-js
 * gives the statuses it makes itself (no connection, a dropped connection, a proxy's HTTP 503) empty
 * metadata; a server's error answer carries its headers, `content-type: application/grpc...` among them.
 */
function answeredByServer(error: grpc.ServiceError): boolean {
  const [contentType] = error.metadata?.get('content-type') ?? [];
  return typeof contentType === 'string' && contentType.startsWith('application/grpc');
}

/** grpc-js: "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: " → "connect ECONNREFUSED 127.0.0.1:1". */
function connectionFailure(details: string): string {
  const lastError = /Last error: (?:Error: )?(.*?)\.?\s*(?:Resolution note:.*)?$/.exec(details);
  return lastError?.[1] || details;
}

function readablePem(filePath: string | undefined, flag: string): string | undefined {
  if (filePath === undefined) return undefined;
  try {
    fs.accessSync(filePath, fs.constants.R_OK);
    return filePath;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw invalidArgument(`cannot read the ${flag} file "${filePath}": ${reason}`);
  }
}
