/**
 * Path keys with a selector after `#`, as thousands of published descriptions write them (every
 * AWS query-protocol API in the APIs.guru directory): `/#Action=DescribeStacks`,
 * `/tags#resourceARN&tagKeys`, `/#X-Amz-Target=Service.Operation`. The part before `#` is the
 * path; each `&`-separated item names a parameter of the operation (query, or header when the
 * operation declares it as one), with or without the value that selects the operation. A URL
 * never carries a fragment to the server, so the key cannot mean anything else.
 *
 * Some descriptions write the selector as a query string instead (`/request/{id}?cmd=diff`): a
 * `?` ends a URL's path just as surely, so it is read the same way.
 */

export interface SelectorItem {
  /** Parameter name, as written (headers are matched without regard to case). */
  name: string;
  /** The value that selects the operation; undefined when presence alone selects it. */
  value: string | undefined;
}

export interface SplitPathKey {
  /** The path template before `#` or `?` (`/` for `/#Action=X`). */
  path: string;
  /** Empty for an ordinary path key. */
  selector: SelectorItem[];
}

/** Where a path key's selector starts: the first `#` or `?` (neither can be part of a URL path). */
const SELECTOR_START = /[#?]/;

export function splitQuerySelector(key: string): SplitPathKey {
  const start = key.search(SELECTOR_START);
  if (start < 0) return { path: key, selector: [] };
  const path = key.slice(0, start) || '/';
  const selector: SelectorItem[] = [];
  // `/a?x=1#y`: a second `#` or `?` separates items like `&`.
  for (const item of key.slice(start + 1).split(/[&#?]/)) {
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
