/**
 * Server configuration: one typed interface, one frozen defaults object, merged once from flags
 * and environment variables (flags win) and validated at start, with errors that name the option.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../shared/limits';
import { DEFAULT_RECORDING_LIMITS, MS_PER_DAY } from './evidence/recording-limits';
import { STORAGE_KINDS, type StorageKind } from './storage/storage';
import { checkDatabaseUrl } from './storage/postgres/database-url';
import { trustedProxyProblem } from './auth/client-address';

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
  /** `postgres://` URL of the registry database shared by replicas (storage `postgres`); TLS parameters of the URL apply. */
  databaseUrl: string;
  logLevel: LogLevel;
  /** Longest wait for in-flight calls at shutdown before they are cancelled. */
  shutdownGraceMs: number;
  /**
   * A connection that has not started its HTTP/2 session this long after it opened is closed (it holds a
   * file descriptor); on the metrics port, one that has not sent a whole request's headers.
   */
  connectionPrefaceTimeoutMs: number;
  /** Open connections from one client address (trusted proxies excepted); 0 turns the limit off. */
  maxConnectionsPerPeer: number;
  /** Calls in flight from one client address, all its connections together (trusted proxies excepted); 0 turns the limit off. */
  maxCallsPerPeer: number;
  /** Validation worker threads (src/main/validation-pool.ts); 0 means one per available core. */
  workerThreads: number;
  /** Serve gRPC over TLS with `tlsCertPath` and `tlsKeyPath` (src/main/tls.ts). */
  tls: boolean;
  /** PEM certificate chain of the server. */
  tlsCertPath: string;
  /** PEM private key of the server. */
  tlsKeyPath: string;
  /** PEM CA bundle; when set, clients must present a certificate it signed (mutual TLS). */
  tlsClientCaPath: string;
  /** Require an API key on every call except health (src/main/auth/); keys from SVC_API_KEYS / SVC_API_KEYS_FILE. */
  apiKeyAuth: boolean;
  /** Refuse different content for a published version (identical content stays idempotent); docs/deploy-gate.md. */
  immutableVersions: boolean;
  /** Accept environments never created, creating them on first use (the behaviour before environments were known). */
  allowUnknownEnvironments: boolean;
  /** Recorded usage not seen for this many days is removed (docs/evidence.md). */
  recordingRetentionDays: number;
  /** Aggregate rows of recorded usage kept at most; interactions of new keys beyond it are dropped and counted. */
  recordingMaxUsageKeys: number;
  /**
   * Proxies (addresses and CIDR ranges) whose `x-forwarded-for` names the caller of calls without an
   * API key (src/main/auth/client-address.ts); from a flag or the environment, a comma-separated list.
   */
  trustedProxies: readonly string[];
}

export const DEFAULT_SERVER_CONFIG: Readonly<ServerConfig> = Object.freeze({
  host: '0.0.0.0',
  port: 9550,
  metricsHost: '0.0.0.0',
  metricsPort: 9551,
  storage: 'sqlite',
  dataDir: './data',
  databaseUrl: '',
  logLevel: 'info',
  shutdownGraceMs: 10_000,
  connectionPrefaceTimeoutMs: 10_000,
  maxConnectionsPerPeer: LIMITS.maxConnectionsPerPeer,
  maxCallsPerPeer: LIMITS.maxCallsPerPeer,
  workerThreads: 0,
  tls: false,
  tlsCertPath: '',
  tlsKeyPath: '',
  tlsClientCaPath: '',
  apiKeyAuth: false,
  immutableVersions: false,
  allowUnknownEnvironments: false,
  recordingRetentionDays: DEFAULT_RECORDING_LIMITS.retentionMs / MS_PER_DAY,
  recordingMaxUsageKeys: DEFAULT_RECORDING_LIMITS.maxUsageKeys,
  trustedProxies: Object.freeze([]),
});

/** Environment variables read by the server, and the option each one sets. */
export const SERVER_ENV_VARS = Object.freeze({
  SVC_HOST: 'host',
  SVC_METRICS_HOST: 'metricsHost',
  SVC_PORT: 'port',
  SVC_METRICS_PORT: 'metricsPort',
  SVC_STORAGE: 'storage',
  SVC_DATA_DIR: 'dataDir',
  SVC_DATABASE_URL: 'databaseUrl',
  LOG_LEVEL: 'logLevel',
  SVC_WORKER_THREADS: 'workerThreads',
  SVC_TLS: 'tls',
  SVC_TLS_CERT: 'tlsCertPath',
  SVC_TLS_KEY: 'tlsKeyPath',
  SVC_TLS_CLIENT_CA: 'tlsClientCaPath',
  SVC_API_KEY_AUTH: 'apiKeyAuth',
  SVC_IMMUTABLE_VERSIONS: 'immutableVersions',
  SVC_ALLOW_UNKNOWN_ENVIRONMENTS: 'allowUnknownEnvironments',
  SVC_RECORDING_RETENTION_DAYS: 'recordingRetentionDays',
  SVC_RECORDING_MAX_USAGE_KEYS: 'recordingMaxUsageKeys',
  SVC_TRUSTED_PROXIES: 'trustedProxies',
  SVC_MAX_CONNECTIONS_PER_PEER: 'maxConnectionsPerPeer',
  SVC_MAX_CALLS_PER_PEER: 'maxCallsPerPeer',
} as const);

