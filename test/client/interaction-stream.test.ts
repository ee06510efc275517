/**
 * InteractionStream: one long-lived ValidateInteractionStream call for validations made one at a time.
 * Results matched to their validation, per-validation deadlines, a failing stream replaced by a new
 * one, the unary fallback, closing when idle (so an idle process exits), and close().
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import type { InteractionRequest__Output } from '@svc/client/protocol';
import { REPO_ROOT } from '../helpers/paths';
import { USERS_SCHEMA_ID, startStubGrpcServer, startUsersApiServer, timed, type UsersApiServer } from '../helpers/client-fixtures';

let api: UsersApiServer;

before(async () => {
  api = await startUsersApiServer();
});

after(() => api.close());

const user = (id: number, valid: boolean) => ({
  request: { method: 'GET', path: `/users/${id}` },
  response: { statusCode: 200, body: valid ? { id, name: `user ${id}` } : { id } },
});

test('concurrent validations on one stream each get their own result', async () => {
  const stream = api.validator.openInteractionStream();
  try {
    const cases = Array.from({ length: 200 }, (_, i) => user(i + 1, i % 4 !== 0));
    const results = await Promise.all(cases.map(({ request, response }) => stream.validate(request, response)));
    results.forEach((result, i) => assert.equal(result.valid, i % 4 !== 0, `validation ${i}`));
    assert.deepEqual(results[0]!.errors, ['response body: property "name" is required']);
    assert.equal(results[1]!.validatedAgainstVersion, '1.0.0');
    assert.equal(stream.pending, 0);
  } finally {
    stream.close();
  }
});

test('the stream closes when idle and reopens on demand', async () => {
  let streams = 0;
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteractionStream: ((call: grpc.ServerDuplexStream<InteractionRequest__Output, unknown>) => {
        streams += 1;
        call.on('data', (request: InteractionRequest__Output) =>
          call.write({ valid: true, errors: [], validated_against_version: `stream ${streams}`, validated_against_hash: '', correlation_id: request.correlation_id }));
        call.on('end', () => call.end());
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  const stream = client.openInteractionStream({ idleCloseMs: 100 });
  try {
    const { request, response } = user(1, true);
    assert.equal((await stream.validate(request, response)).validatedAgainstVersion, 'stream 1');
    assert.equal((await stream.validate(request, response)).validatedAgainstVersion, 'stream 1', 'still open');
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal((await stream.validate(request, response)).validatedAgainstVersion, 'stream 2', 'reopened after the idle close');
  } finally {
    stream.close();
    client.close();
    await stub.close();
  }
});

test('an idle-closed stream the server never finishes is cancelled, so it cannot hold the process open', async () => {
  let cancelled = false;
  const stub = await startStubGrpcServer({
    handlers: {
      // Answers, then ignores the client's end: a server that stopped answering.
      ValidateInteractionStream: ((call: grpc.ServerDuplexStream<InteractionRequest__Output, unknown>) => {
        call.on('data', (request: InteractionRequest__Output) =>
          call.write({ valid: true, errors: [], validated_against_version: '1', validated_against_hash: '', correlation_id: request.correlation_id }));
        call.on('cancelled', () => {
          cancelled = true;
        });
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  const stream = client.openInteractionStream({ idleCloseMs: 100 });
  try {
    const { request, response } = user(1, true);
    assert.equal((await stream.validate(request, response)).valid, true);
    // Idle after 100 ms, ended; cancelled 100 ms later as the server never finished it.
    for (let waited = 0; !cancelled && waited < 2_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(cancelled, true, 'before, the call stayed open for good');
  } finally {
    stream.close();
    client.close();
    await stub.close();
  }
});

test('each validation has its own deadline; a stream that fails is replaced by a new one', async () => {
  let streams = 0;
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteractionStream: ((call: grpc.ServerDuplexStream<InteractionRequest__Output, unknown>) => {
        const number = ++streams;
        call.on('data', (request: InteractionRequest__Output) => {
          const path = request.request?.path ?? '';
          if (path === '/hang') return; // never answered
          if (path === '/fail') {
            call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'worker went away' });
            return;
          }
          call.write({ valid: true, errors: [], validated_against_version: `stream ${number}`, validated_against_hash: '', correlation_id: request.correlation_id });
        });
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  const stream = client.openInteractionStream({ deadlineMs: 200 });
  const call = (path: string) => stream.validate({ method: 'GET', path }, { statusCode: 200 });
  try {
    const { value: hung, ms } = await timed(() => call('/hang').catch((error: unknown) => error));
    assert.ok(hung instanceof ContractValidatorError);
    assert.equal(hung.code, 'DEADLINE_EXCEEDED');
    assert.ok(ms >= 190 && ms < 1_000, `${ms} ms`);
    assert.equal((await call('/ok')).validatedAgainstVersion, 'stream 1', 'a deadline does not end the stream');

    await assert.rejects(call('/fail'), (error: ContractValidatorError) => error.code === 'UNAVAILABLE');
    assert.equal((await call('/ok')).validatedAgainstVersion, 'stream 2');
  } finally {
    stream.close();
    client.close();
    await stub.close();
  }
});

test('a server without the streaming operation gets unary calls', async () => {
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteraction: ((_call: grpc.ServerUnaryCall<InteractionRequest__Output, unknown>, callback: grpc.sendUnaryData<unknown>) =>
        callback(null, { valid: true, errors: [], validated_against_version: 'unary', validated_against_hash: '', correlation_id: '' })) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  const stream = client.openInteractionStream();
  try {
    const results = await Promise.all([1, 2, 3].map((id) => stream.validate(user(id, true).request, user(id, true).response)));
    assert.deepEqual(results.map((r) => r.validatedAgainstVersion), ['unary', 'unary', 'unary']);
    await stream.validate(user(4, true).request, user(4, true).response);
    assert.equal(stub.calls.filter((c) => c.operation === 'ValidateInteractionStream').length, 1, 'the stream is not retried');
  } finally {
    stream.close();
    client.close();
    await stub.close();
  }
});

test('close rejects what is in flight and refuses what follows', async () => {
  const stub = await startStubGrpcServer({ hang: ['ValidateInteractionStream'] });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  const stream = client.openInteractionStream();
  try {
    const inFlight = stream.validate({ method: 'GET', path: '/x' }, { statusCode: 200 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.close();
    stream.close();
    await assert.rejects(inFlight, (error: ContractValidatorError) => error.code === 'CANCELLED');
    await assert.rejects(stream.validate({ method: 'GET', path: '/x' }, { statusCode: 200 }), (error: ContractValidatorError) => error.code === 'FAILED_PRECONDITION');
  } finally {
    client.close();
    await stub.close();
  }
});

test('a process whose stream went idle exits without closing anything', async () => {
  const script = `
    const { ContractValidator } = require(${JSON.stringify(path.join(REPO_ROOT, 'clients', 'node'))});
    const stream = new ContractValidator({ address: ${JSON.stringify(api.address)}, schemaId: ${JSON.stringify(USERS_SCHEMA_ID)} })
      .openInteractionStream({ idleCloseMs: 100 });
    stream.validate({ method: 'GET', path: '/users/1' }, { statusCode: 200, body: { id: 1, name: 'a' } })
      .then((result) => console.log(JSON.stringify(result.valid)));
  `;
  const { value, ms } = await timed(() => promisify(execFile)(process.execPath, ['-e', script], { timeout: 10_000 }));
  assert.equal(value.stdout.trim(), 'true');
  assert.ok(ms < 8_000, `exited after ${ms} ms`);
});
