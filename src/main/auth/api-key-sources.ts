/**
 * Where API keys come from: `SVC_API_KEYS` (comma-separated keys) and `SVC_API_KEYS_FILE` (a JSON
 * array of `{ "name": ..., "key": ..., "expiresAt"?: ISO 8601 or Unix seconds, "scopes"?: [...],
 * "schemas"?: [id patterns], "team"?: ... }`; key-scopes.ts says what scopes allow). Keys are hashed
 * as soon as they are read; only names, digests, expiry times and access are kept.
 */
import { hash } from 'node:crypto';
import fs from 'node:fs';
import { LIMITS } from '../../shared/limits';
import { FULL_ACCESS, KEY_SCOPES, schemaIdPattern, type KeyAccess, type KeyScope } from './key-scopes';

export const API_KEY_ENV_VARS = Object.freeze({ list: 'SVC_API_KEYS', file: 'SVC_API_KEYS_FILE' });

export interface ApiKeyEntry {
  /** Shown in logs and audit lines in place of the key. */
  name: string;
  /** SHA-256 of the key's UTF-8 bytes, in base64 (the store's lookup key). */
  digest: string;
  /** Milliseconds since the epoch after which the key is refused; undefined: never. */
  expiresAtMs: number | undefined;
  /** What the key may do (FULL_ACCESS for a key without scopes). */
  access: KeyAccess;
  /** Shorter than LIMITS.apiKeyWarnBelowChars: accepted, and warned about by name. */
  short: boolean;
}

/** A key source that cannot be used; the message names the variable, the file and the entry. */
export class ApiKeyConfigError extends Error {
  override name = 'ApiKeyConfigError';
}

/** Header values must be visible ASCII; anything else could never arrive in gRPC metadata intact. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;
const NAME_SHAPE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function digestKey(key: string): string {
  // One-shot: a Hash object per key was most of a 10,000-key reload's hashing time.
  return hash('sha256', key, 'base64');
}

/** Every configured key, from the list variable and then the file; throws on any unusable entry. */
export function readApiKeys(env: NodeJS.ProcessEnv): ApiKeyEntry[] {
  // Keys of one team share their schema id patterns: each is compiled once per read.
  const compiledPatterns = new Map<string, RegExp>();
  const entries = [...keysFromList(env[API_KEY_ENV_VARS.list]), ...keysFromFile(env[API_KEY_ENV_VARS.file], compiledPatterns)];
  assertDistinct(entries);
  return entries;
}

function keysFromList(list: string | undefined): ApiKeyEntry[] {
  if (list === undefined || list.trim() === '') return [];
  return list.split(',').map((raw) => raw.trim()).filter((key) => key !== '').map((key, i) => {
    const where = `${API_KEY_ENV_VARS.list} key ${i + 1}`;
    checkKey(where, key);
    // Positional names: the list has no room for names (use the file to name keys).
    return { name: `env-${i + 1}`, digest: digestKey(key), expiresAtMs: undefined, access: FULL_ACCESS, short: isShort(key) };
  });
}

function keysFromFile(file: string | undefined, compiledPatterns: Map<string, RegExp>): ApiKeyEntry[] {
  if (file === undefined || file === '') return [];
  const where = `${API_KEY_ENV_VARS.file} ${file}`;
  let text: string;
  try {
    // A byte order mark (editors on Windows write one) is not JSON: JSON.parse refused the whole file.
    text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
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
  return parsed.map((item: unknown, i) => entryFromFile(`${where}: entry ${i + 1}`, item, compiledPatterns));
}

/** The fields of one keys-file entry. */
const ENTRY_FIELDS = Object.freeze(['name', 'key', 'expiresAt', 'scopes', 'schemas', 'team']);

function entryFromFile(where: string, item: unknown, compiledPatterns: Map<string, RegExp>): ApiKeyEntry {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new ApiKeyConfigError(`${where}: expected an object with "name", "key" and optional "expiresAt"`);
  }
  const { name, key, expiresAt, scopes, schemas, team, ...rest } = item as Record<string, unknown>;
  if (Object.keys(rest).length > 0) {
    // Never its name: a file laid out as {"<key>": "<name>"} would put the key there.
    throw new ApiKeyConfigError(`${where}: a field other than ${ENTRY_FIELDS.map((field) => `"${field}"`).join(', ')} (its name is not repeated: it may be a key)`);
  }
  if (typeof name !== 'string' || !NAME_SHAPE.test(name) || name.length > LIMITS.maxIdLength) {
    throw new ApiKeyConfigError(`${where}: "name" must be 1 to ${LIMITS.maxIdLength} visible ASCII characters`);
  }
  if (typeof key !== 'string') throw new ApiKeyConfigError(`${where} ("${name}"): "key" must be a string`);
  checkKey(`${where} ("${name}")`, key);
  const named = `${where} ("${name}")`;
  return { name, digest: digestKey(key), expiresAtMs: parseExpiry(named, expiresAt), access: parseAccess(named, scopes, schemas, team, compiledPatterns), short: isShort(key) };
}

