/**
 * Reads an OpenAPI document (JSON or YAML text) from a file path, a `file:` URL or an http(s) URL.
 * The text is sent as it is: the server parses it, and the registered hash is the hash of these bytes.
 */
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { LIMITS, formatBytes } from '../shared/limits';
import { invalidUse } from './client-error';

export async function readSchemaSource(source: string, fetchTimeoutMs: number): Promise<string> {
  if (typeof source !== 'string' || source === '') throw invalidUse('schemaPath must be a file path or an http(s) URL');
  if (/^https?:\/\//i.test(source)) return fetchSchema(source, fetchTimeoutMs);
  const file = /^file:/i.test(source) ? fileURLToPath(source) : source;
  let size: number;
  try {
    size = (await fs.stat(file)).size;
  } catch (error) {
    throw invalidUse(`cannot read schema file "${file}": ${(error as Error).message}`, error);
  }
  assertWithinLimit(source, size);
  return fs.readFile(file, 'utf8');
}

async function fetchSchema(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
  } catch (error) {
    throw invalidUse(`cannot fetch schema from ${url}: ${(error as Error).message}`, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw invalidUse(`cannot fetch schema from ${url}: HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared)) assertWithinLimit(url, declared);
  return readBounded(url, response);
}

/** Reads the body chunk by chunk so that an endless or oversized download stops at the limit. */
async function readBounded(url: string, response: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    assertWithinLimit(url, bytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The server refuses larger content anyway; failing here saves the upload. */
function assertWithinLimit(source: string, bytes: number): void {
  if (bytes > LIMITS.maxSchemaBytes) {
    throw invalidUse(`schema ${source} is ${formatBytes(bytes)}, over the ${formatBytes(LIMITS.maxSchemaBytes)} limit (maxSchemaBytes)`);
  }
}
