/**
 * The base of the commands that answer a question (valid? compatible? safe? ready? registered?) and
 * can fail to answer: `--unknown-exit-code N` (or SVC_UNKNOWN_EXIT_CODE) makes "could not answer"
 * exit with N, so a pipeline can tell it from "no" (exit 1). See unanswered.ts for what counts.
 */
import { Option, UsageError } from 'clipanion';
import { CLI_DEFAULTS } from './defaults';
import { SvcCommand } from './svc-command';

export abstract class AnsweringCommand extends SvcCommand {
  unknownExitCodeOption = Option.String('--unknown-exit-code', {
    env: CLI_DEFAULTS.unknownExitCodeEnvVar,
    description: `Exit code when no answer could be had: server unreachable, file unreadable, unknown schema or version, time-out (default 1; $${CLI_DEFAULTS.unknownExitCodeEnvVar})`,
  });

  /** A malformed value is a usage error even when the command would have succeeded. */
  protected override checkOptions(): void {
    super.checkOptions();
    if (this.unknownExitCodeOption !== undefined) parseExitCode(this.unknownExitCodeOption);
  }

  protected override unknownExitCode(): number | undefined {
    return this.unknownExitCodeOption === undefined ? undefined : parseExitCode(this.unknownExitCodeOption);
  }
}

function parseExitCode(value: string): number {
  const code = Number(value);
  if (!/^\d+$/.test(value.trim()) || code > 255) {
    throw new UsageError(`--unknown-exit-code (or ${CLI_DEFAULTS.unknownExitCodeEnvVar}) must be an exit code from 0 to 255 (got "${value}")`);
  }
  return code;
}
