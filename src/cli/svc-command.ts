/**
 * The base of every svc command: `run()` does the work and returns the exit code; anything it
 * throws becomes one line on stderr (`svc <command>: <message>`), a JSON error object on stdout
 * when the command prints JSON, and the matching exit code.
 */
import { Command, type BaseContext } from 'clipanion';
import { describeFailure, failureJson } from './failure';

export abstract class SvcCommand extends Command<BaseContext> {
  protected abstract run(): Promise<number>;

  override async execute(): Promise<number> {
    try {
      this.checkOptions();
      return await this.run();
    } catch (error) {
      const failure = describeFailure(error, this.commandName);
      this.context.stderr.write(`${this.commandName}: ${failure.message}\n`);
      if (this.wantsJson()) this.context.stdout.write(failureJson(failure));
      return failure.unanswered ? this.unknownExitCode() ?? failure.exitCode : failure.exitCode;
    }
  }

  /** Checks of options shared by a family of commands, before `run()`; throws UsageError. */
  protected checkOptions(): void {}

  /** Whether the output is JSON (a `-j,--json` option set), so errors must be JSON on stdout too. */
  protected wantsJson(): boolean {
    return (this as { json?: unknown }).json === true;
  }

  /** The exit code for "could not answer"; only commands that ask a question take `--unknown-exit-code`. */
  protected unknownExitCode(): number | undefined {
    return undefined;
  }

  /** `svc validate`, as the user typed it. */
  protected get commandName(): string {
    return ['svc', ...this.path].join(' ');
  }

  /** Writes text to stdout, ending it with a newline. */
  protected print(text: string): void {
    this.context.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  protected printJson(value: unknown): void {
    this.print(JSON.stringify(value, null, 2));
  }

  /** One line on stderr, prefixed with the command name (a negative outcome that is not an exception). */
  protected printError(message: string): void {
    this.context.stderr.write(`${this.commandName}: ${message}\n`);
  }
}
