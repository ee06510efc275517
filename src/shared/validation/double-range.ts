/**
 * Numbers a double cannot hold. JSON puts no bound on a number (RFC 8259 §6 leaves the range to
 * implementations), and a parameter's text none either, but JavaScript reads `1e400` as Infinity
 * and `1e-400` as 0: a check on that value answers for a different number (`1e-400` would break
 * `exclusiveMinimum: 0`, `1e400` would pass `type: integer`). Such a number gets no verdict: the
 * call fails with LIMIT_EXCEEDED, as a value no engine can check does (regex.ts).
 */
import { limitExceeded, type SvcError } from '../errors';
import { clip } from '../text';

/** How much of the number a message quotes. */
const MAX_NUMBER_CHARS = 40;

const NONZERO_DIGIT = /[1-9]/;

/** Whether `value`, read from the number `text`, is not the number the text writes. */
export function leavesDoubleRange(text: string, value: number): boolean {
  if (!Number.isFinite(value)) return true;
  if (value !== 0) return false;
  const exponent = text.search(/[eE]/);
  return NONZERO_DIGIT.test(exponent < 0 ? text : text.slice(0, exponent));
}

/** The call's failure for a number at `place` that a double cannot hold. */
export function outsideDoubleRange(place: string, number: string): SvcError {
  return limitExceeded(
    `${place} could not be checked: the number ${clip(number, MAX_NUMBER_CHARS)} is outside what a double holds (magnitudes from 5e-324 to 1.8e308)`,
  );
}
