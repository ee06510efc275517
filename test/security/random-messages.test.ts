/**
 * Every operation, fed well-formed messages of random content (a seeded generator: the same
 * messages on every run), against a real server on loopback with a SQLite store: no call is
 * answered INTERNAL or UNKNOWN, no answer or error status carries a JavaScript error's text, nothing is logged at
 * error level, and the server still answers a valid call afterwards. The values lean towards the
 * registered schemas' ids, versions, methods and paths, so calls get past "not found" into
 * validation, comparison, fixtures, consumers, deployments and recording.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { captureLogs, type CapturedLogs } from '../helpers/log-capture';
import { REPO_ROOT } from '../helpers/paths';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/** The fixed seed of every run; SVC_RANDOM_MESSAGES_SEED picks another, to explore. */
const SEED = Number(process.env.SVC_RANDOM_MESSAGES_SEED ?? 20261128);
const CALLS = 1_200;
const IN_FLIGHT = 8;
const TIME_LIMIT_MS = 60_000;
const CALL_DEADLINE_MS = 10_000;
/** Words of a JavaScript failure that escaped into an answer (a message the service wrote never has them). */
const ENGINE_FAILURE = /RangeError|TypeError|ReferenceError|Cannot read prop|is not a function|call stack|\[object Object\]|undefined/;

const petstore = fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/fixture-corpus/readme-oas-examples/3.0/petstore.json'), 'utf8');
const users = fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/schemas/users-3.0.json'), 'utf8');
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

/** Any string field: odd, large, nested, broken, and real documents. */
const STRINGS = [
  '', 'a', 'petstore', 'users', 'web', 'dev', 'prod', 'qa', '1.0.0', '2.0.0', '0.0.1-beta', 'GET', 'get', '/pets', '/pets/1',
  '/users/42', '/users?limit=5', '/', '//', '/pets/%00', '/../../etc', '*', '{}', '[]', '{"id":1,"name":"x"}', '{"a":',
  nested(300), nested(5_000), 'x'.repeat(70_000), '\u0000', '\ud800', '😀'.repeat(1_000), 'application/json', 'text/plain',
  'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'a=1&b=%zz',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', petstore, users,
  'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}', 'a: &a [*a]', '#/components/schemas/Pet', '1e400', '-0',
  'GET /pets', 'id,name', 'true',
];
/** Values a field of this name would plausibly hold: chosen three times in four. */
const PLAUSIBLE: Record<string, ReadonlyArray<string | number>> = {
  schema_id: ['petstore', 'users'], version: ['1.0.0', '2.0.0'], schema_version: ['1.0.0', '2.0.0', ''], old_version: ['1.0.0'],
  new_version: ['2.0.0', '1.0.0'], method: ['GET', 'POST', 'DELETE', 'PUT'],
  path: ['/pet/1', '/pet/abc', '/pet/findByStatus?status=available', '/store/inventory', '/user/login?username=a&password=b', '/users', '/users/42', '/users?limit=5'],
  environment: ['dev', 'prod', 'qa', 'staging'], name: ['qa', 'dev', 'canary'], consumer_id: ['web', 'mobile'],
  consumer_version: ['1.0.0', '2.0.0'], schema_content: [petstore, users], new_content: [petstore, users], candidate_content: [petstore, users],
  status_code: [200, 201, 404, 500], content_type: ['application/json', 'text/plain'], operation_id: ['getPetById', 'listUsers'],
  used_fields: ['id', 'name', 'photoUrls[]', 'tags[].name'],
  body: ['', '{"id":1,"name":"x","photoUrls":[]}', '[{"id":1,"name":"doggie","photoUrls":[]}]', '{"id":"x"}', nested(300), '{"id":1e400}'],
};

