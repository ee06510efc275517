import { Command, Option, UsageError } from 'clipanion';
import { SvcCommand } from '../svc-command';
import { ConfigError, DEFAULT_SERVER_CONFIG, type LogLevel } from '../../main/config';
import type { SvcServer } from '../../main/server';
import type { StorageKind } from '../../main/storage/storage';

export class ServeCommand extends SvcCommand {
  static override paths = [['serve']];
  static override usage = Command.Usage({
    description: 'Start the gRPC server (and the metrics endpoint)',
    details: `
      Serves the ContractValidator gRPC service, the standard grpc.health.v1.Health service and server
      reflection on the gRPC port, and Prometheus metrics at GET /metrics on the metrics port.
      Schemas and consumer registrations are kept in an embedded SQLite database in the data folder
      unless \`--storage memory\` is given. With \`--storage postgres --database-url postgres://...\` several replicas
      share one registry in PostgreSQL (migrations run at start; see docs/replicas.md). Stops gracefully on
      SIGTERM or SIGINT.

      With \`--api-key-auth\` every call except the health service needs an API key in metadata
      \`x-api-key\` or \`authorization: Bearer <key>\`. Keys come from SVC_API_KEYS (comma-separated) and/or
      SVC_API_KEYS_FILE (a JSON array of {"name", "key", "expiresAt"?}); SIGHUP reads them again.

      \`--tls --cert <pem> --key <pem>\` serves TLS; adding \`--client-ca <pem>\` requires every client to
      present a certificate signed by that CA (mutual TLS).

      Behind a proxy or load balancer, \`--trusted-proxies <addresses and CIDR ranges>\` counts each call
      without an API key as the client the proxy names in \`x-forwarded-for\`, not as the proxy, when
      the call's peer is one of them (shared capacity is divided by caller; docs/operating.md "Callers").

      \`--immutable-versions\` refuses different content for a version already registered (identical content
      stays idempotent); recommended in production. \`--allow-unknown-environments\` accepts environments
      never created, as servers did before environments were known (docs/deploy-gate.md).

      Environment: SVC_PORT, SVC_METRICS_PORT, SVC_HOST, SVC_METRICS_HOST, SVC_STORAGE (sqlite|memory|postgres), SVC_DATA_DIR, SVC_DATABASE_URL, LOG_LEVEL
      (debug|info|warn|error), SVC_TLS (true|false), SVC_TLS_CERT, SVC_TLS_KEY, SVC_TLS_CLIENT_CA, SVC_API_KEY_AUTH (true|false),
      SVC_API_KEYS, SVC_API_KEYS_FILE, SVC_WORKER_THREADS, SVC_IMMUTABLE_VERSIONS (true|false), SVC_ALLOW_UNKNOWN_ENVIRONMENTS (true|false),
      SVC_TRUSTED_PROXIES (comma-separated), SVC_MAX_CONNECTIONS_PER_PEER, SVC_MAX_CALLS_PER_PEER.
      Flags take precedence over the environment.
    `,
    examples: [
      ['Start on the default ports with the embedded store in ./data', '$0 serve'],
      ['Start on another port with a throwaway in-memory store', '$0 serve --port 9650 --storage memory'],
      ['Share the registry with other replicas in PostgreSQL', '$0 serve --storage postgres --database-url postgres://svc:secret@db:5432/svc'],
      ['Require API keys from a file', 'SVC_API_KEYS_FILE=/etc/svc/keys.json $0 serve --api-key-auth'],
      ['Count callers behind a proxy on 10.1.0.0/16 by the address it forwards for', '$0 serve --trusted-proxies 10.1.0.0/16'],
      ['Serve mutual TLS', '$0 serve --tls --cert server.pem --key server-key.pem --client-ca clients-ca.pem'],
    ],
  });

