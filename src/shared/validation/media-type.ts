/**
 * Media types of bodies: `application/json; charset=utf-8` is `application/json`; document keys may
 * be exact (`application/vnd.api+json`), suffix ranges (`application/*+json`, which ASP.NET's
 * generators write: any subtype with that suffix), ranges (`application/*`) or `*\/*`. Bodies are
 * parsed as JSON when their media type is JSON (`application/json`, any `+json` suffix).
 */

export interface MediaTypeTable<T> {
  exact: Map<string, T>;
  /** `type/*+suffix` ranges, by the `type/` prefix and the `+suffix`: `application/+json`. */
  suffixRanges: Map<string, T>;
  /** `type/*` ranges, by the `type/` prefix. */
  ranges: Map<string, T>;
  any: T | undefined;
  /** The document's keys, for "expected ..." in messages. */
  expected: string;
  /** Used when a body comes without a content type: the first exact JSON entry, else the first JSON suffix range. */
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
  const table: MediaTypeTable<T> = { exact: new Map(), suffixRanges: new Map(), ranges: new Map(), any: undefined, expected: '', defaultJson: undefined };
  const names: string[] = [];
  let jsonSuffixRange: T | undefined;
  for (const [key, value] of entries) {
    const mediaType = essence(key);
    names.push(mediaType);
    const suffixRange = suffixRangeParts(mediaType);
    if (mediaType === '*/*' || mediaType === '*') table.any ??= value;
    else if (suffixRange !== undefined) {
      const rangeKey = `${suffixRange.type}${suffixRange.suffix}`;
      if (!table.suffixRanges.has(rangeKey)) table.suffixRanges.set(rangeKey, value);
      if (suffixRange.suffix === '+json') jsonSuffixRange ??= value;
    } else if (mediaType.endsWith('/*')) {
      if (!table.ranges.has(mediaType.slice(0, -1))) table.ranges.set(mediaType.slice(0, -1), value);
    } else if (!table.exact.has(mediaType)) {
      table.exact.set(mediaType, value);
      if (table.defaultJson === undefined && isJsonMediaType(mediaType)) table.defaultJson = value;
    }
  }
  table.defaultJson ??= jsonSuffixRange;
  table.expected = names.join(', ');
  return table;
}

/** Whether a document key that is a range (`*\/*`, `type/*`, `type/*+suffix`) covers `mediaType` (both essences). */
export function rangeCovers(range: string, mediaType: string): boolean {
  if (range === '*/*' || range === '*') return true;
  const suffixRange = suffixRangeParts(range);
  if (suffixRange !== undefined) {
    const plus = mediaType.lastIndexOf('+');
    return mediaType.startsWith(suffixRange.type) && plus > suffixRange.type.length && mediaType.slice(plus) === suffixRange.suffix;
  }
  return range.endsWith('/*') && mediaType.startsWith(range.slice(0, -1));
}

/** A suffix range's parts: `application/*+json` → `application/` and `+json`; undefined for any other key. */
export function suffixRangeParts(range: string): { type: string; suffix: string } | undefined {
  const match = SUFFIX_RANGE.exec(range);
  return match === null ? undefined : { type: match[1]!, suffix: match[2]! };
}

const SUFFIX_RANGE = /^([^/]+\/)\*(\+[^/+*]+)$/;

/** Exact match first, then the `type/*+suffix` range, then the `type/*` range, then `*\/*`. */
export function lookupMediaType<T>(table: MediaTypeTable<T>, mediaType: string): T | undefined {
  const exact = table.exact.get(mediaType);
  if (exact !== undefined) return exact;
  const slash = mediaType.indexOf('/');
  if (slash > 0) {
    const type = mediaType.slice(0, slash + 1);
    const plus = mediaType.lastIndexOf('+');
    const suffixed = plus > slash + 1 ? table.suffixRanges.get(`${type}${mediaType.slice(plus)}`) : undefined;
    if (suffixed !== undefined) return suffixed;
    const range = table.ranges.get(type);
    if (range !== undefined) return range;
  }
  return table.any;
}
