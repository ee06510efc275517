/**
 * A worker's cache of compiled contracts, keyed by schema content hash. The content behind a hash
 * never changes, so entries are never invalidated, only evicted: least recently used first when
 * the entry or byte budget is full, and any entry unused for `ttlMs` (an entry in steady use is
 * kept; recompiling a large schema on a timer would only stall calls). Dropping an entry drops the
 * contract's router, AJV instance and compiled validators with it.
 */
import { LIMITS } from '../shared/limits';

export interface ContractCacheOptions<V> {
  /** Entries kept (spec: schema cache capacity, MaxSchemas). */
  maxEntries: number;
  /** Sum of the entries' sizes kept, in bytes (the JSON size of their documents). */
  maxBytes: number;
  /** An entry unused this long is dropped (spec: schema cache time-to-live, SchemaTTL). */
  ttlMs: number;
  /** Clock in milliseconds; injectable for tests. */
  now: () => number;
  /** Called with every value that leaves the cache (evicted, expired or replaced), and its key, to release it. */
  onEvict: (value: V, key: string) => void;
}

export const DEFAULT_CONTRACT_CACHE_OPTIONS: Readonly<ContractCacheOptions<unknown>> = Object.freeze({
  maxEntries: LIMITS.contractCacheMaxEntries,
  maxBytes: LIMITS.contractCacheMaxBytesPerWorker,
  ttlMs: LIMITS.contractCacheTtlMs,
  now: () => Date.now(),
  onEvict: () => undefined,
});

interface Entry<V> {
  value: V;
  bytes: number;
  lastUsedMs: number;
}

export class ContractCache<V> {
  readonly #options: ContractCacheOptions<V>;
  /** Map order is recency order: the first entry is the least recently used. */
  readonly #entries = new Map<string, Entry<V>>();
  #bytes = 0;

  constructor(options: Partial<ContractCacheOptions<V>> = {}) {
    this.#options = { ...DEFAULT_CONTRACT_CACHE_OPTIONS, ...options };
    for (const name of ['maxEntries', 'maxBytes', 'ttlMs'] as const) {
      const value = this.#options[name];
      if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`options.${name} must be a positive integer`);
    }
  }

  /** The entry for `key`, which becomes the most recently used; undefined when absent or expired. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    const now = this.#options.now();
    if (now - entry.lastUsedMs > this.#options.ttlMs) {
      this.#delete(key, entry);
      return undefined;
    }
    entry.lastUsedMs = now;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Adds or replaces an entry, then evicts expired and least recently used entries to fit. */
  set(key: string, value: V, bytes: number): void {
    const existing = this.#entries.get(key);
    if (existing !== undefined) this.#delete(key, existing);
    const now = this.#options.now();
    this.#entries.set(key, { value, bytes, lastUsedMs: now });
    this.#bytes += bytes;
    this.#evict(now, key);
  }

  /**
   * Sets what the entry for `key` costs now (a contract grows as its operations compile), makes it
   * the most recently used, and evicts others to fit; nothing when absent.
   */
  reweigh(key: string, bytes: number): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#evict(this.#options.now(), key);
  }

  /** Whether `key` is held, without touching its recency or expiring it. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #evict(now: number, keep: string): void {
    const { maxEntries, maxBytes, ttlMs } = this.#options;
    for (const [key, entry] of this.#entries) {
      if (key === keep) break; // the newest entry stays even when it alone is over the byte budget
      const overBudget = this.#entries.size > maxEntries || this.#bytes > maxBytes;
      if (!overBudget && now - entry.lastUsedMs <= ttlMs) break;
      this.#delete(key, entry);
    }
  }

  #delete(key: string, entry: Entry<V>): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    this.#options.onEvict(entry.value, key);
  }
}
