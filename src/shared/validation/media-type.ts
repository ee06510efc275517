/**
 * Media types of bodies: `application/json; charset=utf-8` is `application/json`; document keys may
 * be exact (`application/vnd.api+json`), ranges (`application/*`) or `*\/*`. Bodies are parsed as
 * JSON when their media type is JSON (`application/json`, any `+json` suffix).
 */

export interface MediaTypeTable<T> {
  exact: Map<string, T>;
  /** `type/*` ranges, by the `type/` prefix. */
  ranges: Map<string, T>;
  any: T | undefined;
  /** The document's keys, for "expected ..." in messages. */
  expected: string;
  /** Used when a body comes without a content type: the first JSON entry. */
  defaultJson: T | undefined;
}

/** `Application/JSON; charset=UTF-8` → `application/json`. */
export function essence(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType.endsWith('/json');
}

export function buildMediaTypeTable<T>(entries: ReadonlyArray<[key: string, value: T]>): MediaTypeTable<T> {
  const table: MediaTypeTable<T> = { exact: new Map(), ranges: new Map(), any: undefined, expected: '', defaultJson: undefined };
  const names: string[] = [];
  for (const [key, value] of entries) {
    const mediaType = essence(key);
    names.push(mediaType);
    if (mediaType === '*/*' || mediaType === '*') table.any ??= value;
    else if (mediaType.endsWith('/*')) {
      if (!table.ranges.has(mediaType.slice(0, -1))) table.ranges.set(mediaType.slice(0, -1), value);
    } else if (!table.exact.has(mediaType)) {
      table.exact.set(mediaType, value);
      if (table.defaultJson === undefined && isJsonMediaType(mediaType)) table.defaultJson = value;
    }
  }
  table.expected = names.join(', ');
  return table;
}

/** Exact match first, then the `type/*` range, then `*\/*`. */
export function lookupMediaType<T>(table: MediaTypeTable<T>, mediaType: string): T | undefined {
  const exact = table.exact.get(mediaType);
  if (exact !== undefined) return exact;
  if (table.ranges.size > 0) {
    const slash = mediaType.indexOf('/');
    const range = slash > 0 ? table.ranges.get(mediaType.slice(0, slash + 1)) : undefined;
    if (range !== undefined) return range;
  }
  return table.any;
}
