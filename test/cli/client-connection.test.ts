import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { makeCertificates } from '../helpers/certificates';
import { makeTempDir, startTestServer } from '../helpers/server';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

const V1 = cliFixture('users-v1.yaml');

test('API key (child process): UNAUTHENTICATED without it; --api-key or SVC_API_KEY carry it', async () => {
  const server = await startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS: 'k-ci-0123456789' } });
  try {
    const refused = await runSvc(['register-schema', 'users', V1, '-S', server.address]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(lines(refused.stderr).length, 1);
    assert.match(refused.stderr, /^svc register-schema: UNAUTHENTICATED: .*\(give the API key with --api-key or SVC_API_KEY\)\n$/);

    const flag = await runSvcInProcess(['register-schema', 'users', V1, '-S', server.address, '--api-key', 'k-ci-0123456789', '-q']);
    assert.equal(flag.code, 0, flag.stderr);

    const env = await runSvc(['register-schema', 'users', cliFixture('users-v1.1.yaml'), '-S', server.address], {
      env: { SVC_API_KEY: 'k-ci-0123456789' },
    });
    assert.equal(env.code, 0, env.stderr);
    assert.match(env.stdout, /^Registered users 1\.1\.0 /);
  } finally {
    await server.close();
  }
});

test('TLS (child process): mutual TLS with --ca, --cert and --key; a client without a certificate is refused', async () => {
  const dir = makeTempDir('svc-cli-tls-');
  const certs = makeCertificates(dir);
  const server = await startTestServer({ tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey, tlsClientCaPath: certs.caCert });
  try {
    const mutual = await runSvc(['register-schema', 'users', V1, '-S', server.address, '--ca', certs.caCert, '--cert', certs.clientCert, '--key', certs.clientKey]);
    assert.equal(mutual.code, 0, mutual.stderr);
    assert.match(mutual.stdout, /^Registered users 1\.0\.0 /);

    const ready = await runSvcInProcess(['wait', '-S', server.address, '--ca', certs.caCert, '--cert', certs.clientCert, '--key', certs.clientKey, '-t', '5', '-q']);
    assert.equal(ready.code, 0, ready.stderr);

    const anonymous = await runSvcInProcess(['register-schema', 'users', V1, '-S', server.address, '--ca', certs.caCert, '-t', '5']);
    assert.equal(anonymous.code, 1);
    assert.equal(lines(anonymous.stderr).length, 1);
    assert.match(anonymous.stderr, /^svc register-schema: UNAVAILABLE: /);

    const plaintext = await runSvcInProcess(['register-schema', 'users', V1, '-S', server.address, '-t', '5']);
    assert.equal(plaintext.code, 1);
    assert.match(plaintext.stderr, /^svc register-schema: UNAVAILABLE: /);
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('TLS options: --cert without --key is a usage error; an unreadable --ca file is named', async () => {
  const half = await runSvcInProcess(['register-schema', 'users', V1, '--cert', 'client.pem']);
  assert.equal(half.code, 2);
  assert.match(half.stderr, /^svc register-schema: --cert and --key go together/);

  const missing = await runSvcInProcess(['can-i-deploy', '--schema', 'users', '--version', '1.0.0', '--env', 'dev', '--ca', cliFixture('no-ca.pem')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^svc can-i-deploy: cannot read the --ca file ".*no-ca\.pem": no such file\n$/);
});

test('a server that accepts connections but never answers: DEADLINE_EXCEEDED within --timeout', async () => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = `127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
  try {
    const started = Date.now();
    const result = await runSvc(['can-i-deploy', '--schema', 'users', '--version', '1.0.0', '--env', 'dev', '-S', address, '--timeout', '1']);
    const elapsed = Date.now() - started;
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `svc can-i-deploy: DEADLINE_EXCEEDED: no answer from ${address} within 1 s (--timeout)\n`);
    assert.ok(elapsed < 5_000, `returned after ${elapsed} ms`);
  } finally {
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});
