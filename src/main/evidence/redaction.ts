/**
 * Redaction of recorded interactions before anything is stored (docs/evidence.md): the value of
 * every key whose name matches the list is replaced, the structure is kept so that the shape and
 * the field paths stay true. The match ignores case and `-`/`_`, so `api_key`, `X-Api-Key` and
 * `apiKey` all match `apikey`.
 */
export const REDACTED_VALUE = '[REDACTED]';

/** Key names (normalised: lower case, no `-` or `_`) whose values never reach storage. */
export const DEFAULT_REDACTED_KEYS: readonly string[] = Object.freeze([
  'authorization', 'proxyauthorization', 'cookie', 'setcookie', 'password', 'passwd', 'token', 'accesstoken',
  'refreshtoken', 'idtoken', 'secret', 'clientsecret', 'apikey', 'xapikey',
]);

export function normaliseKey(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** True when the key is on the list or contains one of its words (`userPassword`, `x-auth-token`). */
export function isRedactedKey(name: string, keys: ReadonlySet<string>): boolean {
  const normalised = normaliseKey(name);
  if (keys.has(normalised)) return true;
  for (const key of keys) if (key.length >= 5 && normalised.includes(key)) return true;
  return false;
}

/** A copy of the JSON value with redacted keys' values replaced, at any depth. */
export function redactJson(value: unknown, keys: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => redactJson(item, keys));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    copy[name] = isRedactedKey(name, keys) ? REDACTED_VALUE : redactJson(child, keys);
  }
  return copy;
}

/** A body text redacted when it is JSON; any other text is dropped whole (it cannot be redacted safely). */
export function redactBody(body: string, keys: ReadonlySet<string>): string {
  if (body === '') return '';
  try {
    return JSON.stringify(redactJson(JSON.parse(body), keys));
  } catch {
    return '';
  }
}

export function redactHeaders(headers: Record<string, string>, keys: ReadonlySet<string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) copy[name] = isRedactedKey(name, keys) ? REDACTED_VALUE : value;
  return copy;
}
