/** Header lookup by case-insensitive name, without building a lower-cased copy of the headers per call. */

/**
 * The value of the header `lowerName` (lower case): the entries whose names match it in any case,
 * joined by `separator` in the order given, as HTTP combines the lines of one field (`Cookie` lines
 * are joined by "; "); an entry repeating the first adds nothing (a capture that wrote a header
 * under two spellings). Returning one match alone let `X-Rate: nope` beside `x-rate: 5` pass.
 */
export function headerValue(headers: Record<string, string>, lowerName: string, separator = ', '): string | undefined {
  let first: string | undefined;
  let joined: string | undefined;
  for (const name in headers) {
    if (!spells(name, lowerName)) continue;
    const value = headers[name];
    if (typeof value !== 'string') continue;
    if (first === undefined) first = joined = value;
    else if (value !== first) joined = `${joined}${separator}${value}`;
  }
  return joined;
}

/**
 * Each value of the header `lowerName` (lower case), one per spelling of its name, in the order
 * given. For `Set-Cookie`, whose lines HTTP never joins (RFC 9110 section 5.3): each line is one cookie.
 */
export function headerValues(headers: Record<string, string>, lowerName: string): string[] {
  const values: string[] = [];
  for (const name in headers) {
    if (!spells(name, lowerName)) continue;
    const value = headers[name];
    if (typeof value === 'string') values.push(value);
  }
  return values;
}

/** Whether the header name `name` is `lowerName` in some case (the length compared first: most names differ in it). */
function spells(name: string, lowerName: string): boolean {
  return name.length === lowerName.length && (name === lowerName || name.toLowerCase() === lowerName);
}
