/**
 * How a failed command reads on stderr: one line, no stack trace, and the exit code that says
 * whether the command line was wrong (usage) or the work failed.
 */
import { EXIT } from './exit-codes';

export interface FailureReport {
  message: string;
  exitCode: number;
}

/** `commandName` is the full name (`svc validate`), used to point at the command's help. */
export function describeFailure(error: unknown, commandName: string): FailureReport {
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (isUsageError(error)) {
    return { message: `${message} (see "${commandName} --help")`, exitCode: EXIT.usage };
  }
  return { message, exitCode: EXIT.failure };
}

/** clipanion marks user mistakes (UsageError and its own parse errors) with `clipanion.type`. */
function isUsageError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { clipanion?: { type?: string } }).clipanion?.type === 'usage';
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
