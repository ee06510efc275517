/**
 * Where API keys come from: `SVC_API_KEYS` (comma-separated keys) and `SVC_API_KEYS_FILE` (a JSON
 * array of `{ "name": ..., "key": ..., "expiresAt"?: ISO 8601 or Unix seconds }`). Keys are hashed
 * as soon as they are read; only names, digests and expiry times are kept.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { LIMITS } from '../../shared/limits';

export const API_KEY_ENV_VARS = Object.freeze({ list: 'SVC_API_KEYS', file: 'SVC_API_KEYS_FILE' });

export interface ApiKeyEntry {
  /** Shown in logs and audit lines in place of the key. */
  name: string;
  /** SHA-256 of the key's UTF-8 bytes. */
  digest: Buffer;
  /** Milliseconds since the epoch after which the key is refused; undefined: never. */
  expiresAtMs: number | undefined;
}

/** A key source that cannot be used; the message names the variable, the file and the entry. */
export class ApiKeyConfigError extends Error {
  override name = 'ApiKeyConfigError';
}

/** Header values must be visible ASCII; anything else could never arrive in gRPC metadata intact. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;
const NAME_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Every configured key, from the list variable and then the file; throws on any unusable entry. */
export function readApiKeys(env: NodeJS.ProcessEnv): ApiKeyEntry[] {
  const entries = [...keysFromList(env[API_KEY_ENV_VARS.list]), ...keysFromFile(env[API_KEY_ENV_VARS.file])];
  assertDistinct(entries);
  return entries;
}

function keysFromList(list: string | undefined): ApiKeyEntry[] {
  if (list === undefined || list.trim() === '') return [];
  return list.split(',').map((raw) => raw.trim()).filter((key) => key !== '').map((key, i) => {
    const where = `${API_KEY_ENV_VARS.list} key ${i + 1}`;
    checkKey(where, key);
    // Positional names: the list has no room for names (use the file to name keys).
    return { name: `env-${i + 1}`, digest: digestKey(key), expiresAtMs: undefined };
  });
}

function keysFromFile(file: string | undefined): ApiKeyEntry[] {
  if (file === undefined || file === '') return [];
  const where = `${API_KEY_ENV_VARS.file} ${file}`;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ApiKeyConfigError(`${where}: cannot read the file: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // The parser's message quotes the text around the fault, which may be part of a key: say where, never what.
    throw new ApiKeyConfigError(`${where}: not valid JSON (${jsonFaultLocation(text, error)})`);
  }
  if (!Array.isArray(parsed)) {
    throw new ApiKeyConfigError(`${where}: expected a JSON array of {"name", "key", "expiresAt"?} objects`);
  }
  return parsed.map((item: unknown, i) => entryFromFile(`${where}: entry ${i + 1}`, item));
}

function entryFromFile(where: string, item: unknown): ApiKeyEntry {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new ApiKeyConfigError(`${where}: expected an object with "name", "key" and optional "expiresAt"`);
  }
  const { name, key, expiresAt, ...rest } = item as Record<string, unknown>;
  const unknownFields = Object.keys(rest);
  if (unknownFields.length > 0) throw new ApiKeyConfigError(`${where}: unknown field "${unknownFields[0]}"`);
  if (typeof name !== 'string' || !NAME_SHAPE.test(name) || name.length > LIMITS.maxIdLength) {
    throw new ApiKeyConfigError(`${where}: "name" must be 1 to ${LIMITS.maxIdLength} visible ASCII characters`);
  }
  if (typeof key !== 'string') throw new ApiKeyConfigError(`${where} ("${name}"): "key" must be a string`);
  checkKey(`${where} ("${name}")`, key);
  return { name, digest: digestKey(key), expiresAtMs: parseExpiry(`${where} ("${name}")`, expiresAt) };
}

function checkKey(where: string, key: string): void {
  if (!KEY_SHAPE.test(key)) {
    throw new ApiKeyConfigError(`${where}: a key must be non-empty visible ASCII without spaces (it travels in gRPC metadata)`);
  }
}

/** ISO 8601 text (`2030-01-31T00:00:00Z`) or Unix seconds; null or absent means no expiry. */
function parseExpiry(where: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = typeof value === 'number' ? value * 1000 : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new ApiKeyConfigError(`${where}: "expiresAt" must be an ISO 8601 date-time or Unix seconds (got ${JSON.stringify(value)})`);
  }
  return ms;
}

function assertDistinct(entries: ApiKeyEntry[]): void {
  const names = new Set<string>();
  const digests = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new ApiKeyConfigError(`API key name "${entry.name}" is used twice`);
    const digest = entry.digest.toString('hex');
    if (digests.has(digest)) throw new ApiKeyConfigError(`API key "${entry.name}" repeats a key configured before it`);
    names.add(entry.name);
    digests.add(digest);
  }
}

/** `line 3, column 14` of a JSON.parse failure, from the position V8 reports; never any of the text. */
function jsonFaultLocation(text: string, error: unknown): string {
  const position = /position (\d+)/.exec((error as Error).message)?.[1];
  if (position === undefined) return 'the text ends early or holds an unexpected character';
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `unexpected character at line ${line}, column ${column}`;
}
