/**
 * Duplicate detection for `uniqueItems` in linear time: every item gets a canonical text (object
 * keys sorted) and one Map lookup. JSON equality: `{"a":1,"b":2}` equals `{"b":2,"a":1}`.
 */

/** Indices `[first, second]` of the first repeated item, or undefined. */
export function firstDuplicate(items: readonly unknown[]): [number, number] | undefined {
  if (items.length < 2) return undefined;
  const seen = new Map<unknown, number>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    // Numbers and booleans key the Map by value; strings and structures by tagged text.
    const key = typeof item === 'object' && item !== null ? `o${canonicalJson(item)}` : typeof item === 'string' ? `s${item}` : item;
    const first = seen.get(key);
    if (first !== undefined) return [first, i];
    seen.set(key, i);
  }
  return undefined;
}

function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
