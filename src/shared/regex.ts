/**
 * User-supplied regular expressions (OpenAPI `pattern`, `patternProperties`) run only through RE2,
 * whose matching time is linear in the input: `^(a+)+$` cannot backtrack for seconds. Patterns RE2
 * cannot compile (look-around, back-references) are refused at registration.
 */
import RE2 from 're2';

export type SafeRegExp = RE2;

/** Compiles with RE2 in Unicode mode, as AJV's `code.regExp` option expects; throws on unsupported syntax. */
export function compileSafeRegExp(pattern: string, flags = 'u'): SafeRegExp {
  return new RE2(pattern, flags.includes('u') ? flags : `${flags}u`);
}

/** The compile error as text, or undefined when RE2 accepts the pattern. */
export function unsafePatternReason(pattern: string): string | undefined {
  try {
    compileSafeRegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** AJV `code.regExp` factory (AJV calls it with `(pattern, flags)` and uses `.test`). */
export const ajvRegExp = Object.assign((pattern: string, flags: string) => compileSafeRegExp(pattern, flags), {
  code: 'require("re2")',
});
