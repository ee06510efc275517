/**
 * Every `format` validation checks, in one registry the validator (ajv-instance.ts) and the fixture
 * generator's own conformance check both read, so a generated value passes exactly when validation
 * would pass it: ajv-formats' formats, OpenAPI's numeric ones, and these changes to ajv-formats.
 *
 * String formats on values of any length. ajv-formats checks most formats with regular expressions,
 * and V8's backtracking engine runs out of stack on long values (a 4.7 M-character `email`, an
 * 8.7 M-character `uri`): the value would get no verdict, or a wrong one. Here every such expression
 * runs through stackSafeCheck (regex.ts): on V8 first, on RE2 when V8 runs out of stack, so the
 * verdict is the expression's whatever the length. `byte` is checked in one pass instead.
 */
import { fullFormats } from 'ajv-formats/dist/formats';
import { stackSafeCheck, type StringCheck } from '../regex';

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
 * The expression of ajv-formats' `uri`, which its module keeps private (its check is this and a test
 * for `/` or `:`, which every match passes). test/unit/format-checks.test.ts fails when ajv-formats'
 * own expression differs from this copy.
 */
export const AJV_FORMATS_URI_EXPRESSION = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** ajv-formats' `url` userinfo, which tries every split of a text at each of its colons. */
const URL_USERINFO = String.raw`(?:\S+(?::\S*)?@)?`;

/** ajv-formats' `url` expression with its userinfo written `userinfo`; throws when ajv-formats' expression no longer has it. */
function urlExpressionWith(userinfo: string): RegExp {
  const expression = fullFormats.url as RegExp;
  if (!expression.source.includes(URL_USERINFO)) throw new Error(`ajv-formats' url expression has no userinfo ${URL_USERINFO}`);
  return new RegExp(expression.source.replace(URL_USERINFO, userinfo), expression.flags);
}

/**
 * ajv-formats' `url` check, in time linear in the text: its expression backtracked for a time
 * quadratic in the length (`http://` and 200,000 colons ran past the 10 s budget, and got no verdict).
 * The userinfo `(?:\S+(?::\S*)?@)?` is `(?:\S+@)?`, the same texts without the splits at colons. And
 * a text with white space can have it only in the host (which holds no `@`): its userinfo can end only
 * at the last `@` before the first space, so it is matched there once (a lookahead and a
 * backreference), not at each earlier `@` with the path read up to the space again each time.
 */
function urlCheck(): StringCheck {
  const anyUserinfo = urlExpressionWith(String.raw`(?:\S+@)?`);
  const lastUserinfo = urlExpressionWith(String.raw`(?:(?=(\S+@))\1)?`);
  const space = /\s/u;
  return (text) => (space.test(text) ? lastUserinfo : anyUserinfo).test(text);
}

/** ajv-formats' checks of the formats it defines by an expression, each made safe for long values. */
function stackSafeFormats(): Record<string, StringCheck> {
  const checks: Record<string, StringCheck> = {};
  for (const [name, definition] of Object.entries(fullFormats)) {
    if (definition instanceof RegExp) checks[name] = stackSafeCheck(`format "${name}"`, definition);
  }
  const uri = fullFormats.uri as StringCheck;
  checks.uri = stackSafeCheck('format "uri"', AJV_FORMATS_URI_EXPRESSION, uri);
  checks.url = stackSafeCheck('format "url"', fullFormats.url as RegExp, urlCheck());
  return checks;
}

/**
 * RFC 3339's own grammar (section 5.6), which OpenAPI's `date-time` and `time` name: a `T` between
 * date and time, and an offset of `Z` or `±hh:mm`. ajv-formats also takes a space or a tab for the
 * `T` and offsets written `+0530` or `+05`. Its checks still run after these for the ranges (month
 * lengths, leap seconds). Neither expression can backtrack: every part has one way to match.
 */
const RFC3339_TIME = String.raw`\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})`;
const RFC3339_DATE_TIME_SHAPE = new RegExp(String.raw`^\d{4}-\d{2}-\d{2}[Tt]${RFC3339_TIME}$`);
const RFC3339_TIME_SHAPE = new RegExp(`^${RFC3339_TIME}$`);
/** RFC 4122's string form; ajv-formats also takes it behind a `urn:uuid:` prefix, which is a URN of it, not it. */
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

