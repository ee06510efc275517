/** Schemas and interactions for the validation RPC tests, and a client that sends raw bytes. */
import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { fixturePath } from './paths';
import type { TestClient } from './server';

export const USERS_SCHEMA_TEXT = fs.readFileSync(fixturePath('schemas', 'users-3.0.json'), 'utf8');
export const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

/** users-3.0.json with another info.version and, optionally, other changes. */
export function usersSchemaVersion(version: string, change: (document: any) => void = () => undefined): string {
  const document = JSON.parse(USERS_SCHEMA_TEXT);
  document.info.version = version;
  change(document);
  return JSON.stringify(document);
}

export async function registerSchema(client: TestClient, schemaId: string, content: string, version = ''): Promise<{ schema_hash: string; schema_version: string }> {
  const response = await client.call('RegisterSchema', { schema_id: schemaId, schema_content: content, schema_version: version });
  if (!response.success) throw new Error(`registration of ${schemaId} failed: ${response.message}`);
  return response.metadata;
}

/** GET /users/{id} with a 200 response; `user` is the response body. */
export function getUserInteraction(schemaId: string, id: string, user: object, extra: object = {}) {
  return {
    schema_id: schemaId,
    request: { method: 'GET', path: `/users/${id}`, headers: {}, body: '' },
    response: { status_code: 200, headers: { ...JSON_HEADERS }, body: JSON.stringify(user) },
    ...extra,
  };
}

export const VALID_USER = Object.freeze({ id: 42, email: 'ada@example.com', name: 'Ada' });

/** A client for one operation that sends and receives raw bytes (to send what protobufjs never would). */
export function rawClient(address: string, options: grpc.ClientOptions = {}): grpc.Client {
  return new grpc.Client(address, grpc.credentials.createInsecure(), options);
}

export function rawUnary(client: grpc.Client, operation: string, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(`/svc.ContractValidator/${operation}`, (b: Buffer) => b, (b: Buffer) => b, bytes, (error, response) =>
      error ? reject(error) : resolve(response!));
  });
}
