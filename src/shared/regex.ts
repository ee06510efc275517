/**
 * User-supplied regular expressions (OpenAPI `pattern`, `patternProperties`). OpenAPI patterns are
 * ECMA-262; RE2, whose matching time is linear in the input (`^(a+)+$` cannot backtrack for
 * seconds), runs every pattern it can compile. A pattern RE2 cannot run (look-around,
 * back-references, counted repeats above its limit of 1,000) runs in the JavaScript engine only
 * when the ReDoS analyser proves it safe (redos-analysis.ts); otherwise it is not enforced, and
 * intake reports that with a warning. A pattern never refuses a document. Expressions run on the
 * JavaScript engine (those patterns, and the format checks) go through stackSafeCheck, so a long
 * text never gets a verdict from a backtracking stack that ran out.
 */
import RE2 from 're2';
import { limitExceeded } from './errors';
import { analyseRedos } from './redos-analysis';

export type SafeRegExp = RE2;

/** Compiles with RE2 in Unicode mode, as AJV's `code.regExp` option expects; throws on unsupported syntax. */
export function compileSafeRegExp(pattern: string, flags = 'u'): SafeRegExp {
  return new RE2(pattern, flags.includes('u') ? flags : `${flags}u`);
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** ECMA-262's WhiteSpace and LineTerminator characters: what its `\s` matches (RE2's is `[\t\n\f\r ]`). */
const ECMA_WHITE_SPACE = '\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** ECMA-262's `.` without the `s` flag: anything but a line terminator (RE2's excludes `\n` alone). */
const ECMA_DOT = '[^\n\r\u2028\u2029]';
/** ECMA-262's empty class `[]` matches nothing, and `[^]` anything; RE2 reads a `]` there as a member. */
const ECMA_EMPTY_CLASS = '[^\u{0}-\u{10ffff}]';
const ECMA_ANY_CHARACTER = '[\u{0}-\u{10ffff}]';

/**
 * The pattern with `\s`, `\S` and `.` written out as ECMA-262 reads them, so that RE2 runs it with
 * OpenAPI's meaning: `^\S+$` refuses a no-break space, `^.+$` a carriage return. Undefined where
 * RE2 cannot say it (`\S` in a negated class: whitespace but some of it); the JavaScript engine's
 * plan takes such a pattern. A pattern RE2 cannot read is returned as it is, for RE2 to refuse.
 */
export function withEcmaClasses(pattern: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1];
      out += next === 's' ? `[${ECMA_WHITE_SPACE}]` : next === 'S' ? `[^${ECMA_WHITE_SPACE}]` : pattern.slice(i, i + 2);
      i += 2;
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      if (end === undefined) return pattern;
      const written = ecmaClass(pattern.slice(i, end + 1));
      if (written === undefined) return undefined;
      out += written;
      i = end + 1;
    } else {
      out += char === '.' ? ECMA_DOT : char;
      i++;
    }
  }
  return out;
}

/** Where the class opened at `start` closes (ECMA-262: a `]` right after `[` or `[^` closes it). */
function classEnd(pattern: string, start: number): number | undefined {
  let i = pattern[start + 1] === '^' ? start + 2 : start + 1;
  while (i < pattern.length) {
    if (pattern[i] === '\\') i += 2;
    else if (pattern[i] === ']') return i;
    else i++;
  }
  return undefined;
}

/** One class (`[...]`, brackets included) as RE2 reads it with ECMA-262's meaning. */
function ecmaClass(written: string): string | undefined {
  const negated = written[1] === '^';
  const body = written.slice(negated ? 2 : 1, -1);
  if (body === '') return negated ? ECMA_ANY_CHARACTER : ECMA_EMPTY_CLASS;
  let members = '';
  let notWhiteSpace = false;
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      members += body[i];
      continue;
    }
    const next = body[++i];
    if (next === 's') members += ECMA_WHITE_SPACE;
    else if (next === 'S') notWhiteSpace = true;
    else members += `\\${next ?? ''}`;
  }
  if (!notWhiteSpace) return `[${negated ? '^' : ''}${members}]`;
  if (negated) return undefined;
  return members === '' ? `[^${ECMA_WHITE_SPACE}]` : `(?:[^${ECMA_WHITE_SPACE}]|[${members}])`;
}

/** Something that tells whether a text holds a match (all AJV and the engines use). */
export interface PatternMatcher {
  test(text: string): boolean;
  /** Distinct per pattern: AJV files a document's matchers under it. */
  toString(): string;
}

/**
 * How one pattern is run: by RE2; by the JavaScript engine, proven free of super-linear
 * backtracking; or not at all (`reason` says why: the analyser could not prove it safe, or no
 * engine reads its syntax).
 */
export type PatternPlan =
  | { readonly engine: 're2'; readonly matcher: PatternMatcher }
  | { readonly engine: 'ecma'; readonly matcher: PatternMatcher }
  | { readonly engine: 'none'; readonly reason: string };

