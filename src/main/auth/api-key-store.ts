/**
 * The API keys the server accepts, read at start and again on `reload()` (SIGHUP). A presented key
 * is hashed (SHA-256) and its digest looked up among the stored ones: the lookup's time can tell
 * only about digests, from which no key's bytes can be worked back. It used to compare the digest
 * with every stored one, on the main thread: with 10,000 keys, a flood of wrong keys held every
 * other call 0.3–0.4 s, and 4.9 s with 100,000.
 */
import { API_KEY_ENV_VARS, ApiKeyConfigError, digestKey, readApiKeys, type ApiKeyEntry } from './api-key-sources';
import { FULL_ACCESS, type KeyAccess } from './key-scopes';

export type KeyCheck =
  | { ok: true; name: string }
  | { ok: false; name: string | undefined; detail: 'unknown' | 'expired' };

/** The keys by digest and by name (readApiKeys refuses a key or a name configured twice). */
interface KeySet {
  entries: readonly ApiKeyEntry[];
  byDigest: ReadonlyMap<string, ApiKeyEntry>;
  byName: ReadonlyMap<string, ApiKeyEntry>;
}

export class ApiKeyStore {
  readonly #env: NodeJS.ProcessEnv;
  #keys: KeySet;

  private constructor(env: NodeJS.ProcessEnv, entries: readonly ApiKeyEntry[]) {
    this.#env = env;
    this.#keys = indexKeys(entries);
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
    this.#keys = indexKeys(requireSome(readApiKeys(this.#env)));
    return { names: this.names() };
  }

  names(): string[] {
    return this.#keys.entries.map((entry) => entry.name);
  }

  /** Names of keys shorter than LIMITS.apiKeyWarnBelowChars (accepted, but guessable). */
  shortNames(): string[] {
    return this.#keys.entries.filter((entry) => entry.short).map((entry) => entry.name);
  }

  /** Names of keys whose expiry has passed (they stay listed so a refusal can name them). */
  expiredNames(nowMs = Date.now()): string[] {
    return this.#keys.entries.filter((entry) => isExpired(entry, nowMs)).map((entry) => entry.name);
  }

  /** What the key of that name may do (key-scopes.ts); full access for a name not configured. */
  access(name: string): KeyAccess {
    return this.#keys.byName.get(name)?.access ?? FULL_ACCESS;
  }

  check(presented: string, nowMs = Date.now()): KeyCheck {
    return this.checkDigest(digestKey(presented), nowMs);
  }

  /** `check` of a key already hashed (digestKey): a call's key is checked again at each message of a stream. */
  checkDigest(digest: string, nowMs = Date.now()): KeyCheck {
    const match = this.#keys.byDigest.get(digest);
    if (match === undefined) return { ok: false, name: undefined, detail: 'unknown' };
    if (isExpired(match, nowMs)) return { ok: false, name: match.name, detail: 'expired' };
    return { ok: true, name: match.name };
  }
}

/**
 * Key names for a log or audit line: the first MAX_LISTED_KEY_NAMES, then how many more. A reload
 * with 100,000 keys wrote one audit line naming every one.
 */
export function listedKeyNames(names: readonly string[]): string[] {
  if (names.length <= MAX_LISTED_KEY_NAMES) return [...names];
  return [...names.slice(0, MAX_LISTED_KEY_NAMES), `… and ${names.length - MAX_LISTED_KEY_NAMES} more`];
}

const MAX_LISTED_KEY_NAMES = 50;

function indexKeys(entries: readonly ApiKeyEntry[]): KeySet {
  return {
    entries,
    byDigest: new Map(entries.map((entry) => [entry.digest, entry])),
    byName: new Map(entries.map((entry) => [entry.name, entry])),
  };
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
