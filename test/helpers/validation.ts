/** Schemas and interactions for the validation RPC tests, and a client that sends raw bytes. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import type { StartOptions } from '../../src/main/server';
import { breakingChangesDocument } from './documents';
import { fixturePath } from './paths';
import { createTestClient, startTestServer, type TestClient, type TestServer } from './server';

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

/**
 * Registers `schemaId` 1.0.0 and 2.0.0 of breakingChangesDocument: `operations` × `changedProperties`
 * breaking changes between them, for the deploy-gate load tests.
 */
export async function registerBreakingVersions(client: TestClient, schemaId: string, operations: number, changedProperties: number): Promise<void> {
  await registerSchema(client, schemaId, breakingChangesDocument('1.0.0', false, operations, changedProperties), '1.0.0');
  await registerSchema(client, schemaId, breakingChangesDocument('2.0.0', true, operations, changedProperties), '2.0.0');
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

/**
 * An operation whose request body is four objects of `properties` properties with patterns: 1,000
 * take about a second or more to compile, 150 a few hundred milliseconds (still over the pool's
 * slowCompileMs).
 */
export function slowSchema(properties = 1_000, title = 'slow'): string {
  const wide = (prefix: string) => ({
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: properties }, (_, i) => [`${prefix}${i}`, { type: 'string', pattern: `^${prefix}[a-z]{1,${(i % 40) + 2}}$`, maxLength: 64 }])),
  });
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/things': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { allOf: ['a', 'b', 'c', 'd'].map(wide) } } } },
          responses: { '204': { description: 'stored' } },
        },
      },
    },
  });
}

/**
 * A document whose one request field has a `pattern` RE2 accepts at about 5 µs a character
 * (`a.{999}d`): its calls cost what their text's length says (300,000 characters: about 1.5 s).
 */
export function slowPatternSchema(title = 'slow pattern'): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: { '/x': { post: {
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', properties: { s: { type: 'string', pattern: 'a.{999}d' } } } } } },
      responses: { 200: { description: 'ok' } },
    } } },
  });
}

/** `chars` pseudo-random a and b for the slow pattern (a periodic text lets RE2 skip ahead: `abab…` takes 8 ms for 30,000). */
export function slowPatternText(seed: number, chars: number): string {
  let state = seed;
  return Array.from({ length: chars }, () => ((((state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) >> 16) & 1) ? 'a' : 'b')).join('');
}

/** A ValidateInteraction request posting `text` to the slow-pattern document registered as `schemaId`. */
export function postSlowPattern(schemaId: string, text: string) {
  return {
    schema_id: schemaId,
    request: { method: 'POST', path: '/x', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ s: text }) },
    response: { status_code: 200, headers: {}, body: '' },
  };
}

/**
 * `anyOf` branches nested through `$ref`, each level an array of the level below: a body nested as
 * deep fails every branch at its bottom, so the work and the errors AJV keeps double with each level
 * (18 levels: about 0.3 s on the test machine, for a 37-byte body).
 */