function checkOf(name: 'date-time' | 'time'): StringCheck {
  const definition = fullFormats[name] as { validate: StringCheck };
  return definition.validate;
}

/** The formats whose ajv-formats check is laxer than the RFC that defines them. */
function rfcFormats(): Record<string, StringCheck> {
  const dateTime = checkOf('date-time');
  const time = checkOf('time');
  return {
    'date-time': (text) => RFC3339_DATE_TIME_SHAPE.test(text) && dateTime(text),
    time: (text) => RFC3339_TIME_SHAPE.test(text) && time(text),
    uuid: (text) => UUID.test(text),
  };
}

/** Formats replacing ajv-formats' own, each a check that answers for values of any length. */
export const LONG_VALUE_SAFE_FORMATS: Readonly<Record<string, StringCheck>> = Object.freeze({
  ...stackSafeFormats(),
  ...rfcFormats(),
  byte: isBase64,
});

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/**
 * int64's range as doubles: JSON numbers are parsed to doubles, which cannot tell 2^63 - 1 from 2^63,
 * so the bound admits 2^63 and refuses everything beyond it (1e20 was accepted as an int64).
 */
const INT64_BOUND = 2 ** 63;
/** The largest finite single-precision value: `format: float` is IEEE 754 binary32 (OpenAPI's format registry). */
const FLOAT_MAX = 3.4028234663852886e38;

/** One format's check, and the JSON type it applies to (a value of another type passes). */
export type FormatCheck =
  | { readonly type: 'string'; readonly validate: StringCheck }
  | { readonly type: 'number'; readonly validate: (value: number) => boolean };

/** OpenAPI's format registry: numbers by their bounds; `binary` and `password` say nothing checkable. */
const OPENAPI_FORMATS: ReadonlyArray<[string, FormatCheck]> = [
  ['int32', { type: 'number', validate: (n) => Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX }],
  ['int64', { type: 'number', validate: (n) => Number.isInteger(n) && n >= -INT64_BOUND && n <= INT64_BOUND }],
  ['float', { type: 'number', validate: (n) => Math.abs(n) <= FLOAT_MAX }],
  ['double', { type: 'number', validate: () => true }],
  ['binary', { type: 'string', validate: () => true }],
  ['password', { type: 'string', validate: () => true }],
];

/** ajv-formats' synchronous formats (full mode) as checks. */
function ajvFormatsChecks(): Array<[string, FormatCheck]> {
  const checks: Array<[string, FormatCheck]> = [];
  for (const [name, definition] of Object.entries(fullFormats)) {
    if (definition instanceof RegExp) checks.push([name, { type: 'string', validate: (text) => definition.test(text) }]);
    else if (typeof definition === 'function') checks.push([name, { type: 'string', validate: definition as StringCheck }]);
    else if (typeof definition === 'object' && !(definition as { async?: boolean }).async) {
      const { validate, type } = definition as { validate: RegExp | ((value: unknown) => boolean); type?: string };
      const test = validate instanceof RegExp ? (value: unknown) => validate.test(String(value)) : validate;
      checks.push([name, type === 'number' ? { type: 'number', validate: test } : { type: 'string', validate: test }]);
    }
  }
  return checks;
}

/** Every format validation checks, by name; a format not listed is ignored (OpenAPI formats are open-ended). */
export const FORMAT_CHECKS: ReadonlyMap<string, FormatCheck> = new Map([
  ...ajvFormatsChecks(),
  ...Object.entries(LONG_VALUE_SAFE_FORMATS).map(([name, validate]): [string, FormatCheck] => [name, { type: 'string', validate }]),
  ...OPENAPI_FORMATS,
]);

/** Whether `value` passes `format` as validation checks it; a value of another type, or an unknown format, passes. */
export function formatAccepts(format: string, value: string | number): boolean {
  const check = FORMAT_CHECKS.get(format);
  if (check === undefined) return true;
  if (check.type === 'number') return typeof value !== 'number' || check.validate(value);
  return typeof value !== 'string' || check.validate(value);
}
