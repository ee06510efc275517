/**
 * Hostile interactions over gRPC. Each gets a clear answer (valid=false with a message naming the
 * limit or the fault, or a gRPC status for what is not a validation request at all), in
 * milliseconds, and the server keeps serving: a normal call after each must still validate.
 *
 * Big bodies: a message over the gRPC limit (LIMITS.maxGrpcMessageBytes, 48 MiB) is refused by
 * grpc-js with RESOURCE_EXHAUSTED before any of it is read. A body under that limit but over
 * LIMITS.validationMaxBodyBytes (10 MiB), like 50 MB (50,000,000 bytes < 48 MiB), is a valid=false
 * result naming maxBodyBytes; the body is never parsed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { createTestClient, startTestServer, type TestServer } from '../helpers/server';
import { JSON_HEADERS, rawClient, rawUnary, registerSchema } from '../helpers/validation';

const HOSTILE_SCHEMA = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'hostile', version: '1.0.0' },
  paths: {
    '/items': {
      post: {
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: false, properties: { code: { type: 'string', pattern: '^(a+)+$' }, tags: { type: 'array' } } },
            },
          },
        },
        responses: { 200: { description: 'ok' } },
      },
    },
    '/items/{code}': {
      get: {
        parameters: [{ name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^(a+)+$' } }],
        responses: { 200: { description: 'ok' } },
      },
    },
  },
});

let server: TestServer;

before(async () => {
  server = await startTestServer({ workerThreads: 1 });
  await registerSchema(server.client, 'hostile', HOSTILE_SCHEMA);
  await assertHealthy(); // builds the contract, so timings below are of the hostile calls alone
});

after(() => server.close());

function postItems(body: string, headers: Record<string, string> = { ...JSON_HEADERS }) {
  return { schema_id: 'hostile', request: { method: 'POST', path: '/items', headers, body } };
}

/** Validates and times one interaction; then proves the server still answers a normal call. */
async function answerOf(request: object, client = server.client): Promise<{ valid: boolean; errors: string[]; ms: number }> {
  const started = performance.now();
  const result = await client.call('ValidateInteraction', request);
  const ms = performance.now() - started;
  await assertHealthy();
  return { valid: result.valid, errors: result.errors, ms };
}

async function assertHealthy(): Promise<void> {
  const normal = await server.client.call('ValidateInteraction', postItems('{"code":"aaa"}'));
  assert.deepEqual([normal.valid, normal.errors], [true, []], 'a normal call still validates');
}

test('a body nested 100,000 levels deep is refused by the depth limit, not by the stack', async () => {
  const { valid, errors, ms } = await answerOf(postItems('['.repeat(100_000) + ']'.repeat(100_000)));
  assert.equal(valid, false);
  assert.deepEqual(errors, [`request body nests arrays/objects deeper than the limit of ${LIMITS.validationMaxBodyDepth} levels (maxBodyDepth)`]);
  assert.ok(ms < 2000, `${ms} ms`);
});

test('a 50 MB body is a result naming maxBodyBytes; a 50 MiB message is RESOURCE_EXHAUSTED', async () => {
  const client = createTestClient(server.address, undefined, { 'grpc.max_send_message_length': 64 * 1024 * 1024 });
  try {
    const fiftyMegabytes = await answerOf(postItems(`{"code":"${'a'.repeat(50 * 1000 * 1000 - 11)}"}`), client);
    assert.deepEqual([fiftyMegabytes.valid, fiftyMegabytes.errors], [false, ['request body is 47.7 MiB, over the limit of 10 MiB (maxBodyBytes)']]);
    assert.ok(fiftyMegabytes.ms < 5000, `${fiftyMegabytes.ms} ms`);

    const fiftyMebibytes = postItems(`{"code":"${'a'.repeat(50 * 1024 * 1024)}"}`);
    await assert.rejects(client.call('ValidateInteraction', fiftyMebibytes), (error: grpc.ServiceError) => {
      assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
      assert.match(error.details, /larger than max/);
      return true;
    });
  } finally {
    client.close();
  }
  await assertHealthy();
});

test('a body over maxBodyBytes by a little is a result naming the limit', async () => {
  const { valid, errors } = await answerOf(postItems(`{"code":"${'a'.repeat(12 * 1024 * 1024)}"}`));
  assert.equal(valid, false);
  assert.deepEqual(errors, ['request body is 12 MiB, over the limit of 10 MiB (maxBodyBytes)']);
});

test('__proto__ keys are ordinary data: reported as unexpected, never merged into prototypes', async () => {
  const body = await answerOf(postItems('{"__proto__":{"polluted":true},"code":"aaa"}'));
  assert.deepEqual([body.valid, body.errors], [false, ['request body: unexpected property "__proto__"']]);
  const header = await answerOf(postItems('{"code":"aaa"}', { ...JSON_HEADERS, ['__proto__']: 'x', constructor: 'y' }));
  assert.deepEqual([header.valid, header.errors], [true, []]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('^(a+)+$ against a long string answers in milliseconds (RE2, no backtracking)', async () => {
  const inBody = await answerOf(postItems(`{"code":"${'a'.repeat(100_000)}!"}`));
  assert.deepEqual([inBody.valid, inBody.errors], [false, ['request body /code: must match pattern "^(a+)+$"']]);
  assert.ok(inBody.ms < 1000, `${inBody.ms} ms`);
  const inPath = await answerOf({ schema_id: 'hostile', request: { method: 'GET', path: `/items/${'a'.repeat(4000)}!`, headers: {}, body: '' } });
  assert.equal(inPath.valid, false);
  assert.match(inPath.errors[0]!, /^parameter "code" in path: value "a+…" must match pattern "\^\(a\+\)\+\$"$/);
  assert.ok(inPath.ms < 1000, `${inPath.ms} ms`);
});

test('a number no double holds is RESOURCE_EXHAUSTED naming it, not a verdict on Infinity', async () => {
  await assert.rejects(server.client.call('ValidateInteraction', postItems('{"code":"aaa","tags":[1e400]}')), (error: grpc.ServiceError) => {
    assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
    assert.match(error.details, /^request body could not be checked: the number 1e400 is outside what a double holds/);
    return true;
  });
  await assertHealthy();
});

test('invalid JSON is a result saying so', async () => {
  const { valid, errors } = await answerOf(postItems('{"code": '));
  assert.equal(valid, false);
  assert.match(errors[0]!, /^request body is not valid JSON: /);
});

test('a 200,000-character path is refused by the path limit', async () => {
  const path = `/items/${'a'.repeat(200_000)}`;
  const { valid, errors, ms } = await answerOf({ schema_id: 'hostile', request: { method: 'GET', path, headers: {}, body: '' } });
  assert.equal(valid, false);
  assert.deepEqual(errors, [`request path is ${path.length} characters, over the limit of ${LIMITS.validationMaxPathChars} (maxPathChars)`]);
  assert.ok(ms < 1000, `${ms} ms`);
});

test('bytes that are not a protobuf message are INVALID_ARGUMENT', async () => {
  const client = rawClient(server.address);
  try {
    for (const operation of ['ValidateInteraction', 'ValidateProducerResponse']) {
      await assert.rejects(rawUnary(client, operation, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00])), (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.INVALID_ARGUMENT);
        assert.match(error.details, /is not a valid svc\.(InteractionRequest|ValidateProducerRequest) message/);
        return true;
      });
    }
  } finally {
    client.close();
  }
  await assertHealthy();
});
