/**
 * Over TLS, the HTTP/2 preface comes after the handshake: a connection whose handshake stalls, or
 * that completes it and then sends nothing or half a preface, is closed after
 * connectionPrefaceTimeoutMs like a plaintext one, while TLS clients are served.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { makeCertificates, type CertificateSet } from '../helpers/certificates';
import { closedAfter, connectAndWrite, writeOnceOpen } from '../helpers/raw-connections';
import { createTestClient, makeTempDir, startTestServer, type TestServer } from '../helpers/server';

const PREFACE_TIMEOUT_MS = 300;

let certs: CertificateSet;
let server: TestServer;
before(async () => {
  certs = makeCertificates(makeTempDir('svc-tls-preface-'));
  server = await startTestServer({
    tls: true, tlsCertPath: certs.serverCert, tlsKeyPath: certs.serverKey, connectionPrefaceTimeoutMs: PREFACE_TIMEOUT_MS,
  });
});
after(async () => {
  await server.close();
  fs.rmSync(certs.dir, { recursive: true, force: true });
});

/** A TLS handshake with the server (ALPN h2, as gRPC clients offer), then `bytes`. */
function tlsConnectAndWrite(bytes: Buffer): Promise<{ socket: tls.TLSSocket; opened: number }> {
  const socket = tls.connect({ port: server.server.port, host: '127.0.0.1', servername: 'localhost', ca: fs.readFileSync(certs.caCert), ALPNProtocols: ['h2'] });
  return writeOnceOpen(socket, 'secureConnect', bytes);
}


test('stalled TLS handshakes and TLS connections without a whole HTTP/2 preface are closed; TLS clients are served', async () => {
  const client = createTestClient(server.address, grpc.credentials.createSsl(fs.readFileSync(certs.caCert)), { 'grpc.ssl_target_name_override': 'localhost' });
  const listSchemas = () => client.call<{ total_count: number }>('ListSchemas', {}, { deadlineMs: 5_000 });
  try {
    assert.equal((await listSchemas()).total_count, 0);
    const connections = [
      { label: 'one byte of a ClientHello', ...await connectAndWrite(server.server.port, Buffer.from([0x16])) },
      { label: 'a TLS record header only', ...await connectAndWrite(server.server.port, Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00])) },
      { label: 'handshake done, nothing sent', ...await tlsConnectAndWrite(Buffer.alloc(0)) },
      { label: 'handshake done, one byte sent', ...await tlsConnectAndWrite(Buffer.from('P')) },
      { label: 'handshake done, the first line of the magic sent', ...await tlsConnectAndWrite(Buffer.from('PRI * HTTP/2.0\r\n')) },
    ];
    const closed = connections.map(({ label, socket, opened }) => closedAfter(socket, opened, PREFACE_TIMEOUT_MS * 10, label));
    assert.equal((await listSchemas()).total_count, 0);
    const times = await Promise.all(closed);
    // Each timer started at the TCP accept, before `opened`: a close comes within the timeout of it (5× for a slow machine).
    times.forEach((ms, i) => assert.ok(ms <= PREFACE_TIMEOUT_MS * 5, `${connections[i]!.label}: closed after ${Math.round(ms)} ms`));
    await new Promise((resolve) => setTimeout(resolve, PREFACE_TIMEOUT_MS * 2));
    assert.equal((await listSchemas()).total_count, 0, 'the connection opened before is served well past the timeout');
  } finally {
    client.close();
  }
});
