/**
 * The svc server process: gRPC ContractValidator service, the standard health service and server
 * reflection on one port, Prometheus metrics on another. Owns storage, registries and (through
 * the services) the worker pool; `close()` drains in-flight calls and releases all of them.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { HealthImplementation, protoPath as healthProtoPath } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import { LIMITS } from '../shared/limits';
import { PROTO_LOADER_OPTIONS, SERVICE_NAME, contractValidatorDefinition, loadSvcProto } from '@svc/client/protocol';
import type { ContractValidatorHandlers } from '@svc/client/protocol';
import { createAuditRecorder } from './audit';
import { ApiKeyStore, listedKeyNames } from './auth/api-key-store';
import { createAuthInterceptor } from './auth/auth-interceptor';
import { isTrusted, trustedProxyList } from './auth/client-address';
import { resolveServerConfig, type ServerConfig } from './config';
import { routeGrpcJsLog } from './grpc-js-log';
import { createLogger, type Logger } from './logger';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { createCallObserver, type CallObserver } from './call-observer';
import { ConsumerRegistry } from './registry/consumer-registry';
import { DeploymentRegistry } from './registry/deployment-registry';
import { EnvironmentRegistry } from './registry/environment-registry';
import { SchemaRegistry } from './registry/schema-registry';
import type { ServiceContext } from './service-context';
import { createComparisons } from './compatibility/comparisons';
import { DocumentTaskPool } from './document-task-pool';
import { createCompatibilityHandlers } from './compatibility/compatibility-service';
import { createVersionComparisons } from './compatibility/version-comparisons';
import { createConsumerHandlers } from './services/consumers';
import { createDeploymentHandlers } from './services/deployments';
import { createCoverageHandlers } from './services/coverage';
import { createRecordingHandlers } from './services/recording';
import { UsageRegistry } from './evidence/usage-registry';
import { MS_PER_DAY } from './evidence/recording-limits';
import { createEnvironmentHandlers } from './services/environments';
import { createFixtureHandlers } from './services/fixtures';
import { createSchemaHandlers } from './services/schemas';
import { withMessageCodecs } from './message-codecs';
import { createValidationHandlers, registryContractLoader } from './services/validation';
import { ValidationPool, type ValidationPoolOptions } from './validation-pool';
import { openStorage } from './storage/open-storage';
import type { Storage } from './storage/storage';
import { serverCredentials, tlsMode } from './tls';
import { listenForGrpc, type GrpcListener } from './grpc-listener';
import { createStreamTurns } from './stream-turns';
import { rateLimited, withSuppressed } from './log-rate-limit';
import { DEFAULT_PARTIAL_MESSAGE_LIMITS, type PartialMessageLimits, type PartialMessageReset } from './partial-messages';
import { DEFAULT_UNSENT_ANSWER_LIMITS, type UnsentAnswerLimits, type UnsentAnswerReset } from './unsent-answers';

export interface StartOptions extends Partial<ServerConfig> {
  /** A logger to use instead of one writing JSON lines to stdout. */
  logger?: Logger;
  /** Environment to read SVC_* variables from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Limits on request messages not yet whole (default: the LIMITS values); embedding and tests only. */
  partialMessageLimits?: Partial<PartialMessageLimits>;
  unsentAnswerLimits?: Partial<UnsentAnswerLimits>;
  /** How the validation pool queues stream items and bounds a batch's time (default: DEFAULT_POOL_OPTIONS); embedding and tests only. */
  poolTuning?: Partial<Pick<ValidationPoolOptions, 'maxQueuedStreamItems' | 'minStreamItemsPerBatch' | 'maxRunMs'>>;
}

export class SvcServer {
  readonly config: ServerConfig;
  readonly context: ServiceContext;
  readonly #grpcServer: grpc.Server;
  readonly #health: HealthImplementation;
  readonly #metricsServer: MetricsServer | undefined;
  readonly #listener: GrpcListener;
  readonly #apiKeys: ApiKeyStore | undefined;
  readonly #calls: CallObserver;
  #closing: Promise<void> | undefined;
  /** While a graceful stop waits for calls in flight: ends them now (`hurry`). */
  #cutGraceShort: (() => void) | undefined;

