/**
 * The base of every svc command: `run()` does the work and returns the exit code; anything it
 * throws becomes one line on stderr (`svc <command>: <message>`) with the matching exit code.
 */
import { Command, type BaseContext } from 'clipanion';
import { describeFailure } from './failure';

export abstract class SvcCommand extends Command<BaseContext> {
  protected abstract run(): Promise<number>;

  override async execute(): Promise<number> {
    try {
      return await this.run();
    } catch (error) {
      const { message, exitCode } = describeFailure(error, this.commandName);
      this.context.stderr.write(`${this.commandName}: ${message}\n`);
      return exitCode;
    }
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
