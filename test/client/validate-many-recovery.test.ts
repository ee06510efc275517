/**
 * validateMany when the stream is not the happy path: a server without the streaming operation
 * (unary fallback), a stream that ends UNAVAILABLE half-way (reopened for what is unanswered), and
 * one that fails before answering anything (the error reaches the caller).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import type { InteractionRequest__Output } from '@svc/client/protocol';
import { startStubGrpcServer } from '../helpers/client-fixtures';

const pairs = (count: number) => Array.from({ length: count }, (_, i) => ({
  request: { method: 'GET', path: `/items/${i}` },
  response: { statusCode: 200, body: { index: i } },
}));

/** A result that echoes which request it answers, so ordering can be checked. */
const answer = (request: InteractionRequest__Output, version: string) => ({
  valid: true,
  errors: [request.request?.path ?? ''],
  validated_against_version: version,
  validated_against_hash: '',
  correlation_id: request.correlation_id,
});

test('without the streaming operation, validateMany falls back to unary calls and keeps the order', async () => {
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteraction: ((call: grpc.ServerUnaryCall<InteractionRequest__Output, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        // Answer out of order in time: later requests are answered sooner.
        const index = Number(call.request.request?.path.split('/').pop());
        setTimeout(() => callback(null, answer(call.request, 'unary')), (40 - index) % 7);
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  try {
    const results = await client.validateMany(pairs(40));
    assert.deepEqual(results.map((r) => r.errors[0]), pairs(40).map((p) => p.request.path));
    assert.ok(results.every((r) => r.validatedAgainstVersion === 'unary'));
    assert.equal(stub.calls.filter((c) => c.operation === 'ValidateInteractionStream').length, 1);
    assert.equal(stub.calls.filter((c) => c.operation === 'ValidateInteraction').length, 40);
  } finally {
    client.close();
    await stub.close();
  }
});

test('a stream that ends UNAVAILABLE after some results is reopened for the rest', async () => {
  let attempts = 0;
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteractionStream: ((call: grpc.ServerDuplexStream<InteractionRequest__Output, unknown>) => {
        const attempt = ++attempts;
        let answered = 0;
        let failed = false;
        call.on('data', (request: InteractionRequest__Output) => {
          if (failed) return;
          if (attempt === 1 && answered === 3) {
            failed = true;
            call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'worker went away' });
            return;
          }
          answered += 1;
          call.write(answer(request, `attempt-${attempt}`));
        });
        call.on('end', () => {
          if (!failed) call.end();
        });
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  try {
    const results = await client.validateMany(pairs(10));
    assert.equal(attempts, 2);
    assert.deepEqual(results.map((r) => r.errors[0]), pairs(10).map((p) => p.request.path));
    assert.deepEqual(results.map((r) => r.validatedAgainstVersion), [
      ...Array(3).fill('attempt-1'),
      ...Array(7).fill('attempt-2'),
    ]);
  } finally {
    client.close();
    await stub.close();
  }
});

test('a stream refused before any result rejects with the status name as code', async () => {
  const stub = await startStubGrpcServer({
    handlers: {
      ValidateInteractionStream: ((call: grpc.ServerDuplexStream<unknown, unknown>) => {
        call.emit('error', { code: grpc.status.RESOURCE_EXHAUSTED, details: 'too many streams' });
      }) as grpc.UntypedHandleCall,
    },
  });
  const client = new ContractValidator({ address: stub.address, schemaId: 'stub' });
  try {
    await assert.rejects(client.validateMany(pairs(5)), (error: ContractValidatorError) => {
      assert.ok(error instanceof ContractValidatorError);
      assert.equal(error.code, 'RESOURCE_EXHAUSTED');
      assert.equal(error.details, 'too many streams');
      return true;
    });
  } finally {
    client.close();
    await stub.close();
  }
});
