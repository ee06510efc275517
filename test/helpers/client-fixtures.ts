/**
 * Shared pieces of the client-library tests (test/client/): the Users API schema, a real server
 * with it registered, the same small Users app for node:http, Express and Fastify, a logger that
 * records, and servers that refuse or never answer (validator down, validator hanging).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { ContractValidator } from '@svc/client';
import type { ViolationLogger } from '@svc/client';
import { fixturePath } from './paths';
import { startTestServer, type TestServer } from './server';

export const USERS_SCHEMA_ID = 'users-api';
export const USERS_V1_YAML = fixturePath('client', 'users-api.v1.yaml');
export const USERS_V1_JSON = fixturePath('client', 'users-api.v1.json');
export const USERS_V2_YAML = fixturePath('client', 'users-api.v2.yaml');

export interface UsersApiServer {
  server: TestServer;
  address: string;
  /** A client bound to the registered Users API (version 1.0.0). */
  validator: ContractValidator;
  close(): Promise<void>;
}

/** An in-process svc server with the Users API 1.0.0 registered. */
export async function startUsersApiServer(): Promise<UsersApiServer> {
  const server = await startTestServer();
  const validator = new ContractValidator(server.address);
  await validator.registerSchema(USERS_SCHEMA_ID, USERS_V1_YAML);
  return {
    server,
    address: server.address,
    validator,
    async close() {
      validator.close();
      await server.close();
    },
  };
}

export interface RecordedLine {
  level: 'warn' | 'error';
  details: Record<string, any>;
  message: string;
}

export interface RecordingLogger extends ViolationLogger {
  lines: RecordedLine[];
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordedLine[] = [];
  return {
    lines,
    warn: (details, message) => lines.push({ level: 'warn', details: details as Record<string, any>, message }),
    error: (details, message) => lines.push({ level: 'error', details: details as Record<string, any>, message }),
  };
}

/**
 * The Users app's behaviour, whatever the framework: `/users/13` answers a response that breaks the
 * contract (no `name`), every other route answers one that keeps it. Handlers record what they saw.
 */
export const usersApp = Object.freeze({
  getUser(id: string): { status: number; body: unknown } {
    return id === '13' ? { status: 200, body: { id: 13 } } : { status: 200, body: { id: Number(id), name: 'Ada' } };
  },
  createUser(body: unknown): { status: number; body: unknown } {
    const name = (body as { name?: unknown } | undefined)?.name;
    return { status: 201, body: { id: 1, name: typeof name === 'string' ? name : 'anonymous' } };
  },
  health(): { status: number; body: unknown } {
    return { status: 200, body: { status: 'ok' } };
  },
});

/** Listens on an ephemeral loopback port; resolves with the base URL. */
export function listen(server: http.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export function closeHttpServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A loopback port with nothing listening on it: the address of a validator that is down. */
export async function closedPortAddress(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

export interface StubGrpcServer {
  address: string;
  /** Metadata of every call received, in order. */
  calls: Array<{ operation: string; metadata: grpc.Metadata }>;
  close(): Promise<void>;
}

/**
 * A grpc-js server with the svc service where only the given operations are implemented (the rest
 * UNIMPLEMENTED); with no implementation for an operation listed in `hang`, calls never get an answer.
 */
export async function startStubGrpcServer(options: {
  handlers?: Partial<Record<string, grpc.UntypedHandleCall>>;
  hang?: string[];
  credentials?: grpc.ServerCredentials;
} = {}): Promise<StubGrpcServer> {
  const server = new grpc.Server();
  const calls: StubGrpcServer['calls'] = [];
  const implementation: Record<string, grpc.UntypedHandleCall> = {};
  for (const [name, definition] of Object.entries(contractValidatorDefinition())) {
    const given = options.handlers?.[name];
    implementation[name] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback?: grpc.sendUnaryData<unknown>) => {
      calls.push({ operation: name, metadata: call.metadata });
      if (given) return (given as Function)(call, callback);
      if (options.hang?.includes(name)) return undefined;
      const error = { code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by this stub` };
      if (definition.responseStream) (call as unknown as grpc.ServerDuplexStream<unknown, unknown>).emit('error', error);
      else callback!(error, null);
      return undefined;
    };
  }
  server.addService(contractValidatorDefinition(), implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync('127.0.0.1:0', options.credentials ?? grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  return {
    address: `127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => {
      server.forceShutdown();
      resolve();
    }),
  };
}

/** Milliseconds taken by `operation`. */
export async function timed<T>(operation: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await operation();
  return { value, ms: performance.now() - started };
}

/**
 * A provider of the Users API over plain node:http, for consumer-side tests: GET /users/:id (13 breaks
 * the contract, 404 for 404), POST /users, GET /download (bytes), GET /big (a large JSON array).
 */
export async function startUsersProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    const send = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'x-provider': 'users' });
      response.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    const user = /^\/users\/([^/?]+)/.exec(url);
    if (request.method === 'GET' && user) {
      if (user[1] === '404') return send(404, { message: 'no such user' });
      const { status, body } = usersApp.getUser(user[1]!);
      return send(status, body);
    }
    if (request.method === 'POST' && url === '/users') {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => { text += chunk; });
      request.on('end', () => {
        const { status, body } = usersApp.createUser(text === '' ? undefined : JSON.parse(text));
        send(status, body);
      });
      return undefined;
    }
    if (url === '/download') return send(200, Buffer.from([0, 1, 2, 3]), 'application/octet-stream');
    if (url === '/big') return send(200, Array.from({ length: 5_000 }, (_, id) => ({ id, name: `user ${id}` })));
    return send(404, { message: 'not found' });
  });
  const url = await listen(server);
  return { url, close: () => closeHttpServer(server) };
}
