/**
 * Schema types as comparable tokens, and the spec's compatible widenings.
 *
 * A token is a JSON Schema type, refined by the width formats the spec names for numbers:
 * `integer:int32`, `integer:int64`, `number:float`, `number:double`; `null` stands for nullability.
 * Other formats (`date-time`, `uuid`...) are validation, not type, and are not part of a token.
 */
export type TypeToken = string;

const WIDTH_FORMATS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  integer: Object.freeze(['int32', 'int64']),
  number: Object.freeze(['float', 'double']),
});

/** Format changes within one base type that the spec lists as widenings. */
const FORMAT_WIDENINGS = new Set(['int32>int64', 'float>double']);

export function typeToken(type: string, format: unknown): TypeToken {
  const widths = WIDTH_FORMATS[type];
  return widths && typeof format === 'string' && widths.includes(format) ? `${type}:${format}` : type;
}

function baseOf(token: TypeToken): string {
  const colon = token.indexOf(':');
  return colon < 0 ? token : token.slice(0, colon);
}

function formatOf(token: TypeToken): string | undefined {
  const colon = token.indexOf(':');
  return colon < 0 ? undefined : token.slice(colon + 1);
}

/**
 * Whether a value typed `oldToken` in the old document stays acceptable under `newToken`:
 * the same type; integer to number; int32 to int64, integer or number; int64 to number; float to
 * double or number. A width format that appears or disappears on the same base type is a change
 * of validation, not of type (adding one tightens validation, removing one relaxes it).
 */
export function isCompatibleTypeChange(oldToken: TypeToken, newToken: TypeToken): boolean {
  if (oldToken === newToken) return true;
  const oldBase = baseOf(oldToken);
  const newBase = baseOf(newToken);
  if (oldBase === newBase) {
    const oldFormat = formatOf(oldToken);
    const newFormat = formatOf(newToken);
    return oldFormat === undefined || newFormat === undefined || FORMAT_WIDENINGS.has(`${oldFormat}>${newFormat}`);
  }
  return oldBase === 'integer' && newBase === 'number';
}

/**
 * Direction-aware type check over type sets (OpenAPI 3.1 type arrays, 3.0 `nullable`).
 * Request side (the client writes): every old type must still be accepted by a new one.
 * Response side (the client reads): every new type must be one the client already handled.
 * With one type on each side both reduce to the spec's rule: a change that is not a listed widening.
 */
export function typesCompatible(oldTypes: readonly TypeToken[], newTypes: readonly TypeToken[], direction: 'request' | 'response'): boolean {
  if (direction === 'request') {
    return oldTypes.every((oldToken) => newTypes.some((newToken) => isCompatibleTypeChange(oldToken, newToken)));
  }
  return newTypes.every((newToken) => oldTypes.some((oldToken) => isCompatibleTypeChange(oldToken, newToken)));
}

/** `integer (int64) | null` */
export function describeTypes(types: readonly TypeToken[]): string {
  return types.map((token) => (formatOf(token) ? `${baseOf(token)} (${formatOf(token)})` : token)).join(' | ');
}

/**
 * Intersection of two declared type sets (allOf members that both declare a type). Same base
 * type counts as shared; integer is shared with number (every integer is a number).
 */
export function intersectTypes(a: readonly TypeToken[], b: readonly TypeToken[]): TypeToken[] {
  const shared = a.filter((token) => b.some((other) => baseOf(other) === baseOf(token) || (baseOf(token) === 'integer' && baseOf(other) === 'number')));
  return shared.length > 0 ? shared : [...a];
}
