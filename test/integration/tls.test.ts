/**
 * TLS and mutual TLS with certificates made by the test (openssl): trusted clients get through,
 * plaintext clients, clients that do not trust the server, clients without a certificate and
 * clients whose certificate another CA signed are refused; bad files stop the start with a message
 * naming the file.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ConfigError } from '../../src/main/config';
import { TlsConfigError } from '../../src/main/tls';
import { makeCertificates, type CertificateSet } from '../helpers/certificates';
import { checkHealth } from '../helpers/health';
import { REPO_ROOT } from '../helpers/paths';
import { createTestClient, makeTempDir, startTestServer, type TestServer } from '../helpers/server';

const read = (file: string) => fs.readFileSync(file);

function listSchemas(address: string, credentials: grpc.ChannelCredentials): Promise<unknown> {
  const client = createTestClient(address, credentials, { 'grpc.ssl_target_name_override': 'localhost' });
  return client.call('ListSchemas', {}, { deadlineMs: 5_000 }).finally(() => client.close());
}

describe('TLS', () => {
  let certs: CertificateSet;
  let server: TestServer;
  before(async () => {
    certs = makeCertificates(makeTempDir('svc-tls-'));
    server = await startTestServer({ tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey });
  });
  after(async () => {
    await server.close();
    fs.rmSync(certs.dir, { recursive: true, force: true });
  });

  it('serves clients that trust its CA, health included', async () => {
    const credentials = grpc.credentials.createSsl(read(certs.caCert));
    const response = await listSchemas(server.address, credentials) as { total_count: number };
    assert.equal(response.total_count, 0);
    assert.equal(await checkHealth(server.address, '', credentials), 'SERVING');
  });

  it('refuses plaintext clients', async () => {
    await assert.rejects(listSchemas(server.address, grpc.credentials.createInsecure()), { code: grpc.status.UNAVAILABLE });
  });

  it('is refused by clients that do not trust its certificate', async () => {
    await assert.rejects(listSchemas(server.address, grpc.credentials.createSsl(read(certs.strangerCaCert))), { code: grpc.status.UNAVAILABLE });
  });
});

describe('mutual TLS', () => {
  let certs: CertificateSet;
  let server: TestServer;
  before(async () => {
    certs = makeCertificates(makeTempDir('svc-mtls-'));
    server = await startTestServer({
      tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey, tlsClientCaPath: certs.caCert,
    });
  });
  after(async () => {
    await server.close();
    fs.rmSync(certs.dir, { recursive: true, force: true });
  });

  it('serves a client whose certificate the client CA signed', async () => {
    const credentials = grpc.credentials.createSsl(read(certs.caCert), read(certs.clientKey), read(certs.clientCert));
    assert.deepEqual(await listSchemas(server.address, credentials), { schemas: [], next_page_token: '', total_count: 0 });
  });

  it('refuses a client without a certificate', async () => {
    await assert.rejects(listSchemas(server.address, grpc.credentials.createSsl(read(certs.caCert))), { code: grpc.status.UNAVAILABLE });
  });

  it('refuses a client whose certificate an untrusted CA signed', async () => {
    const credentials = grpc.credentials.createSsl(read(certs.caCert), read(certs.strangerKey), read(certs.strangerCert));
    await assert.rejects(listSchemas(server.address, credentials), { code: grpc.status.UNAVAILABLE });
  });

  it('keeps serving trusted clients after refusing strangers', async () => {
    const credentials = grpc.credentials.createSsl(read(certs.caCert), read(certs.clientKey), read(certs.clientCert));
    assert.equal(await checkHealth(server.address, '', credentials), 'SERVING');
  });
});

describe('TLS start-up errors', () => {
  let certs: CertificateSet;
  before(() => {
    certs = makeCertificates(makeTempDir('svc-tls-errors-'));
  });
  after(() => fs.rmSync(certs.dir, { recursive: true, force: true }));

  it('names a missing certificate file', async () => {
    const missing = path.join(certs.dir, 'nope.pem');
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: missing, tlsKeyPath: certs.serverKey }), (error: Error) => {
      assert.ok(error instanceof TlsConfigError);
      assert.match(error.message, /^TLS certificate \(--cert \/ SVC_TLS_CERT\) .*nope\.pem: cannot read the file: ENOENT/);
      return true;
    });
  });

  it('names an unreadable key file', async (t) => {
    if (process.getuid?.() === 0) {
      t.skip('root can read a file whatever its mode');
      return;
    }
    const unreadable = path.join(certs.dir, 'unreadable-key.pem');
    fs.copyFileSync(certs.serverKey, unreadable);
    fs.chmodSync(unreadable, 0o000);
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: unreadable }),
      /TLS private key \(--key \/ SVC_TLS_KEY\) .*unreadable-key\.pem: cannot read the file: EACCES/);
  });

  it('refuses a file without a PEM block, a key that does not match and an unreadable client CA', async () => {
    const notPem = path.join(certs.dir, 'not.pem');
    fs.writeFileSync(notPem, 'hello');
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: notPem, tlsKeyPath: certs.serverKey }), /not\.pem: no PEM "CERTIFICATE" block found/);
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.clientKey }),
      /TLS certificate .*server\.pem and private key .*client-key\.pem cannot be used together: .*key values mismatch/);
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey, tlsClientCaPath: path.join(certs.dir, 'no-ca.pem') }),
      /TLS client CA \(--client-ca \/ SVC_TLS_CLIENT_CA\) .*no-ca\.pem: cannot read the file/);
  });

  it('refuses half a TLS configuration', async () => {
    await assert.rejects(startTestServer({ tls: true, tlsCertPath: certs.serverCert }), (error: Error) =>
      error instanceof ConfigError && /tls needs both a certificate and a private key/.test(error.message));
    await assert.rejects(startTestServer({ tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey }), (error: Error) =>
      error instanceof ConfigError && error.message === 'tlsCertPath, tlsKeyPath given but tls is off: add --tls (or SVC_TLS=true)');
  });

  it('takes its settings from SVC_TLS, SVC_TLS_CERT and SVC_TLS_KEY', async () => {
    const server = await startTestServer({ env: { SVC_TLS: 'true', SVC_TLS_CERT: certs.serverCert, SVC_TLS_KEY: certs.serverKey } });
    try {
      assert.equal(await checkHealth(server.address, '', grpc.credentials.createSsl(read(certs.caCert))), 'SERVING');
    } finally {
      await server.close();
    }
  });

  it('svc serve exits non-zero with the message for a missing key file', () => {
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/svc.js'), 'serve', '--storage', 'memory', '--host', '127.0.0.1',
      '--port', '0', '--metrics-port', '0', '--tls', '--cert', certs.serverCert, '--key', path.join(certs.dir, 'missing-key.pem')],
    { encoding: 'utf8', timeout: 20_000 });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^svc serve: TLS private key \(--key \/ SVC_TLS_KEY\) .*missing-key\.pem: cannot read the file: ENOENT/);
  });
});
