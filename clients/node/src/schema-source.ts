/**
 * Reads an OpenAPI document (JSON or YAML text) from a file path, a `file:` URL or an http(s) URL, for
 * the library and the svc command line alike. The text is sent as it is: the server parses it, and the
 * registered hash is the hash of these bytes. Failures are ContractValidatorErrors: INVALID_ARGUMENT
 * for a source that cannot be read, RESOURCE_EXHAUSTED for one over the size limit.
 */
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ContractValidatorError, invalidUse } from './client-error';
import { WIRE_LIMITS, formatBytes } from './protocol/wire-constants';

export interface SchemaSourceLimits {
  /** Largest document read; the server refuses larger ones anyway, so failing here saves the upload. */
  maxBytes: number;
  /** Longest wait for a document at an http(s) URL, connection and download together. */
  fetchTimeoutMs: number;
}

export const SCHEMA_SOURCE_DEFAULTS: SchemaSourceLimits = Object.freeze({
  maxBytes: WIRE_LIMITS.maxSchemaBytes,
  fetchTimeoutMs: 30_000, // 30 s
});

export async function readSchemaSource(source: string, limits: SchemaSourceLimits = SCHEMA_SOURCE_DEFAULTS): Promise<string> {
  if (typeof source !== 'string' || source === '') throw invalidUse('the schema must be a file path or an http(s) URL');
  const url = httpUrl(source);
  if (url) return fetchSchema(url, limits);
  return readSchemaFile(/^file:/i.test(source) ? fileURLToPath(source) : source, limits.maxBytes);
}

export function isHttpUrl(source: string): boolean {
  return httpUrl(source) !== undefined;
}

/**
 * A schema's location as messages and reports name it: a URL without its user name, password and
 * query values, which often carry tokens (`https://ci:token@…`, `?token=…`) that CI logs and
 * published reports would keep. Paths are named as given.
 */
export function shownSchemaLocation(source: string): string {
  if (!/^https?:\/\//i.test(source)) return source;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    return 'an http(s) URL that is not valid';
  }
  return shownUrl(url);
}

function shownUrl(url: URL): string {
  const shown = new URL(url.href);
  if (shown.username !== '' || shown.password !== '') {
    shown.username = '***';
    shown.password = '';
  }
  for (const key of new Set(shown.searchParams.keys())) shown.searchParams.set(key, '***');
  return shown.href;
}

async function readSchemaFile(file: string, maxBytes: number): Promise<string> {
  try {
    const stat = await fs.stat(file);
    if (stat.isDirectory()) throw invalidUse(`cannot read schema file "${file}": it is a folder`);
    if (stat.size > maxBytes) throw tooLarge(`schema file "${file}" is ${formatBytes(stat.size)}`, maxBytes);
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof ContractValidatorError) throw error;
    throw invalidUse(`cannot read schema file "${file}": ${systemErrorText(error as NodeJS.ErrnoException)}`, error);
  }
}

function httpUrl(source: string): URL | undefined {
  if (!/^https?:\/\//i.test(source)) return undefined;
  try {
    return new URL(source);
  } catch {
    throw invalidUse('the schema location starts with http(s):// but is not a valid URL');
  }
}

async function fetchSchema(url: URL, limits: SchemaSourceLimits): Promise<string> {
  const { fetchTimeoutMs: timeoutMs, maxBytes } = limits;
  const shown = shownUrl(url);
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json, application/yaml, text/yaml;q=0.9, */*;q=0.5' },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw invalidUse(`cannot fetch schema ${shown}: HTTP ${response.status} ${response.statusText}`.trim());
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(`schema at ${shown} is ${formatBytes(declared)} or more`, maxBytes);
    }
    return await readBodyText(response, shown, maxBytes);
  } catch (error) {
    if (error instanceof ContractValidatorError) throw error;
    if ((error as Error).name === 'TimeoutError') {
      throw invalidUse(`cannot fetch schema ${shown}: no complete answer within ${timeoutMs / 1000} s (fetchTimeoutMs)`, error);
    }
    // undici names the URL in some of its reasons (one with credentials it will not fetch).
    throw invalidUse(`cannot fetch schema ${shown}: ${fetchFailureText(error).split(url.href).join(shown)}`);
  }
}

/** Reads the body chunk by chunk so a server that lies about (or omits) its length cannot flood memory. */
async function readBodyText(response: Response, shown: string, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(`schema at ${shown} is ${formatBytes(total)} or more`, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(what: string, maxBytes: number): ContractValidatorError {
  return new ContractValidatorError('RESOURCE_EXHAUSTED', `${what}, over the limit of ${formatBytes(maxBytes)} (maxSchemaBytes)`);
}

function systemErrorText(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return error.message;
  }
}

/** undici reports "fetch failed" and keeps the reason (connect ECONNREFUSED, getaddrinfo ENOTFOUND...) in `cause`. */
function fetchFailureText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (error as Error).message;
}
