/**
 * Query strings → values by name. A Map, so names such as `__proto__` are ordinary keys. Names are
 * decoded; values stay as written, since a value's items or pieces are decoded after it is split on
 * its style's separator (`names=Smith%2C%20J,Doe` holds two names): `decodeComponent` each piece.
 */

export type QueryValues = Map<string, string[]>;

export function parseQueryString(query: string): QueryValues {
  const values: QueryValues = new Map();
  if (query === '') return values;
  let start = 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      const pair = query.slice(start, end);
      const equals = pair.indexOf('=');
      const name = decodeComponent(equals < 0 ? pair : pair.slice(0, equals));
      const value = equals < 0 ? '' : pair.slice(equals + 1);
      if (name !== '') {
        const list = values.get(name);
        if (list === undefined) values.set(name, [value]);
        else list.push(value);
      }
    }
    start = end + 1;
  }
  return values;
}

/** Form decoding: '+' is a space; malformed percent-escapes are kept as written rather than failing the call. */
export function decodeComponent(text: string): string {
  return decodePercent(text.includes('+') ? text.replace(/\+/g, ' ') : text);
}

/** Percent-decoding alone ('+' stays: cookies and path pieces are not form-encoded); malformed escapes are kept as written. */
export function decodePercent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
