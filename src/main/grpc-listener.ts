/**
 * The gRPC server's TCP listener. grpc-js binds its own HTTP/2 server, which keeps a connection that
 * never sends the HTTP/2 preface open for as long as the peer likes (50 of them exhaust a 256
 * descriptor limit). Here the server listens itself and hands every connection to grpc-js through its
 * connection injector, closing the ones that have sent nothing within `prefaceTimeoutMs`.
 */
import net from 'node:net';
import type * as grpc from '@grpc/grpc-js';

export interface GrpcListener {
  /** The bound port (the one asked for, or the one picked for 0). */
  port: number;
  /** Stops accepting connections; grpc-js closes the established ones on shutdown. Idempotent. */
  close(): Promise<void>;
}

export function listenForGrpc(
  server: grpc.Server,
  options: { host: string; port: number; credentials: grpc.ServerCredentials; prefaceTimeoutMs: number },
): Promise<GrpcListener> {
  const injector = server.createConnectionInjector(options.credentials);
  const tcp = net.createServer({ noDelay: true }, (socket) => {
    if (options.prefaceTimeoutMs > 0) {
      const timer = setTimeout(() => {
        // A reset, not a FIN: grpc-js's HTTP/2 session holds the socket, and only a reset ends it for the peer.
        if (socket.bytesRead === 0) socket.resetAndDestroy();
      }, options.prefaceTimeoutMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
    }
    injector.injectConnection(socket);
  });
  let closing: Promise<void> | undefined;
  const address = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`;
  return new Promise((resolve, reject) => {
    tcp.once('error', (error) => reject(new Error(`cannot listen on ${address}: ${error.message}`)));
    tcp.listen({ host: options.host.replace(/^\[|\]$/g, ''), port: options.port }, () => {
      resolve({
        port: (tcp.address() as net.AddressInfo).port,
        close() {
          closing ??= new Promise((done) => tcp.close(() => done()));
          return closing;
        },
      });
    });
  });
}
