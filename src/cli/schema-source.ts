/**
 * Schema arguments of the command line: a local file or an http(s) URL, JSON or YAML either way.
 * Only the command line reads from such places; the server never fetches anything a schema names.
 */
import { LIMITS, formatBytes } from '../shared/limits';
import { SvcError, invalidArgument, isSvcError, limitExceeded } from '../shared/errors';
import { loadSchema, type LoadedSchema } from '../shared/openapi/load-document';
import { readTextFile } from './input-files';

export interface SchemaSourceLimits {
  maxBytes: number;
  fetchTimeoutMs: number;
}

const DEFAULT_SOURCE_LIMITS: SchemaSourceLimits = {
  maxBytes: LIMITS.maxSchemaBytes,
  fetchTimeoutMs: LIMITS.cliSchemaFetchTimeoutMs,
};

/** The text of the schema at `location`, read as is (the server hashes exactly what it receives). */
export async function readSchemaText(location: string, limits: SchemaSourceLimits = DEFAULT_SOURCE_LIMITS): Promise<string> {
  const url = httpUrl(location);
  if (url) return fetchSchemaText(url, limits);
  return readTextFile(location, 'schema file', { maxBytes: limits.maxBytes, limitName: 'maxSchemaBytes' });
}

/** The checked OpenAPI document at `location`; messages name the location (compare reads two). */
export async function loadSchemaFrom(location: string): Promise<LoadedSchema> {
  const text = await readSchemaText(location);
  try {
    return await loadSchema(text);
  } catch (error) {
    if (isSvcError(error)) throw new SvcError(error.code, `${location}: ${error.message}`, { cause: error });
    throw error;
  }
}

export function isHttpUrl(location: string): boolean {
  return httpUrl(location) !== undefined;
}

function httpUrl(location: string): URL | undefined {
  if (!/^https?:\/\//i.test(location)) return undefined;
  try {
    return new URL(location);
  } catch {
    throw invalidArgument(`"${location}" is not a valid URL`);
  }
}

async function fetchSchemaText(url: URL, limits: SchemaSourceLimits): Promise<string> {
  const { fetchTimeoutMs: timeoutMs, maxBytes } = limits;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json, application/yaml, text/yaml;q=0.9, */*;q=0.5' },
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw invalidArgument(`cannot fetch schema ${url.href}: HTTP ${response.status} ${response.statusText}`.trim());
    }
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw tooLarge(url, declared, maxBytes);
    }
    return await readBodyText(response, url, maxBytes);
  } catch (error) {
    if (isSvcError(error)) throw error;
    if ((error as Error).name === 'TimeoutError') {
      throw invalidArgument(`cannot fetch schema ${url.href}: no complete answer within ${timeoutMs / 1000} s (cliSchemaFetchTimeoutMs)`);
    }
    throw invalidArgument(`cannot fetch schema ${url.href}: ${fetchFailureText(error)}`);
  }
}

/** Reads the body chunk by chunk so a server that lies about (or omits) its length cannot flood memory. */
async function readBodyText(response: Response, url: URL, maxBytes: number): Promise<string> {
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
      throw tooLarge(url, total, maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(url: URL, bytes: number, maxBytes: number): SvcError {
  return limitExceeded(
    `schema at ${url.href} is ${formatBytes(bytes)} or more, over the limit of ${formatBytes(maxBytes)} (maxSchemaBytes)`,
  );
}

/** undici reports "fetch failed" and keeps the reason (connect ECONNREFUSED, getaddrinfo ENOTFOUND...) in `cause`. */
function fetchFailureText(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message || cause?.code || (error as Error).message;
}
