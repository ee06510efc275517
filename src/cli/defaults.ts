import { DEFAULT_CONSUMER_ENVIRONMENT } from '@svc/client/protocol';

/** Defaults of the command line fixed by the specification ("Command-line tool" and "Limits"). */
export const CLI_DEFAULTS = Object.freeze({
  /** Address of the svc server for client commands (`--server`). */
  server: 'localhost:9550',
  /** Port added to a `--server` value that names only a host. */
  grpcPort: 9550,
  /** Connection time-out of can-i-deploy, register-schema and register-consumer (`--timeout`). */
  connectionTimeoutSeconds: 30,
  /** How long `svc wait` waits for the server to become ready (`--timeout`). */
  waitTimeoutSeconds: 60,
  /** Pause between two readiness checks of `svc wait` (`--interval`). */
  waitIntervalSeconds: 2,
  /**
   * `svc wait` starts no check with less than this left before its time-out: such a check could
   * only end in its own deadline and would hide the reason the earlier checks failed.
   */
  waitMinCheckMs: 100,
  /** Environment of `register-consumer` when `--env` is not given (spec default of RegisterConsumer). */
  consumerEnvironment: DEFAULT_CONSUMER_ENVIRONMENT,
  /** Environment variable holding the API key when `--api-key` is not given. */
  apiKeyEnvVar: 'SVC_API_KEY',
  /** Environment variable holding the exit code for "could not answer" when `--unknown-exit-code` is not given. */
  unknownExitCodeEnvVar: 'SVC_UNKNOWN_EXIT_CODE',
});