  port = Option.String('-p,--port', { description: `gRPC port (default ${DEFAULT_SERVER_CONFIG.port})` });
  metricsPort = Option.String('--metrics-port', { description: `Metrics port (default ${DEFAULT_SERVER_CONFIG.metricsPort})` });
  host = Option.String('--host', { description: `Address to bind (default ${DEFAULT_SERVER_CONFIG.host})` });
  storage = Option.String('--storage', { description: 'Storage backend: sqlite (default), memory, or postgres (shared by replicas)' });
  databaseUrl = Option.String('--database-url', { description: 'postgres:// URL of the shared registry database (with --storage postgres)' });
  dataDir = Option.String('--data-dir', { description: `Folder of the SQLite database (default ${DEFAULT_SERVER_CONFIG.dataDir})` });
  logLevel = Option.String('--log-level', { description: 'debug, info (default), warn or error; same as LOG_LEVEL' });
  tls = Option.Boolean('--tls', { description: 'Serve gRPC over TLS (needs --cert and --key)' });
  cert = Option.String('--cert', { description: 'PEM certificate chain of the server' });
  key = Option.String('--key', { description: 'PEM private key of the server' });
  clientCa = Option.String('--client-ca', { description: 'PEM CA bundle: require client certificates signed by it (mutual TLS)' });
  apiKeyAuth = Option.Boolean('--api-key-auth', { description: 'Require an API key on every call except health' });
  immutableVersions = Option.Boolean('--immutable-versions', { description: 'Refuse different content for a published version (identical content stays idempotent)' });
  allowUnknownEnvironments = Option.Boolean('--allow-unknown-environments', { description: 'Accept environments never created (creating them on first use)' });
  workerThreads = Option.String('--worker-threads', { description: 'Validation worker threads; 0 (default) = one per CPU core' });
  trustedProxies = Option.String('--trusted-proxies', { description: 'Comma-separated addresses and CIDR ranges of proxies whose x-forwarded-for names the caller' });
  recordingRetentionDays = Option.String('--recording-retention-days', { description: `Recorded usage not seen for this many days is removed (default ${DEFAULT_SERVER_CONFIG.recordingRetentionDays})` });
  recordingMaxUsageKeys = Option.String('--recording-max-usage-keys', { description: `Aggregate rows of recorded usage kept at most (default ${DEFAULT_SERVER_CONFIG.recordingMaxUsageKeys})` });
  maxCallsPerPeer = Option.String('--max-calls-per-peer', { description: `Calls in flight one client address may hold, all its connections together, trusted proxies excepted (default ${DEFAULT_SERVER_CONFIG.maxCallsPerPeer}; 0: no limit)` });
  maxConnectionsPerPeer = Option.String('--max-connections-per-peer', { description: `Open connections one client address may hold, trusted proxies excepted (default ${DEFAULT_SERVER_CONFIG.maxConnectionsPerPeer}, or a quarter of the open-file limit when lower; 0: no limit)` });

  protected override async run(): Promise<number> {
    // Signal handlers come first: the server logs that it listens before start() returns, and a
    // SIGTERM sent on that line must stop it gracefully, not end the process by default.
    let stopRequested = false;
    let requestStop = () => {
      stopRequested = true;
    };
    const onStopSignal = () => requestStop();
    process.on('SIGTERM', onStopSignal);
    process.on('SIGINT', onStopSignal);
    let server: SvcServer;
    try {
      // Loaded here, not at the top: every other command starts faster without the server's modules.
      const { SvcServer: Server } = await import('../../main/server');
      server = await Server.start({
        port: this.port === undefined ? undefined : parsePort('--port', this.port),
        metricsPort: this.metricsPort === undefined ? undefined : parsePort('--metrics-port', this.metricsPort, METRICS_DISABLED_PORT),
        host: this.host,
        storage: this.storage as StorageKind | undefined,
        dataDir: this.dataDir,
        databaseUrl: this.databaseUrl,
        logLevel: this.logLevel as LogLevel | undefined,
        tls: this.tls,
        tlsCertPath: this.cert,
        tlsKeyPath: this.key,
        tlsClientCaPath: this.clientCa,
        apiKeyAuth: this.apiKeyAuth,
        immutableVersions: this.immutableVersions,
        allowUnknownEnvironments: this.allowUnknownEnvironments,
        workerThreads: this.workerThreads === undefined ? undefined : parseCount('--worker-threads', this.workerThreads),
        recordingRetentionDays: this.recordingRetentionDays === undefined ? undefined : parseCount('--recording-retention-days', this.recordingRetentionDays),
        recordingMaxUsageKeys: this.recordingMaxUsageKeys === undefined ? undefined : parseCount('--recording-max-usage-keys', this.recordingMaxUsageKeys),
        trustedProxies: this.trustedProxies?.split(','),
        maxConnectionsPerPeer: this.maxConnectionsPerPeer === undefined ? undefined : parseCount('--max-connections-per-peer', this.maxConnectionsPerPeer),
        maxCallsPerPeer: this.maxCallsPerPeer === undefined ? undefined : parseCount('--max-calls-per-peer', this.maxCallsPerPeer),
      });
    } catch (error) {
      process.off('SIGTERM', onStopSignal);
      process.off('SIGINT', onStopSignal);
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    // SIGHUP re-reads the API keys; a server without key auth ignores it rather than dying (Node's default).
    const reload = () => {
      server.reloadApiKeys();
    };
    process.on('SIGHUP', reload);
    await new Promise<void>((resolve) => {
      requestStop = () => {
        process.off('SIGHUP', reload);
        // A second signal cuts the wait for calls in flight short; what is recorded and stored is still written.
        requestStop = () => server.hurry();
        void server.close().then(() => {
          process.off('SIGTERM', onStopSignal);
          process.off('SIGINT', onStopSignal);
          resolve();
        });
      };
      if (stopRequested) requestStop();
    });
    return 0;
  }
}

/** `--metrics-port -1`: no metrics server (as SVC_METRICS_PORT=-1). */
const METRICS_DISABLED_PORT = -1;

function parseCount(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a non-negative integer (got "${value}")`);
  return Number(value);
}

/** A port; `disabledBy` (-1 for the metrics port) turns the listener off. */
function parsePort(flag: string, value: string, disabledBy?: number): number {
  const port = Number(value);
  if (disabledBy !== undefined && port === disabledBy && value === String(disabledBy)) return port;
  if (!/^\d+$/.test(value) || port > 65535) {
    const off = disabledBy === undefined ? '' : `, or ${disabledBy} to turn it off`;
    throw new UsageError(`${flag} must be a port number from 0 to 65535${off} (got "${value}")`);
  }
  return port;
}
