/**
 * Redaction of recorded interactions before anything is stored (docs/evidence.md): the value of
 * every header, query parameter and JSON key whose name matches the list is replaced, the structure
 * is kept so that the shape and the field paths stay true. The match ignores case and `-`/`_`, so
 * `api_key`, `X-Api-Key` and `apiKey` all match `apikey`; its rules and the default list are the
 * Node.js client's (@svc/client/redaction), as senders redact first and the server again.
 */
import { DEFAULT_REDACTED_KEYS, REDACTED_VALUE, matchesRedactedKey, redactQuery } from '@svc/client/redaction';

export { DEFAULT_REDACTED_KEYS, REDACTED_VALUE };

/** The keys the server redacts with, again after the sender (a sender may use a longer list). */
export const SERVER_REDACTED_KEYS: ReadonlySet<string> = new Set(DEFAULT_REDACTED_KEYS);

/**
 * Each list of keys decides a name once: a body repeats its key names (a list of 5,000 objects
 * names three keys 15,000 times), and deciding one costs a lower-casing, a replace and a scan of the
 * list. Looked up once per body or header set, not per key. Names come from callers' bodies: a full
 * memory starts again empty.
 */
const decidersByKeys = new WeakMap<ReadonlySet<string>, (name: string) => boolean>();
const MAX_REMEMBERED_KEY_NAMES = 10_000;

function deciderFor(keys: ReadonlySet<string>): (name: string) => boolean {
  let decide = decidersByKeys.get(keys);
  if (decide === undefined) {
    const decisions = new Map<string, boolean>();
    decide = (name) => {
      let redacted = decisions.get(name);
      if (redacted === undefined) {
        redacted = matchesRedactedKey(name, keys);
        if (decisions.size >= MAX_REMEMBERED_KEY_NAMES) decisions.clear();
        decisions.set(name, redacted);
      }
      return redacted;
    };
    decidersByKeys.set(keys, decide);
  }
  return decide;
}

/** True when the key is on the list or contains one of its words (`userPassword`, `x-auth-token`). */
export function isRedactedKey(name: string, keys: ReadonlySet<string>): boolean {
  return deciderFor(keys)(name);
}

/** A copy of the JSON value with redacted keys' values replaced, at any depth. */
export function redactJson(value: unknown, keys: ReadonlySet<string>): unknown {
  return redactWith(value, deciderFor(keys));
}

function redactWith(value: unknown, isRedacted: (name: string) => boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => redactWith(item, isRedacted));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    const redacted = isRedacted(name) ? REDACTED_VALUE : redactWith(child, isRedacted);
    // A plain assignment to `__proto__` would set the copy's prototype and lose the field.
    if (name === '__proto__') Object.defineProperty(copy, name, { value: redacted, enumerable: true, writable: true, configurable: true });
    else copy[name] = redacted;
  }
  return copy;
}

/** A body after redaction: its text, and the value that text holds (undefined for no body or one that is not JSON). */
export interface RedactedBody {
  text: string;
  value: unknown;
}

/**
 * A body redacted when it is JSON; any other text is dropped whole (it cannot be redacted safely).
 * The value comes with the text, so the field paths and the shape are read without parsing it again.
 */
export function redactBody(body: string, keys: ReadonlySet<string>): RedactedBody {
  if (body === '') return { text: '', value: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { text: '', value: undefined };
  }
  const value = redactJson(parsed, keys);
  return { text: JSON.stringify(value), value };
}

/** A real path with the values of its redacted query parameters replaced (`?access_token=[REDACTED]`). */
export function redactPath(path: string, keys: ReadonlySet<string>): string {
  return redactQuery(path, deciderFor(keys));
}

export function redactHeaders(headers: Record<string, string>, keys: ReadonlySet<string>): Record<string, string> {
  const isRedacted = deciderFor(keys);
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = isRedacted(name) ? REDACTED_VALUE : value;
  return copy;
}
