/**
 * Redaction before a recorded interaction leaves the process: the value of every header or JSON key
 * (at any depth) whose name matches the list is replaced, the structure is kept so that shapes and
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

export class Redactor {
  readonly #keys: ReadonlySet<string>;

  constructor(keys: readonly string[] = DEFAULT_REDACTED_KEYS) {
    this.#keys = new Set(keys.map(normaliseKey));
  }

  isRedacted(name: string): boolean {
    const normalised = normaliseKey(name);
    if (this.#keys.has(normalised)) return true;
    for (const key of this.#keys) if (key.length >= MIN_CONTAINED_KEY_LENGTH && normalised.includes(key)) return true;
    return false;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const copy: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) copy[name] = this.isRedacted(name) ? REDACTED_VALUE : value;
    return copy;
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
      copy[name] = this.isRedacted(name) ? REDACTED_VALUE : this.json(child);
    }
    return copy;
  }
}
