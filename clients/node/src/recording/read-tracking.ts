/**
 * Which response fields the consumer's code really reads: the parsed body is handed over behind a
 * Proxy that notes every own property read, as dot paths with `[]` for array items (`items[].id`,
 * `[].id` for a body that is an array), the same notation as the used fields gathered from what was
 * received. Reading `user.name` notes `user` and `user.name`. Reads through array methods (`map`,
 * `forEach`, iteration) go through the Proxy too; `JSON.stringify` or a spread reads everything.
 */
import { USED_FIELD_LIMITS } from '../consumer/used-fields';

export interface ReadTracker<T> {
  /** The value to hand to the consumer's code. */
  value: T;
  /** The field paths read so far (grows as the code reads). */
  readFields: ReadonlySet<string>;
}

/** Wraps `body`; reads are added to `readFields` (a new set by default). */
export function trackReads<T>(body: T, readFields: Set<string> = new Set()): ReadTracker<T> {
  const proxies = new WeakMap<object, unknown>();

  const wrap = (value: unknown, prefix: string, depth: number): unknown => {
    if (value === null || typeof value !== 'object' || depth >= USED_FIELD_LIMITS.maxDepth) return value;
    const known = proxies.get(value);
    if (known !== undefined) return known;
    const isArray = Array.isArray(value);
    const proxy = new Proxy(value, {
      get(target, property, receiver) {
        const child = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || !Object.prototype.hasOwnProperty.call(target, property)) return child;
        if (isArray) {
          if (!/^\d+$/.test(property)) return child; // `length`
          return wrap(child, `${prefix}[]`, depth + 1);
        }
        const path = prefix === '' ? property : `${prefix}.${property}`;
        if (readFields.size < USED_FIELD_LIMITS.maxFieldsPerEndpoint) readFields.add(path);
        return wrap(child, path, depth + 1);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };

  return { value: wrap(body, '', 0) as T, readFields };
}