/** Plans kept per process; a document rarely has more than a few hundred distinct patterns. */
const MAX_CACHED_PLANS = 4_096;
const plans = new Map<string, PatternPlan>();

/** The plan for a pattern; the same pattern always gets the same plan (the analysis is deterministic). */
export function planPattern(pattern: string): PatternPlan {
  let plan = plans.get(pattern);
  if (plan === undefined) {
    plan = choosePlan(pattern);
    if (plans.size >= MAX_CACHED_PLANS) plans.clear();
    plans.set(pattern, plan);
  }
  return plan;
}

function choosePlan(pattern: string): PatternPlan {
  let re2Reason = 'a \\S in a negated class has no RE2 equivalent';
  const re2Source = withEcmaClasses(pattern);
  if (re2Source !== undefined) {
    try {
      return { engine: 're2', matcher: compileSafeRegExp(re2Source) };
    } catch (error) {
      re2Reason = error instanceof Error ? error.message : String(error);
    }
  }
  const ecma = compileEcma(pattern);
  if (ecma === undefined) {
    return { engine: 'none', reason: `not a valid ECMA-262 regular expression (RE2: ${re2Reason})` };
  }
  const verdict = analyseRedos(ecma.source, ecma.flags);
  // Proven linear in time, it can still run out of stack on a long text.
  if (verdict.status === 'safe') return { engine: 'ecma', matcher: { test: stackSafeCheck(`pattern ${JSON.stringify(pattern)}`, ecma), toString: () => String(ecma) } };
  return {
    engine: 'none',
    reason: verdict.status === 'vulnerable'
      ? `RE2 cannot run it (${re2Reason}) and it can backtrack super-linearly (${verdict.detail})`
      : `RE2 cannot run it (${re2Reason}) and it could not be proven free of super-linear backtracking (${verdict.detail})`,
  };
}

/** Unicode mode first (what AJV uses); Annex B syntax (`\-`, `[\w-.]`) for patterns only it reads. */
function compileEcma(pattern: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try the next mode
    }
  }
  return undefined;
}

export type StringCheck = (text: string) => boolean;

/**
 * RE2 folds the Kelvin sign and the long s onto `k` and `s` under the `i` flag; V8 without the `u`
 * flag does not (it never folds a character outside ASCII onto one inside). U+FFFF falls in exactly
 * the classes those two fall in for V8 (negated ones), so it stands in for them on RE2.
 */
const FOLDED_ONTO_ASCII_BY_RE2 = /[\u212a\u017f]/g;

/**
 * `expression` run by V8 (fastest on ordinary texts), and by RE2 when V8's backtracking runs out of
 * stack on a long text: RE2 matches in linear time without a stack, so the verdict is the
 * expression's whatever the length. One RE2 cannot run either (look-around) throws LIMIT_EXCEEDED:
 * a clear failure of the call, never a verdict the text did not earn (nor a "schema loops" report).
 * `check` is how the expression is applied (default: `test`); `name` says what is checked.
 */
export function stackSafeCheck(name: string, expression: RegExp, check: StringCheck = (text) => expression.test(text)): StringCheck {
  let linear: SafeRegExp | null | undefined; // compiled on the first text that needs it
  const foldsLikeV8 = expression.flags.includes('i') && !expression.flags.includes('u');
  return (text) => {
    try {
      return check(text);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
    if (linear === undefined) {
      try {
        const source = withEcmaClasses(expression.source);
        linear = source === undefined ? null : compileSafeRegExp(source, expression.flags.replace(/[gy]/g, ''));
      } catch {
        linear = null;
      }
    }
    if (linear === null) {
      throw limitExceeded(`a value of ${text.length} characters is too long to check against ${name}: its expression ran out of stack and RE2 cannot run it`);
    }
    return linear.test(foldsLikeV8 ? text.replace(FOLDED_ONTO_ASCII_BY_RE2, '\uffff') : text);
  };
}

/** Matches every text: what a pattern that is not enforced constrains. */
const MATCHES_EVERYTHING: PatternMatcher = Object.freeze({ test: () => true, toString: () => '(a pattern not enforced)' });

/** The matcher of a pattern's plan; a pattern that is not enforced matches everything. */
export function patternMatcher(pattern: string): PatternMatcher {
  const plan = planPattern(pattern);
  return plan.engine === 'none' ? MATCHES_EVERYTHING : plan.matcher;
}

/** AJV `code.regExp` factory (AJV calls it with `(pattern, flags)` and uses `.test`). */
export const ajvRegExp = Object.assign((pattern: string, flags: string) => {
  if (flags === 'u' || flags === '') return patternMatcher(pattern);
  return compileSafeRegExp(pattern, flags);
}, {
  code: 'require("re2")',
});
