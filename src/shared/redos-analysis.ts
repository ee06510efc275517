/**
 * ReDoS analysis of an ECMA-262 pattern with `recheck` (https://makenowjust-labs.github.io/recheck/),
 * used only for patterns RE2 cannot run. A pattern counts as safe only when recheck's automaton
 * checker proves its matching time linear (or constant); a fuzzing verdict finds attacks but proves
 * nothing, so "safe" from the fuzzer counts as unknown. The limits below are step counts, not
 * wall-clock timeouts, so the same pattern gets the same verdict in every process (intake, the
 * validation workers and the fixture engine must agree); the timeout is a last guard only.
 */
import { createRequire } from 'node:module';

export interface RedosVerdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  /** Why, in a few words: the complexity found, or why no proof was reached. */
  detail: string;
}

/** The analysis bounds, named so the docs can cite them. */
export const REDOS_ANALYSIS_LIMITS = Object.freeze({
  /** Automaton checker: larger NFAs are not analysed (the verdict is then unknown). */
  maxNfaSize: 35_000,
  /** Longest pattern analysed (characters). */
  maxPatternChars: 1_500,
  /** Last guard on one analysis, in milliseconds; the step limits normally end it long before. */
  timeoutMs: 2_000,
});

interface RecheckDiagnostics {
  status: 'safe' | 'vulnerable' | 'unknown';
  checker?: 'automaton' | 'fuzz';
  complexity?: { type: string; summary?: string };
  error?: { kind: string; message?: string };
}

type CheckSync = (source: string, flags: string, params?: Record<string, unknown>) => RecheckDiagnostics;

let checkSync: CheckSync | null | undefined;

/** recheck is loaded on first use: most documents never need it. */
function loadRecheck(): CheckSync | null {
  if (checkSync === undefined) {
    try {
      checkSync = (createRequire(__filename)('recheck') as { checkSync: CheckSync }).checkSync;
    } catch {
      checkSync = null;
    }
  }
  return checkSync;
}

export function analyseRedos(source: string, flags: string): RedosVerdict {
  if (source.length > REDOS_ANALYSIS_LIMITS.maxPatternChars) {
    return { status: 'unknown', detail: `pattern longer than ${REDOS_ANALYSIS_LIMITS.maxPatternChars} characters is not analysed` };
  }
  const check = loadRecheck();
  if (check === null) return { status: 'unknown', detail: 'the ReDoS analyser is not installed' };
  let diagnostics: RecheckDiagnostics;
  try {
    diagnostics = check(source, flags, {
      checker: 'automaton',
      maxNFASize: REDOS_ANALYSIS_LIMITS.maxNfaSize,
      maxPatternSize: REDOS_ANALYSIS_LIMITS.maxPatternChars,
      timeout: REDOS_ANALYSIS_LIMITS.timeoutMs,
    });
  } catch (error) {
    return { status: 'unknown', detail: `analysis failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const complexity = diagnostics.complexity?.type;
  if (diagnostics.status === 'safe' && diagnostics.checker === 'automaton') {
    return { status: 'safe', detail: `${complexity ?? 'linear'} matching time` };
  }
  if (diagnostics.status === 'vulnerable') return { status: 'vulnerable', detail: `${complexity ?? 'super-linear'} matching time` };
  const why = diagnostics.error ? `${diagnostics.error.kind}${diagnostics.error.message ? `: ${diagnostics.error.message}` : ''}` : 'no proof reached';
  return { status: 'unknown', detail: why };
}
