/** Plain HTTP server for `GET /metrics` on the metrics port (Prometheus text exposition). */
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

  static async start(metrics: Metrics, host: string, port: number, logger: Logger): Promise<MetricsServer> {
    const server = http.createServer((request, response) => {
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