/**
 * maxConnectionsPerPeer when neither a flag nor the environment sets it: the default, or a quarter of
 * the process's open-file limit when that is lower, so that one address cannot take every descriptor
 * under a low limit (256: 64 each). Read when a server's configuration is resolved, not when the CLI loads.
 */
function defaultConnectionsPerPeer(): number {
  const openFiles = openFileLimit();
  const byDefault = DEFAULT_SERVER_CONFIG.maxConnectionsPerPeer;
  return openFiles === undefined ? byDefault : Math.max(1, Math.min(byDefault, Math.floor(openFiles / 4)));
}

/** The process's soft limit on open files, where the system tells it (Linux); undefined when unlimited or unknown. */
function openFileLimit(): number | undefined {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

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
  if (fromEnv.maxConnectionsPerPeer === undefined && options.maxConnectionsPerPeer === undefined) merged.maxConnectionsPerPeer = defaultConnectionsPerPeer();
  const tls = requireBoolean('tls', merged.tls);
  const tlsFiles = {
    tlsCertPath: optionalPath(merged.tlsCertPath),
    tlsKeyPath: optionalPath(merged.tlsKeyPath),
    tlsClientCaPath: optionalPath(merged.tlsClientCaPath),
  };
  checkTlsOptions(tls, tlsFiles);
  const storage = requireOneOf('storage', merged.storage, STORAGE_KINDS);
  const databaseUrl = checkStorageOptions(storage, merged.databaseUrl);
  return {
    host: requireText('host', merged.host),
    port: requirePort('port', merged.port, false),
    metricsHost: requireText('metricsHost', merged.metricsHost),
    metricsPort: requirePort('metricsPort', merged.metricsPort, true),
    storage,
    dataDir: path.resolve(requireText('dataDir', merged.dataDir)),
    databaseUrl,
    logLevel: requireOneOf('logLevel', String(merged.logLevel).toLowerCase(), LOG_LEVELS),
    shutdownGraceMs: requireNonNegativeInteger('shutdownGraceMs', merged.shutdownGraceMs),
    connectionPrefaceTimeoutMs: requireNonNegativeInteger('connectionPrefaceTimeoutMs', merged.connectionPrefaceTimeoutMs),
    maxConnectionsPerPeer: requireNonNegativeInteger('maxConnectionsPerPeer', merged.maxConnectionsPerPeer),
    maxCallsPerPeer: requireNonNegativeInteger('maxCallsPerPeer', merged.maxCallsPerPeer),
    workerThreads: requireNonNegativeInteger('workerThreads', merged.workerThreads),
    tls,
    ...tlsFiles,
    apiKeyAuth: requireBoolean('apiKeyAuth', merged.apiKeyAuth),
    immutableVersions: requireBoolean('immutableVersions', merged.immutableVersions),
    allowUnknownEnvironments: requireBoolean('allowUnknownEnvironments', merged.allowUnknownEnvironments),
    recordingRetentionDays: requirePositiveInteger('recordingRetentionDays', merged.recordingRetentionDays),
    recordingMaxUsageKeys: requirePositiveInteger('recordingMaxUsageKeys', merged.recordingMaxUsageKeys),
    trustedProxies: checkTrustedProxies(merged.trustedProxies),
  };
}

/** A list or a comma-separated text of addresses and CIDR ranges, each checked. */
function checkTrustedProxies(value: unknown): readonly string[] {
  const entries = (Array.isArray(value) ? value.map(String) : String(value).split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const problem = trustedProxyProblem(entry);
    if (problem !== undefined) throw new ConfigError(problem);
  }
  return Object.freeze(entries);
}

/** TLS needs both halves of the server's identity; file options without `tls` are a mistake, not a hint. */
function checkTlsOptions(tls: boolean, files: Pick<ServerConfig, 'tlsCertPath' | 'tlsKeyPath' | 'tlsClientCaPath'>): void {
  if (tls && (files.tlsCertPath === '' || files.tlsKeyPath === '')) {
    throw new ConfigError('tls needs both a certificate and a private key (--cert and --key, or SVC_TLS_CERT and SVC_TLS_KEY)');
  }
  if (!tls) {
    const given = Object.entries(files).filter(([, value]) => value !== '').map(([name]) => name);
    if (given.length > 0) throw new ConfigError(`${given.join(', ')} given but tls is off: add --tls (or SVC_TLS=true)`);
  }
}

/** PostgreSQL needs its URL; a URL with another store is a mistake (the registry would not be shared), not a hint. */
function checkStorageOptions(storage: StorageKind, value: unknown): string {
  const databaseUrl = value === undefined ? '' : String(value);
  if (storage === 'postgres') {
    if (databaseUrl === '') throw new ConfigError('storage postgres needs databaseUrl (--database-url or SVC_DATABASE_URL, postgres://user:password@host:5432/database)');
    const problem = checkDatabaseUrl(databaseUrl);
    if (problem) throw new ConfigError(problem);
  } else if (databaseUrl !== '') {
    throw new ConfigError(`databaseUrl given but storage is ${storage}: add --storage postgres (or SVC_STORAGE=postgres)`);
  }
  return databaseUrl;
}

function optionalPath(value: unknown): string {
  if (value === undefined || value === '') return '';
  return path.resolve(requireText('path', value));
}

function requireBoolean(name: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(`${name} must be true or false (got "${String(value)}")`);
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

function requirePositiveInteger(name: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${name} must be a positive integer (got "${String(value)}")`);
  return n;
}

function requireOneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${String(value)}")`);
  }
  return value as T;
}
