/**
 * Values filed by key for sharing within a thread, held weakly: an entry lasts as long as something
 * else holds its value, and goes once the value is collected, so sharing keeps nothing alive that
 * nothing uses. What shared-validators.ts and shared-routers.ts file their validators and routers in.
 */
export interface WeakFiling<V extends object> {
  /** The value filed under `key`, if something still holds it. */
  get(key: string): V | undefined;
  file(key: string, value: V): void;
  /** Removes `key` if `value` is what it holds (a later filing under the same key stays). */
  withdraw(key: string, value: V): void;
  /** Keys filed (some of their values may have been collected since). */
  readonly size: number;
}

export function createWeakFiling<V extends object>(): WeakFiling<V> {
  const entries = new Map<string, WeakRef<V>>();
  const collected = new FinalizationRegistry<string>((key) => {
    if (entries.get(key)?.deref() === undefined) entries.delete(key);
  });
  return {
    get: (key) => entries.get(key)?.deref(),
    file(key, value) {
      entries.set(key, new WeakRef(value));
      collected.register(value, key);
    },
    withdraw(key, value) {
      if (entries.get(key)?.deref() === value) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
