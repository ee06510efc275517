import { Command, Option, UsageError } from 'clipanion';
import { ConfigError, DEFAULT_SERVER_CONFIG } from '../../main/config';
import { SvcServer } from '../../main/server';
import type { StorageKind } from '../../main/storage/storage';

export class ServeCommand extends Command {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    description: 'Start the gRPC server (and the metrics endpoint)',
    details: `
      Serves the ContractValidator gRPC service, the standard grpc.health.v1.Health service and server
      reflection on the gRPC port, and Prometheus metrics at GET /metrics on the metrics port.
      Schemas and consumer registrations are kept in an embedded SQLite database in the data folder
      unless \`--storage memory\` is given. Stops gracefully on SIGTERM or SIGINT.

      Environment: SVC_PORT, SVC_METRICS_PORT, SVC_HOST, SVC_METRICS_HOST, SVC_STORAGE (sqlite|memory), SVC_DATA_DIR, LOG_LEVEL
      (debug|info|warn|error). Flags take precedence over the environment.
    `,
    examples: [
      ['Start on the default ports with the embedded store in ./data', '$0 serve'],
      ['Start on another port with a throwaway in-memory store', '$0 serve --port 9650 --storage memory'],
    ],
  });

  port = Option.String('-p,--port', { description: `gRPC port (default ${DEFAULT_SERVER_CONFIG.port})` });
  metricsPort = Option.String('--metrics-port', { description: `Metrics port (default ${DEFAULT_SERVER_CONFIG.metricsPort})` });
  host = Option.String('--host', { description: `Address to bind (default ${DEFAULT_SERVER_CONFIG.host})` });
  storage = Option.String('--storage', { description: 'Storage backend: sqlite (default) or memory' });
  dataDir = Option.String('--data-dir', { description: `Folder of the SQLite database (default ${DEFAULT_SERVER_CONFIG.dataDir})` });

  override async execute(): Promise<number> {
    let server: SvcServer;
    try {
      server = await SvcServer.start({
        port: this.port === undefined ? undefined : parsePort('--port', this.port),
        metricsPort: this.metricsPort === undefined ? undefined : parsePort('--metrics-port', this.metricsPort),
        host: this.host,
        storage: this.storage as StorageKind | undefined,
        dataDir: this.dataDir,
      });
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      this.context.stderr.write(`svc serve: ${(error as Error).message}\n`);
      return 1;
    }
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        void server.close().then(resolve);
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    return 0;
  }
}

function parsePort(flag: string, value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`${flag} must be a port number from 0 to 65535 (got "${value}")`);
  return port;
}
