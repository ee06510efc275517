/**
 * gRPC server credentials: plaintext, TLS (`--tls --cert --key`), or mutual TLS (`--client-ca`:
 * clients must present a certificate signed by that CA, others are refused during the handshake).
 * Every file is read and the certificate, key and CA are checked together at start, so a wrong
 * path, an unreadable file or a key that does not match the certificate stops the server with a
 * message naming the file, not at the first client's handshake.
 */
import fs from 'node:fs';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import type { ServerConfig } from './config';

export class TlsConfigError extends Error {
  override name = 'TlsConfigError';
}

export type TlsMode = 'plaintext' | 'tls' | 'mutual-tls';

export function tlsMode(config: Pick<ServerConfig, 'tls' | 'tlsClientCaPath'>): TlsMode {
  if (!config.tls) return 'plaintext';
  return config.tlsClientCaPath === '' ? 'tls' : 'mutual-tls';
}

export function serverCredentials(config: Pick<ServerConfig, 'tls' | 'tlsCertPath' | 'tlsKeyPath' | 'tlsClientCaPath'>): grpc.ServerCredentials {
  if (!config.tls) return grpc.ServerCredentials.createInsecure();
  const cert = readPem('certificate (--cert / SVC_TLS_CERT)', config.tlsCertPath, 'CERTIFICATE');
  const key = readPem('private key (--key / SVC_TLS_KEY)', config.tlsKeyPath, 'PRIVATE KEY');
  const clientCa = config.tlsClientCaPath === ''
    ? null
    : readPem('client CA (--client-ca / SVC_TLS_CLIENT_CA)', config.tlsClientCaPath, 'CERTIFICATE');
  try {
    // The same checks grpc-js would make at the first handshake, made now.
    tls.createSecureContext({ cert, key, ...(clientCa ? { ca: clientCa } : {}) });
  } catch (error) {
    throw new TlsConfigError(
      `TLS certificate ${config.tlsCertPath} and private key ${config.tlsKeyPath} cannot be used together: ${(error as Error).message}`,
    );
  }
  return grpc.ServerCredentials.createSsl(clientCa, [{ cert_chain: cert, private_key: key }], clientCa !== null);
}

function readPem(what: string, file: string, label: string): Buffer {
  let content: Buffer;
  try {
    content = fs.readFileSync(file);
  } catch (error) {
    throw new TlsConfigError(`TLS ${what} ${file}: cannot read the file: ${(error as Error).message}`);
  }
  // "PRIVATE KEY" also matches "RSA PRIVATE KEY" and "EC PRIVATE KEY".
  if (!content.toString('latin1').includes(`${label}-----`)) {
    throw new TlsConfigError(`TLS ${what} ${file}: no PEM "${label}" block found`);
  }
  return content;
}
