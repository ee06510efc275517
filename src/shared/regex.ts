/**
 * User-supplied regular expressions (OpenAPI `pattern`, `patternProperties`). OpenAPI patterns are
 * ECMA-262; RE2, whose matching time is linear in the input (`^(a+)+$` cannot backtrack for
 * seconds), runs every pattern it can compile. A pattern RE2 cannot run (look-around,
 * back-references, counted repeats above its limit of 1,000) runs in the JavaScript engine only
 * when the ReDoS analyser proves it safe (redos-analysis.ts); otherwise it is not enforced, and
 * intake reports that with a warning. A pattern never refuses a document.
 */
import RE2 from 're2';
import { limitExceeded } from './errors';
import { analyseRedos } from './redos-analysis';

export type SafeRegExp = RE2;

/** Compiles with RE2 in Unicode mode, as AJV's `code.regExp` option expects; throws on unsupported syntax. */
export function compileSafeRegExp(pattern: string, flags = 'u'): SafeRegExp {
  return new RE2(pattern, flags.includes('u') ? flags : `${flags}u`);
}

/** The RE2 compile error as text, or undefined when RE2 accepts the pattern. */
export function unsafePatternReason(pattern: string): string | undefined {
  try {
    compileSafeRegExp(pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
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
  let re2Reason: string;
  try {
    return { engine: 're2', matcher: compileSafeRegExp(pattern) };
  } catch (error) {
    re2Reason = error instanceof Error ? error.message : String(error);
  }
  const ecma = compileEcma(pattern);
  if (ecma === undefined) {
    return { engine: 'none', reason: `not a valid ECMA-262 regular expression (RE2: ${re2Reason})` };
  }
  const verdict = analyseRedos(ecma.source, ecma.flags);
  if (verdict.status === 'safe') return { engine: 'ecma', matcher: stackGuarded(pattern, ecma) };
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

/**
 * Proven linear in time, a pattern on V8 can still run out of backtracking stack on a long text:
 * that is a clear LIMIT_EXCEEDED for the call, never a mismatch (or a "schema loops" report).
 */
function stackGuarded(pattern: string, expression: RegExp): PatternMatcher {
  return {
    toString: () => String(expression),
    test(text) {
      try {
        return expression.test(text);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        throw limitExceeded(`a value of ${text.length} characters is too long to check against pattern ${JSON.stringify(pattern)}: RE2 cannot run the pattern, and the JavaScript engine ran out of stack`);
      }
    },
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
