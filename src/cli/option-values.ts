/**
 * Option values arrive as strings; these turn them into numbers and choices once, at the edge,
 * with a usage error that names the flag and the value it got.
 */
import { UsageError } from 'clipanion';

/** A positive number of seconds (fractions allowed: `--interval 0.5`). */
export function parseSeconds(flag: string, value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`${flag} must be a positive number of seconds (got "${value}")`);
  }
  return seconds;
}

/** An HTTP status code (100–599), or 0 where the flag allows "choose for me". */
export function parseStatusCode(flag: string, value: string, options: { allowZero: boolean }): number {
  const code = Number(value);
  const valid = /^\d+$/.test(value) && ((code >= 100 && code <= 599) || (options.allowZero && code === 0));
  if (!valid) {
    const range = options.allowZero ? '0 or 100–599' : '100–599';
    throw new UsageError(`${flag} must be an HTTP status code (${range}; got "${value}")`);
  }
  return code;
}

/** One of a fixed list of words, compared case-insensitively. */
export function parseChoice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  const choice = choices.find((candidate) => candidate === value.toLowerCase());
  if (choice === undefined) throw new UsageError(`${flag} must be one of ${choices.join(', ')} (got "${value}")`);
  return choice;
}

/** A JSON text given on the command line (`--request-body '{"a":1}'`), checked here so a typo is a usage error. */
export function parseJsonOption(flag: string, value: string): string {
  try {
    JSON.parse(value);
  } catch (error) {
    throw new UsageError(`${flag} is not valid JSON: ${(error as Error).message}`);
  }
  return value;
}

/** A value that must not be empty or blank (`--schema ""`). */
export function requireText(flag: string, value: string): string {
  if (value.trim() === '') throw new UsageError(`${flag} must not be empty`);
  return value;
}
