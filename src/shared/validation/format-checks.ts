/**
 * String formats on values of any length. ajv-formats checks most formats with regular expressions,
 * and V8's backtracking engine runs out of stack on long values (a 4.7 M-character `email`, an
 * 8.7 M-character `uri`): the value would get no verdict, or a wrong one. Here every such expression
 * runs on V8 first (fastest on ordinary values) and, when V8 runs out of stack, the same expression
 * runs on RE2, which matches in linear time without a stack, so the verdict is the expression's
 * whatever the length. An expression RE2 cannot run (look-around) that runs out of stack throws
 * LIMIT_EXCEEDED: the call fails with a clear error, never a verdict the value did not earn.
 * `byte` is checked in one pass instead.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { limitExceeded } from '../errors';
import { compileSafeRegExp, type SafeRegExp } from '../regex';

type StringCheck = (value: string) => boolean;

const BASE64_CHAR = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CHAR[char.charCodeAt(0)] = 1;

/** RFC 4648 base64 with padding, as OpenAPI's `byte` means it; one pass over the characters. */
export function isBase64(value: string): boolean {
  const length = value.length;
  if (length % 4 !== 0) return false;
  let padding = 0;
  if (length > 0 && value.charCodeAt(length - 1) === 0x3d /* = */) padding = value.charCodeAt(length - 2) === 0x3d ? 2 : 1;
  for (let i = 0; i < length - padding; i++) {
    const code = value.charCodeAt(i);
    if (code >= 128 || BASE64_CHAR[code] === 0) return false;
  }
  return true;
}

/**
 * RE2 folds the Kelvin sign and the long s onto `k` and `s` under the `i` flag; V8 without the `u`
 * flag does not (it never folds a character outside ASCII onto one inside). U+FFFF falls in exactly
 * the classes those two fall in for V8 (negated ones), so it stands in for them on RE2.
 */
const FOLDED_ONTO_ASCII_BY_RE2 = /[\u212a\u017f]/g;

/**
 * `expression` run by V8, and by RE2 when V8 runs out of stack. `check` is how ajv-formats applies
 * it (default: `test`); `name` says what is checked, for the error when RE2 cannot run it either.
 */
export function stackSafeCheck(name: string, expression: RegExp, check: StringCheck = (value) => expression.test(value)): StringCheck {
  let linear: SafeRegExp | null | undefined; // compiled on the first value that needs it
  const foldsLikeV8 = expression.flags.includes('i') && !expression.flags.includes('u');
  return (value) => {
    try {
      return check(value);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
    if (linear === undefined) {
      try {
        linear = compileSafeRegExp(expression.source, expression.flags.replace(/[gy]/g, ''));
      } catch {
        linear = null;
      }
    }
    if (linear === null) {
      throw limitExceeded(`a value of ${value.length} characters is too long to check against ${name}: its expression ran out of stack and RE2 cannot run it`);
    }
    return linear.test(foldsLikeV8 ? value.replace(FOLDED_ONTO_ASCII_BY_RE2, '\uffff') : value);
  };
}

/**
 * The expression of ajv-formats' `uri`, which its module keeps private (its check is this and a test
 * for `/` or `:`, which every match passes). test/unit/format-checks.test.ts fails when ajv-formats'
 * own expression differs from this copy.
 */
export const AJV_FORMATS_URI_EXPRESSION = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** ajv-formats' checks of the formats it defines by an expression, each made safe for long values. */
function stackSafeFormats(): Record<string, StringCheck> {
  const checks: Record<string, StringCheck> = {};
  for (const [name, definition] of Object.entries(fullFormats)) {
    if (definition instanceof RegExp) checks[name] = stackSafeCheck(`format "${name}"`, definition);
  }
  const uri = fullFormats.uri as StringCheck;
  checks.uri = stackSafeCheck('format "uri"', AJV_FORMATS_URI_EXPRESSION, uri);
  return checks;
}

/** Formats replacing ajv-formats' own, each a check that answers for values of any length. */
export const LONG_VALUE_SAFE_FORMATS: Readonly<Record<string, StringCheck>> = Object.freeze({
  ...stackSafeFormats(),
  byte: isBase64,
});
