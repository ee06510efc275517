/**
 * The client's TLS and API key options against real servers: TLS with a private CA, mutual TLS with a
 * client certificate, API key authentication (`serve --api-key-auth`), and the metadata entry that
 * carries the key.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import { makeCertificates, type CertificateSet } from '../helpers/certificates';
import { USERS_V1_YAML, startStubGrpcServer } from '../helpers/client-fixtures';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

let certificates: CertificateSet;

before(() => {
  certificates = makeCertificates(makeTempDir('svc-client-tls-'));
});

/** Registers and lists endpoints: a call that needs the connection and the key to work. */
async function roundTrip(client: ContractValidator): Promise<number> {
  await client.registerSchema('tls-api', USERS_V1_YAML);
  return (await client.listEndpoints()).length;
}

async function failureCode(client: ContractValidator): Promise<string> {
  try {
    await roundTrip(client);
    return 'OK';
  } catch (error) {
    assert.ok(error instanceof ContractValidatorError, String(error));
    return error.code;
  } finally {
    client.close();
  }
}

describe('TLS', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ tls: true, tlsCertPath: certificates.serverCert, tlsKeyPath: certificates.serverKey });
  });
  after(() => server.close());

  test('connects with tls.enabled and the CA as rootCertPath', async () => {
    const client = new ContractValidator({ address: server.address, tls: { enabled: true, rootCertPath: certificates.caCert } });
    try {
      assert.equal(await roundTrip(client), 6);
    } finally {
      client.close();
    }
  });

  test('a CA path alone implies TLS; serverNameOverride checks the certificate against another name', async () => {
    const client = new ContractValidator({ address: server.address, tls: { rootCertPath: certificates.caCert, serverNameOverride: 'localhost' } });
    try {
      assert.equal(await roundTrip(client), 6);
    } finally {
      client.close();
    }
  });

  test('plaintext, or a CA that did not sign the server certificate, cannot connect: UNAVAILABLE', async () => {
    assert.equal(await failureCode(new ContractValidator({ address: server.address, deadlineMs: 5_000 })), 'UNAVAILABLE');
    assert.equal(await failureCode(new ContractValidator({
      address: server.address, deadlineMs: 5_000, tls: { enabled: true, rootCertPath: certificates.strangerCaCert },
    })), 'UNAVAILABLE');
  });
});

describe('mutual TLS', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      tls: true,
      tlsCertPath: certificates.serverCert,
      tlsKeyPath: certificates.serverKey,
      tlsClientCaPath: certificates.caCert,
    });
  });
  after(() => server.close());

  test('connects with the client certificate and key', async () => {
    const client = new ContractValidator({
      address: server.address,
      tls: { enabled: true, rootCertPath: certificates.caCert, certPath: certificates.clientCert, keyPath: certificates.clientKey },
    });
    try {
      assert.equal(await roundTrip(client), 6);
    } finally {
      client.close();
    }
  });

  test('without a client certificate, or with one from another CA, the handshake is refused', async () => {
    assert.equal(await failureCode(new ContractValidator({
      address: server.address, deadlineMs: 5_000, tls: { enabled: true, rootCertPath: certificates.caCert },
    })), 'UNAVAILABLE');
    assert.equal(await failureCode(new ContractValidator({
      address: server.address,
      deadlineMs: 5_000,
      tls: { enabled: true, rootCertPath: certificates.caCert, certPath: certificates.strangerCert, keyPath: certificates.strangerKey },
    })), 'UNAVAILABLE');
  });
});

describe('API key', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS: 'key-for-tests' } });
  });
  after(() => server.close());

  test('the apiKey option authenticates every call', async () => {
    const client = new ContractValidator({ address: server.address, apiKey: 'key-for-tests' });
    try {
      assert.equal(await roundTrip(client), 6);
      const results = await client.validateMany([{ request: { method: 'GET', path: '/health' }, response: { statusCode: 200, body: { status: 'ok' } } }]);
      assert.equal(results[0]!.valid, true, 'the stream carries the key too');
    } finally {
      client.close();
    }
  });

  test('a missing or wrong key is UNAUTHENTICATED', async () => {
    assert.equal(await failureCode(new ContractValidator({ address: server.address })), 'UNAUTHENTICATED');
    assert.equal(await failureCode(new ContractValidator({ address: server.address, apiKey: 'wrong-key' })), 'UNAUTHENTICATED');
  });

  test('the key travels as the x-api-key metadata entry, on unary calls and streams', async () => {
    const stub = await startStubGrpcServer();
    const client = new ContractValidator({ address: stub.address, apiKey: 'k-123', schemaId: 'stub' });
    try {
      await client.listEndpoints().catch(() => undefined);
      await client.validateMany([{ request: { method: 'GET', path: '/' }, response: { statusCode: 200 } }]).catch(() => undefined);
      assert.ok(stub.calls.length >= 2);
      for (const call of stub.calls) assert.deepEqual(call.metadata.get('x-api-key'), ['k-123'], call.operation);
    } finally {
      client.close();
      await stub.close();
    }
  });
});
