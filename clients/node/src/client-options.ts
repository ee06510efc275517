/**
 * Options of `ContractValidator`: one typed interface, one frozen defaults object, validated once in
 * the constructor with errors that name the option.
 */
import { invalidUse } from './client-error';

export interface TlsOptions {
  /** Connect over TLS. Implied when a certificate path is given. */
  enabled?: boolean;
  /** CA certificate (PEM) that signed the server's certificate; default: the system roots. */
  rootCertPath?: string;
  /** Client certificate (PEM) for mutual TLS; needs `keyPath`. */
  certPath?: string;
  /** Client private key (PEM) for mutual TLS; needs `certPath`. */
  keyPath?: string;
  /** Host name to check the server certificate against when it differs from the address. */
  serverNameOverride?: string;
}

export interface ContractValidatorOptions {
  /** `host:port` of the svc server (any grpc-js target works, e.g. `dns:///svc:9550`). */
  address?: string;
  tls?: TlsOptions;
  /** Sent with every call as the `x-api-key` metadata entry. */
  apiKey?: string;
  /** Deadline of each call unless the call gives its own `deadlineMs`. */
  deadlineMs?: number;
  /** Bind the client to an already registered schema (registerSchema binds it too). */
  schemaId?: string;
  /** With `schemaId`: validate against this version instead of the latest. */
  schemaVersion?: string;
}

export const CLIENT_DEFAULTS = Object.freeze({
  address: 'localhost:9550',
  /** Spec: connection time-out default of the tools, 30 seconds. */
  deadlineMs: 30_000,
});

export interface ResolvedClientOptions {
  address: string;
  tls: Required<Pick<TlsOptions, 'enabled'>> & Omit<TlsOptions, 'enabled'>;
  apiKey: string | undefined;
  deadlineMs: number;
  schemaId: string | undefined;
  schemaVersion: string | undefined;
}

export function resolveClientOptions(input: string | ContractValidatorOptions | undefined): ResolvedClientOptions {
  const options: ContractValidatorOptions = typeof input === 'string' ? { address: input } : input ?? {};
  if (typeof options !== 'object') throw invalidUse('options must be an address string or an options object');
  const tls = options.tls ?? {};
  for (const key of ['rootCertPath', 'certPath', 'keyPath', 'serverNameOverride'] as const) {
    optionalText(`tls.${key}`, tls[key]);
  }
  const wantsTls = tls.rootCertPath !== undefined || tls.certPath !== undefined || tls.keyPath !== undefined;
  if (tls.enabled === false && wantsTls) throw invalidUse('tls.enabled is false but TLS certificate paths are given');
  if ((tls.certPath === undefined) !== (tls.keyPath === undefined)) {
    throw invalidUse('tls.certPath and tls.keyPath must be given together (mutual TLS)');
  }
  const schemaVersion = optionalText('schemaVersion', options.schemaVersion);
  const schemaId = optionalText('schemaId', options.schemaId);
  if (schemaVersion !== undefined && schemaId === undefined) throw invalidUse('schemaVersion needs schemaId');
  return {
    address: optionalText('address', options.address) ?? CLIENT_DEFAULTS.address,
    tls: { ...tls, enabled: tls.enabled ?? wantsTls },
    apiKey: optionalText('apiKey', options.apiKey),
    deadlineMs: positiveMs('options.deadlineMs', options.deadlineMs) ?? CLIENT_DEFAULTS.deadlineMs,
    schemaId,
    schemaVersion,
  };
}

function optionalText(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw invalidUse(`options.${name} must be a non-empty string`);
  return value;
}

/** A deadline in milliseconds: a positive finite number, or undefined. */
export function positiveMs(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidUse(`${name} must be a positive number of milliseconds (got ${String(value)})`);
  }
  return value;
}

/** A count or size: a positive integer, or undefined. */
export function positiveInteger(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) <= 0) throw invalidUse(`${name} must be a positive integer (got ${String(value)})`);
  return value as number;
}
