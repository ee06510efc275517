/** Header lookup by case-insensitive name, without building a lower-cased copy of the headers per call. */

/** `lowerName` must be lower case; the exact-case entry is tried first (the usual case on the wire). */
export function headerValue(headers: Record<string, string>, lowerName: string): string | undefined {
  const direct = headers[lowerName];
  if (typeof direct === 'string') return direct;
  for (const name in headers) {
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) {
      const value = headers[name];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}
