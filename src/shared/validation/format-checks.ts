/**
 * String formats whose usual regular expressions overflow V8's backtracking stack on long values
 * (a 4.7 M-character `byte` string, an 8.7 M-character data `uri`): such a value would be reported
 * as invalid for a reason that has nothing to do with it. `byte` is checked in linear time here;
 * the URI formats keep ajv-formats' expressions and fall back to the WHATWG URL parser, which is
 * linear, when the expression runs out of stack.
 */
import { fullFormats } from 'ajv-formats/dist/formats';

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

/** The ajv-formats check of a URI format, falling back to the URL parser when its expression overflows. */
function uriCheck(format: 'uri' | 'uri-reference', fallback: StringCheck): StringCheck {
  const standard = fullFormats[format] as StringCheck | RegExp;
  const check: StringCheck = typeof standard === 'function' ? standard : (value) => standard.test(value);
  return (value) => {
    try {
      return check(value);
    } catch (error) {
      if (error instanceof RangeError) return fallback(value);
      throw error;
    }
  };
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Formats replacing ajv-formats' own, each a check that answers for values of any length. */
export const LONG_VALUE_SAFE_FORMATS = Object.freeze({
  byte: isBase64,
  uri: uriCheck('uri', (value) => SCHEME.test(value) && URL.canParse(value)),
  'uri-reference': uriCheck('uri-reference', (value) => URL.canParse(value, 'http://base.invalid/')),
});
