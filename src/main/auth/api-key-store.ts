/**
 * The API keys the server accepts, read at start and again on `reload()` (SIGHUP). A presented key
 * is hashed once and compared with every stored digest by `timingSafeEqual`, without stopping at
 * the first match, so neither the key's bytes nor its position leak through response time.
 */
import { timingSafeEqual } from 'node:crypto';
import { API_KEY_ENV_VARS, ApiKeyConfigError, digestKey, readApiKeys, type ApiKeyEntry } from './api-key-sources';
import { FULL_ACCESS, type KeyAccess } from './key-scopes';

export type KeyCheck =
  | { ok: true; name: string }
  | { ok: false; name: string | undefined; detail: 'unknown' | 'expired' };

export class ApiKeyStore {
  readonly #env: NodeJS.ProcessEnv;
  #entries: readonly ApiKeyEntry[];

  private constructor(env: NodeJS.ProcessEnv, entries: readonly ApiKeyEntry[]) {
    this.#env = env;
    this.#entries = entries;
  }

  /** Reads the keys; no key at all is a start-up error, since every call would then be refused. */
  static load(env: NodeJS.ProcessEnv): ApiKeyStore {
    return new ApiKeyStore(env, requireSome(readApiKeys(env)));
  }

  /**
   * Reads the sources again and swaps the key set in one step. On any error (an unreadable or
   * half-written file, no keys left) the current keys stay in force and the error is thrown.
   */
  reload(): { names: string[] } {
    this.#entries = requireSome(readApiKeys(this.#env));
    return { names: this.names() };
  }

  names(): string[] {
    return this.#entries.map((entry) => entry.name);
  }

  /** Names of keys shorter than LIMITS.apiKeyWarnBelowChars (accepted, but guessable). */
  shortNames(): string[] {
    return this.#entries.filter((entry) => entry.short).map((entry) => entry.name);
  }

  /** Names of keys whose expiry has passed (they stay listed so a refusal can name them). */
  expiredNames(nowMs = Date.now()): string[] {
    return this.#entries.filter((entry) => isExpired(entry, nowMs)).map((entry) => entry.name);
  }

  /** What the key of that name may do (key-scopes.ts); full access for a name not configured. */
  access(name: string): KeyAccess {
    return this.#entries.find((entry) => entry.name === name)?.access ?? FULL_ACCESS;
  }

  check(presented: string, nowMs = Date.now()): KeyCheck {
    const digest = digestKey(presented);
    let match: ApiKeyEntry | undefined;
    for (const entry of this.#entries) {
      // No early exit: every digest is compared whatever matched before.
      if (timingSafeEqual(entry.digest, digest) && match === undefined) match = entry;
    }
    if (match === undefined) return { ok: false, name: undefined, detail: 'unknown' };
    if (isExpired(match, nowMs)) return { ok: false, name: match.name, detail: 'expired' };
    return { ok: true, name: match.name };
  }
}

function isExpired(entry: ApiKeyEntry, nowMs: number): boolean {
  return entry.expiresAtMs !== undefined && entry.expiresAtMs <= nowMs;
}

function requireSome(entries: ApiKeyEntry[]): ApiKeyEntry[] {
  if (entries.length === 0) {
    throw new ApiKeyConfigError(
      `API key authentication is on but no keys are configured: set ${API_KEY_ENV_VARS.list} (comma-separated keys) `
      + `or ${API_KEY_ENV_VARS.file} (a JSON array of {"name", "key", "expiresAt"?})`,
    );
  }
  return entries;
}
