/**
 * Redaction before a recorded interaction leaves the process: the value of every header, query
 * parameter or JSON key (at any depth) whose name matches the list is replaced, the structure is kept so that shapes and
 * field paths stay true. The same rules and default list as the server, which redacts again before
 * storing: the match ignores case and `-`/`_`, and catches names containing a listed word of five
 * letters or more (`userPassword`, `x-auth-token`).
 */
export const REDACTED_VALUE = '[REDACTED]';

/** Key names (normalised: lower case, no `-` or `_`) whose values are never sent. */
export const DEFAULT_REDACTED_KEYS: readonly string[] = Object.freeze([
  'authorization', 'proxyauthorization', 'cookie', 'setcookie', 'password', 'passwd', 'token', 'accesstoken',
  'refreshtoken', 'idtoken', 'secret', 'clientsecret', 'apikey', 'xapikey',
]);

/** Listed words at least this long also match inside longer names. */
const MIN_CONTAINED_KEY_LENGTH = 5;

export function normaliseKey(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Whether a name is on the list (normalised keys) or contains one of its words (`userPassword`, `x-auth-token`). */
export function matchesRedactedKey(name: string, keys: ReadonlySet<string>): boolean {
  const normalised = normaliseKey(name);
  if (keys.has(normalised)) return true;
  for (const key of keys) if (key.length >= MIN_CONTAINED_KEY_LENGTH && normalised.includes(key)) return true;
  return false;
}

export class Redactor {
  readonly #keys: ReadonlySet<string>;

  constructor(keys: readonly string[] = DEFAULT_REDACTED_KEYS) {
    this.#keys = new Set(keys.map(normaliseKey));
  }

  isRedacted(name: string): boolean {
    return matchesRedactedKey(name, this.#keys);
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const copy: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) copy[name] = this.isRedacted(name) ? REDACTED_VALUE : value;
    return copy;
  }

  /** A real path with the values of its redacted query parameters replaced; every other byte as written. */
  path(path: string): string {
    return redactQuery(path, (name) => this.isRedacted(name));
  }

  /** A JSON body text redacted; any other text is dropped whole (it cannot be redacted safely). */
  body(text: string): string {
    if (text === '') return '';
    try {
      return JSON.stringify(this.json(JSON.parse(text)));
    } catch {
      return '';
    }
  }

  json(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.json(item));
    if (value === null || typeof value !== 'object') return value;
    const copy: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      const redacted = this.isRedacted(name) ? REDACTED_VALUE : this.json(child);
      // A plain assignment to `__proto__` would set the copy's prototype and lose the field.
      if (name === '__proto__') Object.defineProperty(copy, name, { value: redacted, enumerable: true, writable: true, configurable: true });
      else copy[name] = redacted;
    }
    return copy;
  }
}

/**
 * A real path with the values of the query parameters `isRedacted` names replaced
 * (`?access_token=[REDACTED]`); every other byte stays as written, so the path routes and reads as
 * before. The server redacts paths with it too.
 */
export function redactQuery(path: string, isRedacted: (name: string) => boolean): string {
  const query = path.indexOf('?');
  if (query < 0) return path;
  const pairs = path.slice(query + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    return equals >= 0 && isRedacted(queryName(pair.slice(0, equals))) ? `${pair.slice(0, equals + 1)}${REDACTED_VALUE}` : pair;
  });
  return `${path.slice(0, query + 1)}${pairs.join('&')}`;
}

/** A query parameter's name as written: `+` is a space, escapes decoded when they are valid. */
function queryName(written: string): string {
  const spaced = written.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