export function nestedAnyOfSchema(levels: number): string {
  const schemas: Record<string, object> = { L0: { type: 'integer' } };
  for (let level = 1; level <= levels; level++) {
    const below = { $ref: `#/components/schemas/L${level - 1}` };
    schemas[`L${level}`] = { anyOf: [{ type: 'array', items: below }, { type: 'array', minItems: 1, items: below }] };
  }
  return JSON.stringify({
    openapi: '3.0.3', info: { title: 'nested anyOf', version: '1.0.0' }, components: { schemas },
    paths: { '/x': { post: {
      requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/L${levels}` } } } },
      responses: { 200: { description: 'ok' } },
    } } },
  });
}

/** A ValidateInteraction request posting a string nested `depth` arrays deep to a nestedAnyOfSchema() document. */
export function postNested(schemaId: string, depth: number) {
  return {
    schema_id: schemaId,
    request: { method: 'POST', path: '/x', headers: { 'content-type': 'application/json' }, body: `${'['.repeat(depth)}"x"${']'.repeat(depth)}` },
    response: { status_code: 200, headers: {}, body: '' },
  };
}

/** An interaction of a slowSchema() document's one operation. */
export function postThings(schemaId: string) {
  return {
    schema_id: schemaId,
    request: { method: 'POST', path: '/things', headers: { 'content-type': 'application/json' }, body: '{}' },
    response: { status_code: 204, headers: {}, body: '' },
  };
}

/**
 * Another tenant's calls must not wait for a slow compile: each answers in well under the compile's
 * own time (a bound relative to it, so a loaded 2-core CI machine running other test files beside
 * this one does not make the tests flaky; blocked calls would take about the whole compile).
 */
export const NEIGHBOUR_MAX_SHARE_OF_COMPILE = 0.6;

/** A validation answer as the server client and the pool give it; `errors` explains a failure when present. */
interface Answer {
  valid: boolean;
  errors?: readonly string[];
}

/** What a neighbour saw while a hostile call ran: its answer, how long it took, each neighbour call's latency. */
export interface NeighbourRun<T> {
  answer: T;
  hostileMs: number;
  /** Ascending. */
  neighbourMs: number[];
}

/** How neighbourWhile paces its calls. */
export interface NeighbourPacing {
  /** Between two neighbour calls (default 5 ms). */
  pauseMs?: number;
  /** Before the first, after the hostile call starts (default 0). */
  headStartMs?: number;
  /** Neighbour calls at most (default 1,000). */
  maxCalls?: number;
}

/**
 * Makes `neighbourCall`s one at a time while `hostileCall` runs; asserts every neighbour answer
 * valid. The caller states the bound on `neighbourMs`.
 */
export async function neighbourWhile<T>(
  hostileCall: () => Promise<T>,
  neighbourCall: (i: number) => Promise<Answer>,
  { pauseMs = 5, headStartMs = 0, maxCalls = 1_000 }: NeighbourPacing = {},
): Promise<NeighbourRun<T>> {
  const started = performance.now();
  let done = false;
  const hostile = hostileCall().finally(() => { done = true; });
  if (headStartMs > 0) await new Promise((resolve) => setTimeout(resolve, headStartMs));
  const neighbourMs: number[] = [];
  for (let i = 0; i < maxCalls && !done; i++) {
    const callStarted = performance.now();
    const answer = await neighbourCall(i);
    neighbourMs.push(performance.now() - callStarted);
    assert.equal(answer.valid, true, answer.errors?.join('\n'));
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  const answer = await hostile;
  return { answer, hostileMs: performance.now() - started, neighbourMs: neighbourMs.sort((a, b) => a - b) };
}

/**
 * Starts `slowCall` (a first call that compiles for about a second) and, after `headStartMs`, makes
 * `neighbourCall`s one at a time until it answers (400 at most); asserts that every answer is valid
 * and that no neighbour call waited for most of the compile.
 */
export async function assertNeighbourNotHeld(slowCall: () => Promise<Answer>, neighbourCall: (i: number) => Promise<Answer>, headStartMs = 0): Promise<void> {
  const { answer, hostileMs: slowMs, neighbourMs } = await neighbourWhile(slowCall, neighbourCall, { pauseMs: 0, headStartMs, maxCalls: 400 });
  assert.equal(answer.valid, true, answer.errors?.join('\n'));
  const worst = Math.max(...neighbourMs);
  const times = `neighbour calls of ${neighbourMs.map(Math.round).join(', ')} ms`;
  assert.ok(neighbourMs.length >= 2, `only ${neighbourMs.length} neighbour calls ran during a ${Math.round(slowMs)} ms compile (${times})`);
  assert.ok(worst < slowMs * NEIGHBOUR_MAX_SHARE_OF_COMPILE, `a neighbour call took ${Math.round(worst)} ms during a ${Math.round(slowMs)} ms compile (${times})`);
}

/** A server with a hostile caller and a neighbour, each on a connection of its own (isolation tests). */
export interface HostileAndNeighbour {
  server: TestServer;
  hostile: TestClient;
  neighbour: TestClient;
  close(): Promise<void>;
}

/**
 * Starts a server with the users schema and `schemas` registered (id → text), and the neighbour's
 * users contract compiled by a first call, so that its calls are timed against the hostile ones only.
 */
export async function startHostileAndNeighbour(options: StartOptions, schemas: Readonly<Record<string, string>>): Promise<HostileAndNeighbour> {
  const server = await startTestServer(options);
  const hostile = createTestClient(server.address);
  const neighbour = createTestClient(server.address);
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
  for (const [schemaId, text] of Object.entries(schemas)) await registerSchema(server.client, schemaId, text);
  await neighbour.call('ValidateInteraction', getUserInteraction('users', '1', VALID_USER));
  return {
    server, hostile, neighbour,
    async close() {
      hostile.close();
      neighbour.close();
      await server.close();
    },
  };
}
