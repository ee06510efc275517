/**
 * Collects the violations of one validation call. Nothing is allocated until the first violation,
 * so a valid interaction costs one small object; the list is capped at `maxErrors`.
 */
import type { ErrorCategory, ValidationOutcome } from './types';

export interface ErrorReport {
  readonly maxErrors: number;
  messages: string[] | undefined;
  category: ErrorCategory | undefined;
  /** Violations found after the list was full. */
  omitted: number;
}

export function createReport(maxErrors: number): ErrorReport {
  return { maxErrors, messages: undefined, category: undefined, omitted: 0 };
}

export function addError(report: ErrorReport, category: ErrorCategory, message: string): void {
  if (report.messages === undefined) {
    report.messages = [message];
    report.category = category;
    return;
  }
  // allErrors validation of oneOf/anyOf branches can report one violation twice.
  if (report.messages.includes(message)) return;
  if (report.messages.length < report.maxErrors) report.messages.push(message);
  else report.omitted++;
}

/** Whether the list holds `maxErrors` messages already (later violations are only counted). */
export function isFull(report: ErrorReport): boolean {
  return report.messages !== undefined && report.messages.length >= report.maxErrors;
}

export function toOutcome(report: ErrorReport): ValidationOutcome {
  const messages = report.messages;
  if (messages === undefined) return { valid: true, errors: [] };
  if (report.omitted > 0 && report.maxErrors > 1) {
    // The last slot names what was left out, so the list never grows past the limit.
    // "at least": loops stop early once the list is full (ERROR_CAP_KEYWORD), so the count is a floor.
    const notListed = report.omitted + 1;
    messages[messages.length - 1] =
      `… and at least ${notListed} more violation${notListed === 1 ? '' : 's'} not listed (limit maxErrors = ${report.maxErrors})`;
  }
  return { valid: false, errors: messages, category: report.category };
}
