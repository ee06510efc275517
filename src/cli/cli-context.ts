import type { BaseContext } from 'clipanion';

/**
 * The process's streams for clipanion. Colours only when stdout is a terminal: clipanion asks the
 * tty module for a colour depth without checking that stdout is one, and its help text would
 * carry escape codes into pipes and CI logs. `NO_COLOR` and `FORCE_COLOR` are honoured by
 * `getColorDepth` itself.
 */
export function processContext(): BaseContext {
  const stdout = process.stdout;
  return {
    env: process.env,
    stdin: process.stdin,
    stdout,
    stderr: process.stderr,
    colorDepth: stdout.isTTY ? stdout.getColorDepth() : 1,
  };
}
