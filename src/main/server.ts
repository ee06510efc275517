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
import { PROTO_LOADER_OPTIONS, SERVICE_NAME, contractValidatorDefinition, loadSvcProto } from '../shared/proto';
import type { ContractValidatorHandlers } from '../shared/generated/svc/ContractValidator';
import { resolveServerConfig, type ServerConfig } from './config';
import { createLogger, type Logger } from './logger';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { SchemaRegistry } from './registry/schema-registry';
import type { ServiceContext } from './service-context';
import { createSchemaHandlers } from './services/schemas';
import { openStorage } from './storage/open-storage';
import type { Storage } from './storage/storage';

export interface StartOptions extends Partial<ServerConfig> {
  /** A logger to use instead of one writing JSON lines to stdout. */
  logger?: Logger;
  /** Environment to read SVC_* variables from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

export class SvcServer {
  readonly config: ServerConfig;
  readonly context: ServiceContext;
  readonly #grpcServer: grpc.Server;
  readonly #health: HealthImplementation;
  readonly #metricsServer: MetricsServer | undefined;
  readonly #port: number;
  #closing: Promise<void> | undefined;

  private constructor(parts: {
    config: ServerConfig;
    context: ServiceContext;
    grpcServer: grpc.Server;
    health: HealthImplementation;
    metricsServer: MetricsServer | undefined;
    port: number;
  }) {
    this.config = parts.config;
    this.context = parts.context;
    this.#grpcServer = parts.grpcServer;
    this.#health = parts.health;
    this.#metricsServer = parts.metricsServer;
    this.#port = parts.port;
  }

  static async start(options: StartOptions = {}): Promise<SvcServer> {
    const { logger: givenLogger, env, ...overrides } = options;
    const config = resolveServerConfig(overrides, env);
    const logger = givenLogger ?? createLogger(config.logLevel);
    const metrics = new Metrics();
    const storage = openStorage(config.storage, config.dataDir);
    let metricsServer: MetricsServer | undefined;
    try {
      const schemas = await SchemaRegistry.open(storage);
      const context: ServiceContext = { config, logger, metrics, storage, schemas };

      const grpcServer = new grpc.Server({
        'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
        'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
      });
      grpcServer.addService(contractValidatorDefinition(), buildHandlers(context));
      const health = new HealthImplementation({ '': 'NOT_SERVING', [SERVICE_NAME]: 'NOT_SERVING' });
      health.addToServer(grpcServer);
      new ReflectionService(reflectionPackageDefinition()).addToServer(grpcServer);

      const port = await bind(grpcServer, config.host, config.port);
      if (config.metricsPort >= 0) {
        metricsServer = await MetricsServer.start(metrics, config.metricsHost, config.metricsPort, logger);
      }
      health.setStatus('', 'SERVING');
      health.setStatus(SERVICE_NAME, 'SERVING');
      logger.info(
        { caller: 'server', port, metricsPort: metricsServer?.port, storage: config.storage, dataDir: config.storage === 'sqlite' ? config.dataDir : undefined },
        'svc server listening',
      );
      return new SvcServer({ config, context, grpcServer, health, metricsServer, port });
    } catch (error) {
      await metricsServer?.close();
      await storage.close();
      throw error;
    }
  }

  /** The bound gRPC port (useful with port 0). */
  get port(): number {
    return this.#port;
  }

  get metricsPort(): number | undefined {
    return this.#metricsServer?.port;
  }

  get storage(): Storage {
    return this.context.storage;
  }

  /**
   * Graceful stop, idempotent: health turns NOT_SERVING, new calls are refused, in-flight calls
   * finish (cancelled after `shutdownGraceMs`), then metrics, workers and storage close.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const { logger, config } = this.context;
    this.#health.setStatus('', 'NOT_SERVING');
    this.#health.setStatus(SERVICE_NAME, 'NOT_SERVING');
    logger.info({ caller: 'server' }, 'svc server shutting down');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#grpcServer.forceShutdown();
        resolve();
      }, config.shutdownGraceMs);
      timer.unref();
      this.#grpcServer.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.#metricsServer?.close();
    await this.context.storage.close();
    logger.info({ caller: 'server' }, 'svc server stopped');
    logger.flush?.();
  }
}

/** Every operation of the proto, answered UNIMPLEMENTED unless an area's handlers provide it. */
function buildHandlers(context: ServiceContext): ContractValidatorHandlers {
  const provided: Partial<ContractValidatorHandlers> = {
    ...createSchemaHandlers(context),
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

function bind(server: grpc.Server, host: string, port: number): Promise<number> {
  const address = host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error, boundPort) => {
      if (error) reject(new Error(`cannot listen on ${address}: ${error.message}`));
      else resolve(boundPort);
    });
  });
}
