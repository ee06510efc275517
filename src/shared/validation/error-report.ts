/**
 * Collects the violations of one validation call. Nothing is allocated until the first violation,
 * so a valid interaction costs one small object; the list is capped at `maxErrors` messages and
 * `maxErrorBytes` bytes of them, so no result can approach the gRPC message limit.
 */
import { formatBytes } from '../limits';
import { clip } from '../text';
import { validationMessages } from './messages';
import type { ErrorCategory, ValidationOutcome } from './types';

export interface ErrorReport {
  readonly maxErrors: number;
  readonly maxErrorBytes: number;
  messages: string[] | undefined;
  category: ErrorCategory | undefined;
  /** UTF-8 bytes of the listed messages. */
  bytes: number;
  /** Whether a message did not fit in `maxErrorBytes`: the list takes no more. */
  bytesFull: boolean;
  /** Violations found after the list was full. */
  omitted: number;
}

export function createReport(maxErrors: number, maxErrorBytes: number): ErrorReport {
  return { maxErrors, maxErrorBytes, messages: undefined, category: undefined, bytes: 0, bytesFull: false, omitted: 0 };
}

export function addError(report: ErrorReport, category: ErrorCategory, message: string): void {
  if (report.messages === undefined) {
    // The first violation is always listed, cut when it alone is over the budget (a UTF-16 unit is 3 bytes at most).
    const bytes = Buffer.byteLength(message, 'utf8');
    const first = bytes > report.maxErrorBytes ? clip(message, Math.floor(report.maxErrorBytes / 3)) : message;
    report.messages = [first];
    report.category = category;
    report.bytes = first === message ? bytes : Buffer.byteLength(first, 'utf8');
    return;
  }
  // allErrors validation of oneOf/anyOf branches can report one violation twice.
  if (report.messages.includes(message)) return;
  if (isFull(report)) {
    report.omitted++;
    return;
  }
  const bytes = Buffer.byteLength(message, 'utf8');
  if (report.bytes + bytes > report.maxErrorBytes) {
    report.bytesFull = true;
    report.omitted++;
    return;
  }
  report.messages.push(message);
  report.bytes += bytes;
}

/** Whether the list takes no more messages (later violations are only counted). */
export function isFull(report: ErrorReport): boolean {
  return report.messages !== undefined && (report.bytesFull || report.messages.length >= report.maxErrors);
}

export function toOutcome(report: ErrorReport): ValidationOutcome {
  const messages = report.messages;
  if (messages === undefined) return { valid: true, errors: [] };
  // "at least": loops stop early once the list is full (ERROR_CAP_KEYWORD), so the count is a floor.
  if (report.omitted > 0 && report.bytesFull) {
    // Stopped below maxErrors entries: the summary takes one more (its few bytes beyond the budget).
    messages.push(validationMessages.notListed(report.omitted, `maxErrorBytes = ${formatBytes(report.maxErrorBytes)}`));
  } else if (report.omitted > 0 && report.maxErrors > 1) {
    // The last slot names what was left out, so the list never grows past the limit.
    messages[messages.length - 1] = validationMessages.notListed(report.omitted + 1, `maxErrors = ${report.maxErrors}`);
  }
  return { valid: false, errors: messages, category: report.category };
}
