/**
 * Plain HTTP server for `GET /metrics` on the metrics port (Prometheus text exposition). As the gRPC
 * port closes a connection without its preface, this one bounds what a peer can hold a file descriptor
 * with: a request's headers must arrive within `requestTimeoutMs` (else 408), and a connection with no
 * traffic either way for that long is destroyed (a 408 only half-closes, and a peer that never reads
 * its answer would keep the descriptor).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

export class MetricsServer {
  readonly #server: http.Server;
  #closed: Promise<void> | undefined;

  private constructor(server: http.Server) {
    this.#server = server;
  }

  /** `requestTimeoutMs` 0 leaves Node's own timeouts (headers 60 s, request 300 s). */
  static async start(metrics: Metrics, host: string, port: number, logger: Logger, requestTimeoutMs: number): Promise<MetricsServer> {
    const timeouts = requestTimeoutMs > 0
      ? { headersTimeout: requestTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs) }
      : {};
    const server = http.createServer(timeouts, (request, response) => {
      const url = (request.url ?? '/').split('?', 1)[0];
      if (request.method !== 'GET' || url !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: metrics are at GET /metrics\n');
        return;
      }
      metrics.render().then(
        (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
        (error: unknown) => {
          logger.error({ caller: 'metrics-server', err: error }, 'metrics rendering failed');
          response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    });
    server.keepAliveTimeout = 5_000;
    if (requestTimeoutMs > 0) server.setTimeout(requestTimeoutMs); // no listener: Node destroys the idle socket
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new MetricsServer(server);
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.#closed ??= new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
    return this.#closed;
  }
}
