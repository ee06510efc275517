/**
 * Server configuration: one typed interface, one frozen defaults object, merged once from flags
 * and environment variables (flags win) and validated at start, with errors that name the option.
 */
import path from 'node:path';
import { STORAGE_KINDS, type StorageKind } from './storage/storage';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(['debug', 'info', 'warn', 'error']);

export interface ServerConfig {
  /** Address the gRPC server binds to. */
  host: string;
  /** gRPC port; 0 picks a free one (tests). */
  port: number;
  /** Address of the metrics HTTP server. */
  metricsHost: string;
  /** Metrics port; 0 picks a free one; -1 disables the metrics server. */
  metricsPort: number;
  storage: StorageKind;
  /** Folder of the SQLite database. */
  dataDir: string;
  logLevel: LogLevel;
  /** Longest wait for in-flight calls at shutdown before they are cancelled. */
  shutdownGraceMs: number;
}

export const DEFAULT_SERVER_CONFIG: Readonly<ServerConfig> = Object.freeze({
  host: '0.0.0.0',
  port: 9550,
  metricsHost: '0.0.0.0',
  metricsPort: 9551,
  storage: 'sqlite',
  dataDir: './data',
  logLevel: 'info',
  shutdownGraceMs: 10_000,
});

/** Environment variables read by the server, and the option each one sets. */
export const SERVER_ENV_VARS = Object.freeze({
  SVC_HOST: 'host',
  SVC_METRICS_HOST: 'metricsHost',
  SVC_PORT: 'port',
  SVC_METRICS_PORT: 'metricsPort',
  SVC_STORAGE: 'storage',
  SVC_DATA_DIR: 'dataDir',
  LOG_LEVEL: 'logLevel',
} as const);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Defaults, then environment, then explicit options; validated. */
export function resolveServerConfig(
  options: Partial<ServerConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
): ServerConfig {
  const fromEnv: Partial<Record<keyof ServerConfig, unknown>> = {};
  for (const [variable, key] of Object.entries(SERVER_ENV_VARS)) {
    const value = env[variable];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  const merged = { ...DEFAULT_SERVER_CONFIG, ...withoutUndefined(fromEnv), ...withoutUndefined(options) };
  return {
    host: requireText('host', merged.host),
    port: requirePort('port', merged.port, false),
    metricsHost: requireText('metricsHost', merged.metricsHost),
    metricsPort: requirePort('metricsPort', merged.metricsPort, true),
    storage: requireOneOf('storage', merged.storage, STORAGE_KINDS),
    dataDir: path.resolve(requireText('dataDir', merged.dataDir)),
    logLevel: requireOneOf('logLevel', String(merged.logLevel).toLowerCase(), LOG_LEVELS),
    shutdownGraceMs: requireNonNegativeInteger('shutdownGraceMs', merged.shutdownGraceMs),
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function requireText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${name} must be a non-empty string`);
  return value;
}

function requirePort(name: string, value: unknown, allowDisabled: boolean): number {
  const port = Number(value);
  const min = allowDisabled ? -1 : 0;
  if (!Number.isInteger(port) || port < min || port > 65535) {
    throw new ConfigError(`${name} must be an integer port from ${min} to 65535 (got "${String(value)}")`);
  }
  return port;
}

function requireNonNegativeInteger(name: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer (got "${String(value)}")`);
  return n;
}

function requireOneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${String(value)}")`);
  }
  return value as T;
}
