/**
 * How a failed command reads: one line on stderr (no stack trace), a `{"error": {...}}` object on
 * stdout under `--json`, and the exit code that says whether the command line was wrong (usage),
 * the work failed, or no answer could be had (`--unknown-exit-code`).
 */
import { EXIT } from './exit-codes';
import { errorCodeOf, isUnanswered } from './unanswered';

export interface FailureReport {
  message: string;
  /** USAGE_ERROR, a gRPC status name, an SvcError code or an UNANSWERED_CODES value. */
  code: string;
  exitCode: number;
  /** The command could not answer (server unreachable, file unreadable, unknown schema or version, time-out). */
  unanswered: boolean;
}

export const USAGE_ERROR_CODE = 'USAGE_ERROR';

/** `commandName` is the full name (`svc validate`), used to point at the command's help. */
export function describeFailure(error: unknown, commandName: string): FailureReport {
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (isUsageError(error)) {
    return { message: `${message} (see "${commandName} --help")`, code: USAGE_ERROR_CODE, exitCode: EXIT.usage, unanswered: false };
  }
  return { message, code: errorCodeOf(error), exitCode: EXIT.failure, unanswered: isUnanswered(error) };
}

/** The JSON form of a failure: what `--json` prints on stdout, so stdout is never empty. */
export function failureJson(failure: { code: string; message: string }): string {
  return `${JSON.stringify({ error: { code: failure.code, message: failure.message } }, null, 2)}\n`;
}

/** clipanion marks user mistakes (UsageError and its own parse errors) with `clipanion.type`. */
function isUsageError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { clipanion?: { type?: string } }).clipanion?.type === 'usage';
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
