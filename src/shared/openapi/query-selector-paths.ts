/**
 * Path keys with a selector after `#`, as thousands of published descriptions write them (every
 * AWS query-protocol API in the APIs.guru directory): `/#Action=DescribeStacks`,
 * `/tags#resourceARN&tagKeys`, `/#X-Amz-Target=Service.Operation`. The part before `#` is the
 * path; each `&`-separated item names a parameter of the operation (query, or header when the
 * operation declares it as one), with or without the value that selects the operation. A URL
 * never carries a fragment to the server, so the key cannot mean anything else.
 */

export interface SelectorItem {
  /** Parameter name, as written (headers are matched without regard to case). */
  name: string;
  /** The value that selects the operation; undefined when presence alone selects it. */
  value: string | undefined;
}

export interface SplitPathKey {
  /** The path template before `#` (`/` for `/#Action=X`). */
  path: string;
  /** Empty for an ordinary path key. */
  selector: SelectorItem[];
}

export function splitQuerySelector(key: string): SplitPathKey {
  const hash = key.indexOf('#');
  if (hash < 0) return { path: key, selector: [] };
  const path = key.slice(0, hash) || '/';
  const selector: SelectorItem[] = [];
  for (const item of key.slice(hash + 1).split('&')) {
    if (item === '') continue;
    const equals = item.indexOf('=');
    const name = safeDecode(equals < 0 ? item : item.slice(0, equals));
    if (name === '') continue;
    selector.push({ name, value: equals < 0 ? undefined : safeDecode(item.slice(equals + 1)) });
  }
  return { path, selector };
}

function safeDecode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