  private constructor(parts: {
    config: ServerConfig;
    context: ServiceContext;
    grpcServer: grpc.Server;
    health: HealthImplementation;
    metricsServer: MetricsServer | undefined;
    listener: GrpcListener;
    apiKeys: ApiKeyStore | undefined;
    calls: CallObserver;
  }) {
    this.config = parts.config;
    this.context = parts.context;
    this.#grpcServer = parts.grpcServer;
    this.#health = parts.health;
    this.#metricsServer = parts.metricsServer;
    this.#listener = parts.listener;
    this.#apiKeys = parts.apiKeys;
    this.#calls = parts.calls;
  }

  static async start(options: StartOptions = {}): Promise<SvcServer> {
    const { logger: givenLogger, env, partialMessageLimits, unsentAnswerLimits, poolTuning, ...overrides } = options;
    const config = resolveServerConfig(overrides, env);
    const logger = givenLogger ?? createLogger(config.logLevel);
    routeGrpcJsLog(logger);
    const metrics = new Metrics();
    const trustedProxies = config.trustedProxies.length > 0 ? trustedProxyList(config.trustedProxies) : undefined;
    const audit = createAuditRecorder(logger, metrics, trustedProxies);
    const calls = createCallObserver(metrics, logger);
    // Keys and certificates are read before anything is opened: a bad file stops the start cleanly.
    const apiKeys = config.apiKeyAuth ? ApiKeyStore.load(env ?? process.env) : undefined;
    const credentials = serverCredentials(config);
    const storage = openStorage(config.storage, config.dataDir, { databaseUrl: config.databaseUrl, logger, metrics });
    let metricsServer: MetricsServer | undefined;
    let pool: ValidationPool | undefined;
    let documentTasks: DocumentTaskPool | undefined;
    let usage: UsageRegistry | undefined;
    let grpcServer: grpc.Server | undefined;
    let listener: GrpcListener | undefined;
    try {
      documentTasks = new DocumentTaskPool({ logger });
      const tasks = documentTasks;
      const schemas = await SchemaRegistry.open(storage, {
        immutableVersions: config.immutableVersions,
        logger,
        // Reading a registered text (tens of MB for the largest descriptions) happens off the main thread.
        intake: async (content, caller, gone) => (await tasks.run<'intake'>({ kind: 'intake', text: content }, caller, gone)).schema,
        // So are the operations ListEndpoints and RegisterConsumer list: the main thread never parses the document for them.
        listOperations: async (document, caller, gone) => (await tasks.run<'operations'>({ kind: 'operations', document }, caller, gone)).operations,
      });
      pool = new ValidationPool({ threads: config.workerThreads, loadContract: registryContractLoader(schemas), metrics, logger, ...poolTuning });
      await pool.start();
      const consumers = new ConsumerRegistry(storage, schemas);
      const environments = new EnvironmentRegistry(storage, { allowUnknown: config.allowUnknownEnvironments });
      const deployments = new DeploymentRegistry(storage, schemas, environments, consumers);
      const comparisons = createComparisons(documentTasks);
      const compareVersions = createVersionComparisons({ schemas, comparisons, metrics });
      usage = await UsageRegistry.open(storage, {
        logger,
        limits: { retentionMs: config.recordingRetentionDays * MS_PER_DAY, maxUsageKeys: config.recordingMaxUsageKeys },
      });
      const context: ServiceContext = {
        config, trustedProxies, logger, metrics, storage, schemas, consumers, environments, deployments, audit, pool, documentTasks, comparisons, compareVersions, usage,
        streamTurns: createStreamTurns(),
      };

      grpcServer = new grpc.Server({
        'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
        'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
        'grpc.max_concurrent_streams': LIMITS.maxConcurrentStreamsPerConnection,
        'grpc.max_connection_idle_ms': LIMITS.maxConnectionIdleMs,
        'grpc.keepalive_time_ms': LIMITS.keepaliveTimeMs,
        'grpc.keepalive_timeout_ms': LIMITS.keepaliveTimeoutMs,
        // The observer comes first: it must see the statuses grpc-js itself sends (see call-observer.ts).
        interceptors: [
          calls.interceptor,
          ...(apiKeys ? [createAuthInterceptor({ keys: apiKeys, metrics, audit, trustedProxies })] : []),
        ],
      });
      grpcServer.addService(withMessageCodecs(contractValidatorDefinition()), buildHandlers(context));
      const health = new HealthImplementation({ '': 'NOT_SERVING', [SERVICE_NAME]: 'NOT_SERVING' });
      health.addToServer(grpcServer);
      new ReflectionService(reflectionPackageDefinition()).addToServer(grpcServer);

      listener = await listenForGrpc(grpcServer, {
        host: config.host, port: config.port, credentials, prefaceTimeoutMs: config.connectionPrefaceTimeoutMs,
        maxConnectionsPerPeer: config.maxConnectionsPerPeer,
        unlimitedPeer: (address) => trustedProxies !== undefined && isTrusted(trustedProxies, address),
        onConnectionRefused: peerRefusalRecorder(metrics.peerConnectionsRefused, logger,
          (peer) => `connection refused (reset): ${peer} already has ${config.maxConnectionsPerPeer} open connections (maxConnectionsPerPeer)`),
        maxCallsPerPeer: config.maxCallsPerPeer,
        onCallRefused: peerRefusalRecorder(metrics.peerCallsRefused, logger,
          (peer) => `call refused (stream reset): ${peer} already has ${config.maxCallsPerPeer} calls in flight (maxCallsPerPeer)`),
        onPeerAtCallLimit: peerRefusalRecorder(metrics.peerCallLimitsReached, logger,
          (peer) => `calls held back: ${peer} has ${config.maxCallsPerPeer} calls in flight (maxCallsPerPeer); its connections may open no new call until it is down to three quarters of that`),
        partialMessages: { ...DEFAULT_PARTIAL_MESSAGE_LIMITS, ...partialMessageLimits },
        onPartialMessageReset: partialMessageResetRecorder(metrics, logger),
        unsentAnswers: { ...DEFAULT_UNSENT_ANSWER_LIMITS, ...unsentAnswerLimits },
        onUnsentAnswerReset: unsentAnswerResetRecorder(metrics, logger),
      });
      metrics.watchPartialMessageBytes(listener.partialMessageBytes);
      const port = listener.port;
      if (config.metricsPort >= 0) {
        metricsServer = await MetricsServer.start(metrics, config.metricsHost, config.metricsPort, logger, config.connectionPrefaceTimeoutMs);
      }
      health.setStatus('', 'SERVING');
      health.setStatus(SERVICE_NAME, 'SERVING');
      logger.info(
        {
          caller: 'server', port, metricsPort: metricsServer?.port, storage: config.storage,
          dataDir: config.storage === 'sqlite' ? config.dataDir : undefined,
          transport: tlsMode(config), apiKeyAuth: apiKeys ? { keys: listedKeyNames(apiKeys.names()), expired: listedKeyNames(apiKeys.expiredNames()) } : false,
          ...(config.trustedProxies.length > 0 ? { trustedProxies: config.trustedProxies } : {}),
          maxConnectionsPerPeer: config.maxConnectionsPerPeer,
          maxCallsPerPeer: config.maxCallsPerPeer,
        },
        'svc server listening',
      );
      if (apiKeys) warnShortKeys(logger, apiKeys);
      return new SvcServer({ config, context, grpcServer, health, metricsServer, listener, apiKeys, calls });
    } catch (error) {
      // grpc-js serves as soon as it is bound: a start that fails later must release the port too.
      await listener?.close();
      grpcServer?.forceShutdown();
      await metricsServer?.close();
      await Promise.all([pool?.close(), documentTasks?.close(), usage?.close()]);
      await storage.close();
      throw error;
    }
  }

