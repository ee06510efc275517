/**
 * The base of the commands that talk to a server: the connection options every one of them takes
 * (`--server`, TLS, API key), read the same way the client library reads its options.
 */
import { Option, UsageError } from 'clipanion';
import { CLI_DEFAULTS } from './defaults';
import { ServerConnection, type ConnectionOptions, type TlsOptions } from './server-connection';
import { AnsweringCommand } from './answering-command';

export abstract class ClientCommand extends AnsweringCommand {
  server = Option.String('-S,--server', CLI_DEFAULTS.server, { description: `Server address, host:port (default ${CLI_DEFAULTS.server})` });
  tls = Option.Boolean('--tls', false, { description: 'Connect over TLS, verifying the server with the system CAs unless --ca is given' });
  ca = Option.String('--ca', { description: 'CA certificate (PEM) that signs the server certificate; implies --tls' });
  cert = Option.String('--cert', { description: 'Client certificate (PEM) for mutual TLS, with --key; implies --tls' });
  key = Option.String('--key', { description: 'Client private key (PEM) for mutual TLS, with --cert' });
  apiKey = Option.String('--api-key', {
    env: CLI_DEFAULTS.apiKeyEnvVar,
    description: `API key sent with every call (default: $${CLI_DEFAULTS.apiKeyEnvVar})`,
  });

  protected connectionOptions(timeoutSeconds: number): ConnectionOptions {
    return {
      address: this.server,
      timeoutMs: timeoutSeconds * 1000,
      tls: this.tlsOptions(),
      apiKey: this.apiKey || undefined,
    };
  }

  /** Runs `work` with a connection that is closed afterwards, whatever happens. */
  protected async withConnection<T>(timeoutSeconds: number, work: (connection: ServerConnection) => Promise<T>): Promise<T> {
    const connection = new ServerConnection(this.connectionOptions(timeoutSeconds));
    try {
      return await work(connection);
    } finally {
      connection.close();
    }
  }

  private tlsOptions(): TlsOptions | undefined {
    if ((this.cert === undefined) !== (this.key === undefined)) {
      throw new UsageError('--cert and --key go together (mutual TLS needs both)');
    }
    const enabled = this.tls || this.ca !== undefined || this.cert !== undefined;
    if (!enabled) return undefined;
    return { enabled, rootCertPath: this.ca, certPath: this.cert, keyPath: this.key };
  }
}

/** `-t,--timeout`: the deadline of each call, as every client command names it. */
export function connectionTimeoutOption() {
  return Option.String('-t,--timeout', String(CLI_DEFAULTS.connectionTimeoutSeconds), {
    description: `Connection time-out in seconds (default ${CLI_DEFAULTS.connectionTimeoutSeconds})`,
  });
}