/** Maximum schema id patterns of one key. */
const MAX_SCHEMA_PATTERNS = 100;

/**
 * No `scopes`: all access. `schemas` and `team` only narrow the `schemas` scope, so they need it.
 * `compiledPatterns`: the patterns of this read by text, shared by the keys that name them.
 */
function parseAccess(where: string, scopes: unknown, schemas: unknown, team: unknown, compiledPatterns: Map<string, RegExp>): KeyAccess {
  if (scopes === undefined) {
    if (schemas !== undefined || team !== undefined) throw new ApiKeyConfigError(`${where}: "schemas" and "team" narrow the "schemas" scope: give "scopes" too`);
    return FULL_ACCESS;
  }
  if (!Array.isArray(scopes) || scopes.some((scope) => !KEY_SCOPES.includes(scope as KeyScope))) {
    throw new ApiKeyConfigError(`${where}: "scopes" must be an array of ${KEY_SCOPES.map((scope) => `"${scope}"`).join(', ')}`);
  }
  const scopeSet = new Set(scopes as KeyScope[]);
  if ((schemas !== undefined || team !== undefined) && !scopeSet.has('schemas')) {
    throw new ApiKeyConfigError(`${where}: "schemas" and "team" narrow the "schemas" scope, which "scopes" does not give`);
  }
  let patterns: string[] | undefined;
  if (schemas !== undefined) {
    if (!Array.isArray(schemas) || schemas.length === 0 || schemas.length > MAX_SCHEMA_PATTERNS
      || schemas.some((pattern) => typeof pattern !== 'string' || !/^[A-Za-z0-9._*-]{1,128}$/.test(pattern))) {
      throw new ApiKeyConfigError(`${where}: "schemas" must be 1 to ${MAX_SCHEMA_PATTERNS} schema id patterns (letters, digits, '.', '_', '-' and '*' for any run of characters)`);
    }
    patterns = schemas as string[];
  }
  if (team !== undefined && (typeof team !== 'string' || team === '' || team.length > LIMITS.maxMetadataLength)) {
    throw new ApiKeyConfigError(`${where}: "team" must be a non-empty string of at most ${LIMITS.maxMetadataLength} characters`);
  }
  return Object.freeze({
    scopes: scopeSet,
    schemaPatterns: patterns?.map((text) => {
      let pattern = compiledPatterns.get(text);
      if (pattern === undefined) compiledPatterns.set(text, (pattern = schemaIdPattern(text)));
      return pattern;
    }),
    schemaPatternTexts: patterns,
    team: team as string | undefined,
  });
}

function isShort(key: string): boolean {
  return key.length < LIMITS.apiKeyWarnBelowChars;
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
    // The kind of value, never the value: a key pasted into the wrong field would be echoed.
    throw new ApiKeyConfigError(`${where}: "expiresAt" must be an ISO 8601 date-time or Unix seconds (got ${typeof value === 'string' ? 'text that is not a date-time' : `a ${Array.isArray(value) ? 'list' : typeof value}`})`);
  }
  return ms;
}

function assertDistinct(entries: ApiKeyEntry[]): void {
  const names = new Set<string>();
  const digests = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new ApiKeyConfigError(`API key name "${entry.name}" is used twice`);
    if (digests.has(entry.digest)) throw new ApiKeyConfigError(`API key "${entry.name}" repeats a key configured before it`);
    names.add(entry.name);
    digests.add(entry.digest);
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
