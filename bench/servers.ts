/**
 * Starts bench servers as child processes (bench/server-process.ts) and gives every suite the same
 * grpc-js client, so a figure and its floor differ only in the server.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../src/shared/limits';
import { loadSvcProto } from '@svc/client/protocol';
import type { ContractValidatorClient } from '@svc/client/protocol';
import type { BenchInteraction } from './interactions';

export type ServerMode = 'svc' | 'noop';

export interface BenchServer {
  mode: ServerMode;
  client: ContractValidatorClient;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export async function startBenchServer(mode: ServerMode, workerThreads?: number): Promise<BenchServer> {
  const script = path.join(__dirname, 'server-process.js');
  const child = spawn(process.execPath, [script, mode, ...(workerThreads ? [String(workerThreads)] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${mode} bench server did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      resolve((JSON.parse(buffered.slice(0, newline)) as { port: number }).port);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${mode} bench server exited before listening`));
    });
  });
  const Client = loadSvcProto().proto.svc.ContractValidator;
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
    'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
  });
  return {
    mode,
    client,
    async stop() {
      client.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Calls a unary operation; resolves with the response, rejects with the gRPC error. */
export function callUnary<R = any>(client: ContractValidatorClient, operation: string, request: object, deadlineMs = 60_000): Promise<R> {
  const fn = (client as unknown as Record<string, Function>)[operation]!;
  return new Promise((resolve, reject) => {
    fn.call(client, request, new grpc.Metadata(), { deadline: Date.now() + deadlineMs }, (error: grpc.ServiceError | null, response: R) =>
      (error ? reject(error) : resolve(response)));
  });
}

export async function registerBenchSchema(server: BenchServer, schemaId: string, content: string, version = '1.0.0'): Promise<void> {
  const response = await callUnary(server.client, 'RegisterSchema', { schema_id: schemaId, schema_content: content, schema_version: version });
  if (!response.success) throw new Error(`RegisterSchema ${schemaId} failed: ${response.message}`);
}

/** An interaction of the fixed set as an InteractionRequest message. */
export function interactionRequest(schemaId: string, interaction: BenchInteraction, correlationId = ''): object {
  const { request, response } = interaction;
  return {
    schema_id: schemaId,
    correlation_id: correlationId,
    request: { method: request.method, path: request.path, headers: request.headers, body: request.body },
    response: { status_code: response.statusCode, headers: response.headers, body: response.body },
  };
}
