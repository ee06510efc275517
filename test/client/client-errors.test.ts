/**
 * Transport failures are thrown as ContractValidatorError with the gRPC status name as `code` and the
 * grpc-js error as `cause`: a server that is down, one that does not answer in time, and options
 * that cannot work (rejected in the constructor, naming the option).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator, ContractValidatorError, ProducerTestKit, isContractValidatorError } from '@svc/client';
import { closedPortAddress, startStubGrpcServer, timed } from '../helpers/client-fixtures';

test('a server that is down: UNAVAILABLE, at once', async () => {
  const client = new ContractValidator({ address: await closedPortAddress(), schemaId: 'users-api' });
  try {
    const { value: error, ms } = await timed(() => client.validate({ method: 'GET', path: '/users/1' }, { statusCode: 200 }).catch((e: unknown) => e));
    assert.ok(isContractValidatorError(error), String(error));
    assert.equal(error.code, 'UNAVAILABLE');
    assert.equal(error.name, 'ContractValidatorError');
    assert.ok(error.cause instanceof Error, 'the grpc-js error is kept as cause');
    assert.ok(ms < 5_000, `failed after ${ms} ms`);
  } finally {
    client.close();
  }
});

test('a server that never answers: DEADLINE_EXCEEDED after the per-call deadline, or the client default', async () => {
  const stub = await startStubGrpcServer({ hang: ['ValidateInteraction', 'ListEndpoints'] });
  const client = new ContractValidator({ address: stub.address, schemaId: 'users-api', deadlineMs: 300 });
  try {
    const perCall = await timed(() => client.validate({ method: 'GET', path: '/users/1' }, { statusCode: 200 }, { deadlineMs: 100 }).catch((e: unknown) => e));
    assert.ok(perCall.value instanceof ContractValidatorError);
    assert.equal(perCall.value.code, 'DEADLINE_EXCEEDED');
    assert.ok(perCall.ms >= 90 && perCall.ms < 280, `per-call deadline took ${perCall.ms} ms`);

    const byDefault = await timed(() => client.listEndpoints().catch((e: unknown) => e));
    assert.ok(byDefault.value instanceof ContractValidatorError);
    assert.equal(byDefault.value.code, 'DEADLINE_EXCEEDED');
    assert.ok(byDefault.ms >= 290, `default deadline took ${byDefault.ms} ms`);
  } finally {
    client.close();
    await stub.close();
  }
});

test('operations a server does not serve: UNIMPLEMENTED', async () => {
  const stub = await startStubGrpcServer();
  const client = new ContractValidator(stub.address);
  try {
    await assert.rejects(client.canIDeploy('users-api', '2.0.0', 'prod'), (error: ContractValidatorError) => error.code === 'UNIMPLEMENTED');
  } finally {
    client.close();
    await stub.close();
  }
});

test('options that cannot work are refused in the constructor, naming the option', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ address: '' }, /options\.address/],
    [{ deadlineMs: 0 }, /options\.deadlineMs/],
    [{ apiKey: 42 }, /options\.apiKey/],
    [{ tls: { certPath: '/tmp/cert.pem' } }, /tls\.certPath and tls\.keyPath/],
    [{ tls: { enabled: false, rootCertPath: '/tmp/ca.pem' } }, /tls\.enabled is false/],
    [{ tls: { rootCertPath: '/nonexistent/ca.pem' } }, /tls\.rootCertPath "\/nonexistent\/ca\.pem"/],
    [{ schemaVersion: '1.0.0' }, /schemaVersion needs schemaId/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => new ContractValidator(options as never), (error: ContractValidatorError) => {
      assert.equal(error.code, 'INVALID_ARGUMENT');
      assert.match(error.message, message);
      return true;
    });
  }
});

test('the default address is localhost:9550, for the client and the producer test kit', () => {
  const client = new ContractValidator();
  const kit = new ProducerTestKit({ schemaId: 'users-api' });
  const elsewhere = new ContractValidator('10.1.2.3:7000');
  try {
    assert.equal(client.address, 'localhost:9550');
    assert.equal(kit.address, 'localhost:9550');
    assert.equal(elsewhere.address, '10.1.2.3:7000');
  } finally {
    client.close();
    kit.close();
    elsewhere.close();
  }
});
