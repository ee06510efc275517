/**
 * Throwaway certificates for TLS tests, made with the `openssl` command: a CA, a server certificate
 * for 127.0.0.1/localhost signed by it, a client certificate signed by it, and a second, unrelated
 * CA with its own client certificate (the one a server must refuse).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface CertificateSet {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  strangerCaCert: string;
  strangerCert: string;
  strangerKey: string;
}

export function makeCertificates(dir: string): CertificateSet {
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ca = (name: string, subject: string) =>
    openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', subject, '-keyout', file(`${name}-key.pem`), '-out', file(`${name}.pem`));
  const leaf = (name: string, caName: string, subject: string, extensions: string) => {
    fs.writeFileSync(file(`${name}.ext`), extensions);
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', subject,
      '-keyout', file(`${name}-key.pem`), '-out', file(`${name}.csr`));
    openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file(`${caName}.pem`), '-CAkey', file(`${caName}-key.pem`),
      '-CAcreateserial', '-days', '2', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`));
  };
  ca('ca', '/CN=svc test CA');
  ca('stranger-ca', '/CN=stranger CA');
  leaf('server', 'ca', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  leaf('client', 'ca', '/CN=svc test client', 'extendedKeyUsage=clientAuth\n');
  leaf('stranger', 'stranger-ca', '/CN=stranger client', 'extendedKeyUsage=clientAuth\n');
  return {
    dir,
    caCert: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server-key.pem'),
    clientCert: file('client.pem'),
    clientKey: file('client-key.pem'),
    strangerCaCert: file('stranger-ca.pem'),
    strangerCert: file('stranger.pem'),
    strangerKey: file('stranger-key.pem'),
  };
}