/** xorshift32: the same sequence on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4_294_967_296;
  };
}

let server: TestServer;
let logs: CapturedLogs;
let client: grpc.Client;
let dataDir: string;

before(async () => {
  dataDir = makeTempDir('svc-random-');
  logs = captureLogs('info');
  server = await startTestServer({ storage: 'sqlite', dataDir, logger: logs.logger, allowUnknownEnvironments: true });
  client = new grpc.Client(server.address, grpc.credentials.createInsecure());
  for (const [schemaId, content] of [['petstore', petstore], ['users', users]] as const) {
    const registered = await server.client.call('RegisterSchema', { schema_id: schemaId, schema_content: content, schema_version: '1.0.0' });
    assert.equal(registered.success, true, registered.message);
  }
});

after(async () => {
  client?.close();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('well-formed messages of random content to every operation get answers of their own, never an engine failure', { timeout: TIME_LIMIT_MS * 2 }, async () => {
  const random = seededRandom(SEED);
  const pick = <T>(values: ReadonlyArray<T>): T => values[Math.floor(random() * values.length)]!;
  const root = await protobuf.load(path.join(REPO_ROOT, 'proto/svc.proto'));
  const methods = root.lookupService('svc.ContractValidator').methodsArray.map((method) => method.resolve() as protobuf.Method);

  const fieldValue = (field: protobuf.Field, depth: number): unknown => {
    const type = field.resolvedType;
    if (type instanceof protobuf.Enum) return pick([...Object.values(type.values), 99]);
    if (type instanceof protobuf.Type) return depth > 4 ? {} : message(type, depth + 1);
    const plausible = PLAUSIBLE[field.name];
    if (plausible && random() < 0.75) return pick(plausible);
    switch (field.type) {
      case 'string': return pick(STRINGS);
      case 'bytes': return Buffer.from(pick(STRINGS));
      case 'bool': return random() < 0.5;
      case 'double': case 'float': return pick([0, -1, 1.5, 1e308, Number.NaN, Number.POSITIVE_INFINITY]);
      case 'int32': case 'sint32': case 'sfixed32': return pick([0, -1, 1, 100, 2_147_483_647, -2_147_483_648]);
      case 'uint32': case 'fixed32': return pick([0, 1, 100, 4_294_967_295]);
      default: return pick([0, 1, -1, 1_000_000, '9223372036854775807']);
    }
  };
  const message = (type: protobuf.Type, depth = 0): Record<string, unknown> => {
    const fields: Record<string, unknown> = {};
    for (const field of type.fieldsArray) {
      field.resolve();
      if (random() < 0.3) continue;
      const count = Math.floor(random() * 4);
      if (field.map) {
        fields[field.name] = Object.fromEntries(Array.from({ length: count }, () => [pick(STRINGS).slice(0, 50) || 'k', pick(STRINGS)]));
      } else if (field.repeated) {
        fields[field.name] = Array.from({ length: count }, () => fieldValue(field, depth));
      } else {
        fields[field.name] = fieldValue(field, depth);
      }
    }
    return fields;
  };
  const encode = (type: protobuf.Type, fields: Record<string, unknown>) => Buffer.from(type.encode(type.fromObject(fields)).finish());

  const failures: string[] = [];
  const answered = new Map<string, number>();
  /** Reads an answer: a failure to report when it carries an engine failure's text. */
  const check = (method: protobuf.Method, bytes: Buffer) => {
    const text = JSON.stringify(method.resolvedResponseType!.toObject(method.resolvedResponseType!.decode(bytes)));
    if (ENGINE_FAILURE.test(text)) failures.push(`${method.name} answered ${text.slice(0, 300)}`);
  };
  const call = (method: protobuf.Method): Promise<void> => new Promise((resolve) => {
    const requestType = method.resolvedRequestType!;
    const route = `/svc.ContractValidator/${method.name}`;
    const options = { deadline: Date.now() + CALL_DEADLINE_MS };
    const settle = (error: grpc.ServiceError | null) => {
      const status = error ? grpc.status[error.code] : 'OK';
      answered.set(`${method.name} ${status}`, (answered.get(`${method.name} ${status}`) ?? 0) + 1);
      if (error && ([grpc.status.INTERNAL, grpc.status.UNKNOWN, grpc.status.DEADLINE_EXCEEDED].includes(error.code) || ENGINE_FAILURE.test(error.details))) {
        failures.push(`${method.name}: ${status} ${error.details.slice(0, 300)}`);
      }
      resolve();
    };
    const identity = (bytes: Buffer) => bytes;
    if (!method.requestStream) {
      client.makeUnaryRequest(route, identity, identity, encode(requestType, message(requestType)), new grpc.Metadata(), options, (error, bytes) => {
        if (bytes) check(method, bytes);
        settle(error);
      });
      return;
    }
    const messages = Array.from({ length: 1 + Math.floor(random() * 3) }, () => encode(requestType, message(requestType)));
    if (method.responseStream) {
      const stream = client.makeBidiStreamRequest(route, identity, identity, new grpc.Metadata(), options);
      stream.on('data', (bytes: Buffer) => check(method, bytes));
      stream.on('error', (error: grpc.ServiceError) => settle(error));
      stream.on('end', () => settle(null));
      for (const bytes of messages) stream.write(bytes);
      stream.end();
    } else {
      const stream = client.makeClientStreamRequest(route, identity, identity, new grpc.Metadata(), options, (error, bytes) => {
        if (bytes) check(method, bytes);
        settle(error);
      });
      for (const bytes of messages) stream.write(bytes);
      stream.end();
    }
  });

  const deadline = Date.now() + TIME_LIMIT_MS;
  let sent = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (sent < CALLS && Date.now() < deadline) {
      sent++;
      await call(pick(methods));
    }
  }));

  assert.equal(sent, CALLS, `every call was sent within ${TIME_LIMIT_MS} ms`);
  assert.deepEqual(failures, []);
  assert.ok(methods.every((method) => [...answered.keys()].some((key) => key.startsWith(`${method.name} `))), 'every operation was called');
  assert.deepEqual(logs.lines().filter((line) => (line.level as number) >= 50).map((line) => line.msg), [], 'nothing logged at error level');
  const answer = await server.client.call('ValidateInteraction', {
    schema_id: 'users', request: { method: 'GET', path: '/users/42', headers: {}, body: '' },
    response: { status_code: 404, headers: {}, body: '' },
  });
  assert.equal(answer.valid, true, answer.errors.join('; '));
});
