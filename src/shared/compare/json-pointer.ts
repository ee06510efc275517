/** JSON pointers as URI fragments (`#/paths/~1users/get`), the form `$ref` uses. */
import { escapePointerToken } from '../json';

export function childPointer(pointer: string, ...tokens: Array<string | number>): string {
  let result = pointer;
  for (const token of tokens) result += `/${needsEscape(token) ? escapePointerToken(token) : token}`;
  return result;
}

/** Most tokens (property names, indexes) have nothing to escape; skipping the replace is measurably faster. */
function needsEscape(token: string | number): boolean {
  return typeof token === 'string' && (token.includes('~') || token.includes('/'));
}

/** Canonical text of a JSON value (object keys sorted), to compare enum values by content. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