  /** The bound gRPC port (useful with port 0). */
  get port(): number {
    return this.#listener.port;
  }

  get metricsPort(): number | undefined {
    return this.#metricsServer?.port;
  }

  get storage(): Storage {
    return this.context.storage;
  }

  /**
   * Reads the API keys again (SIGHUP). On success the new set is in force for the next call; on
   * failure the current keys stay and the error is logged. Both outcomes are audited.
   */
  reloadApiKeys(): { reloaded: boolean; error?: string } {
    const { logger, audit } = this.context;
    if (!this.#apiKeys) return { reloaded: false, error: 'API key authentication is off' };
    try {
      const { names } = this.#apiKeys.reload();
      audit('api_keys_reloaded', { outcome: 'success', keys: listedKeyNames(names).join(','), expired: listedKeyNames(this.#apiKeys.expiredNames()).join(',') });
      warnShortKeys(logger, this.#apiKeys);
      return { reloaded: true };
    } catch (error) {
      const message = (error as Error).message;
      logger.error({ caller: 'server' }, `API keys not reloaded, the previous keys stay in force: ${message}`);
      audit('api_keys_reloaded', { outcome: 'failure', error: message });
      return { reloaded: false, error: message };
    }
  }

  /** Calls of the ContractValidator service in flight now. */
  get callsInFlight(): number {
    return this.#calls.inFlight();
  }

  /**
   * Graceful stop, idempotent: health turns NOT_SERVING, new calls are refused, in-flight calls
   * finish (answered UNAVAILABLE after `shutdownGraceMs`), then metrics, workers and storage close.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /**
   * During a graceful stop (a second stop signal): the calls still in flight are answered UNAVAILABLE at once
   * instead of after `shutdownGraceMs`; the rest of the stop (flushes, the store) runs as usual.
   */
  hurry(): void {
    if (this.#cutGraceShort === undefined) return;
    this.context.logger.warn({ caller: 'server' }, 'stop asked again: calls in flight answered UNAVAILABLE now; recorded usage and the store are still written');
    this.#cutGraceShort();
  }

  async #shutdown(): Promise<void> {
    const { logger, config } = this.context;
    this.#health.setStatus('', 'NOT_SERVING');
    this.#health.setStatus(SERVICE_NAME, 'NOT_SERVING');
    logger.info({ caller: 'server' }, 'svc server shutting down');
    const stopListening = this.#listener.close();
    await new Promise<void>((resolve) => {
      let flushTimer: NodeJS.Timeout | undefined;
      // The calls still in flight are answered UNAVAILABLE; tryShutdown ends once their statuses
      // are sent, and connections whose clients take nothing are cut after shutdownStatusFlushMs.
      const endCalls = () => {
        clearTimeout(graceTimer);
        this.#cutGraceShort = undefined;
        const ended = this.#calls.endAtShutdown();
        if (ended > 0) logger.warn({ caller: 'server', calls: ended }, 'shutdown grace over: the calls still in flight were answered UNAVAILABLE');
        flushTimer = setTimeout(() => {
          this.#grpcServer.forceShutdown();
          resolve();
        }, LIMITS.shutdownStatusFlushMs);
      };
      const graceTimer = setTimeout(endCalls, config.shutdownGraceMs);
      graceTimer.unref();
      this.#cutGraceShort = endCalls;
      this.#grpcServer.tryShutdown(() => {
        clearTimeout(graceTimer);
        clearTimeout(flushTimer);
        this.#cutGraceShort = undefined;
        resolve();
      });
    });
    try {
      await stopListening;
      await this.#metricsServer?.close();
      await Promise.all([this.context.pool.close(), this.context.documentTasks.close(), this.context.usage.close()]);
    } finally {
      // The store closes whatever happened above: it holds the only durable state.
      await this.context.storage.close();
    }
    logger.info({ caller: 'server' }, 'svc server stopped');
    logger.flush?.();
  }
}

/** Every operation of the proto, answered UNIMPLEMENTED unless an area's handlers provide it. */
function buildHandlers(context: ServiceContext): ContractValidatorHandlers {
  const provided: Partial<ContractValidatorHandlers> = {
    ...createSchemaHandlers(context),
    ...createValidationHandlers(context),
    ...createCompatibilityHandlers(context),
    ...createConsumerHandlers(context),
    ...createFixtureHandlers(context),
    ...createEnvironmentHandlers(context),
    ...createDeploymentHandlers(context),
    ...createRecordingHandlers(context),
    ...createCoverageHandlers(context),
  };
  const handlers: Record<string, grpc.UntypedHandleCall> = {};
  for (const [name, definition] of Object.entries(contractValidatorDefinition())) {
    handlers[name] = (provided as Record<string, grpc.UntypedHandleCall>)[name] ?? unimplemented(name, definition);
  }
  return handlers as unknown as ContractValidatorHandlers;
}

function unimplemented(name: string, definition: grpc.MethodDefinition<unknown, unknown>): grpc.UntypedHandleCall {
  const error = { code: grpc.status.UNIMPLEMENTED, details: `${name} is not implemented by this server` };
  if (definition.requestStream || definition.responseStream) {
    return ((call: grpc.ServerWritableStream<unknown, unknown>) => call.emit('error', error)) as grpc.UntypedHandleCall;
  }
  return ((_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback(error, null)) as grpc.UntypedHandleCall;
}

function reflectionPackageDefinition(): protoLoader.PackageDefinition {
  const health = protoLoader.loadSync(healthProtoPath, PROTO_LOADER_OPTIONS);
  return { ...loadSvcProto().packageDefinition, ...health };
}


/** Counts every reset of a call whose message was arriving, and logs them at a bounded rate (a client can cause them at will). */
function partialMessageResetRecorder(metrics: Metrics, logger: Logger): (reset: PartialMessageReset) => void {
  const logReset = rateLimited(LIMITS.refusedCallLogLinesPerMinute, 60_000);
  return ({ reason, details, peer }) => {
    metrics.partialMessageResets.labels(reason).inc();
    logReset((suppressed) => logger.warn({ caller: 'server', reason, peer, suppressed }, `call reset while its request arrived: ${details}`));
  };
}

/** Counts every reset of a call whose answer its client did not take, and logs them at a bounded rate. */
function unsentAnswerResetRecorder(metrics: Metrics, logger: Logger): (reset: UnsentAnswerReset) => void {
  const logReset = rateLimited(LIMITS.refusedCallLogLinesPerMinute, 60_000);
  return ({ reason, details, peer }) => {
    metrics.unsentAnswerResets.labels(reason).inc();
    logReset((suppressed) => logger.warn(withSuppressed({ caller: 'server', reason, peer }, suppressed), `call reset while its answer waited for the client: ${details}`));
  };
}

/** Counts every connection or call refused for its client address's limit, and logs them at a bounded rate. */
function peerRefusalRecorder(counter: { inc(): void }, logger: Logger, describe: (peer: string) => string): (address: string) => void {
  const logRefusal = rateLimited(LIMITS.refusedCallLogLinesPerMinute, 60_000);
  return (peer) => {
    counter.inc();
    logRefusal((suppressed) => logger.warn(withSuppressed({ caller: 'server', peer }, suppressed), describe(peer)));
  };
}

/** One warning naming the keys short enough to guess (never their text): they are accepted, to be replaced. */
function warnShortKeys(logger: Logger, apiKeys: ApiKeyStore): void {
  const names = apiKeys.shortNames();
  if (names.length === 0) return;
  const listed = listedKeyNames(names);
  logger.warn(
    { caller: 'server', keys: listed },
    `${names.length === 1 ? 'an API key is' : `${names.length} API keys are`} shorter than ${LIMITS.apiKeyWarnBelowChars} characters and could be guessed; replace ${listed.join(', ')}`,
  );
}
