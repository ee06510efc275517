/** The `svc` command line: one clipanion class per command (src/cli/commands/). */
import { Builtins, Cli, type BaseContext } from 'clipanion';
import { readBuildInfo } from './build-info';
import { processContext } from './cli-context';
import { CanIDeployCommand } from './commands/can-i-deploy';
import { CompareCommand } from './commands/compare';
import { GenerateCommand } from './commands/generate';
import { RegisterConsumerCommand } from './commands/register-consumer';
import { RegisterSchemaCommand } from './commands/register-schema';
import { ServeCommand } from './commands/serve';
import { ValidateCommand } from './commands/validate';
import { VersionCommand } from './commands/version';
import { WaitCommand } from './commands/wait';
import { EXIT } from './exit-codes';
import { oneLine } from './failure';
import { describeParseError } from './parse-error';

/**
 * Commands that extend SvcCommand report their own failures (one line on stderr). For any other
 * command clipanion would print a stack trace or the whole usage text; one line is enough there too.
 */
class SvcCli extends Cli<BaseContext> {
  override error(error: unknown): string {
    return `svc: ${oneLine(error instanceof Error ? error.message : String(error))}\n`;
  }
}

/** `colored`: whether help text may use colours (only when stdout is a terminal; see cli-context.ts). */
export function createCli(options: { colored: boolean } = { colored: false }): Cli<BaseContext> {
  const cli = new SvcCli({
    binaryLabel: 'svc — contract validation service',
    binaryName: 'svc',
    binaryVersion: readBuildInfo().version,
    enableCapture: false,
    enableColors: options.colored,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(ValidateCommand);
  cli.register(CompareCommand);
  cli.register(GenerateCommand);
  cli.register(CanIDeployCommand);
  cli.register(WaitCommand);
  cli.register(RegisterSchemaCommand);
  cli.register(RegisterConsumerCommand);
  cli.register(ServeCommand);
  cli.register(VersionCommand);
  return cli;
}

/** Runs one command line and returns its exit code; a command line that does not parse is a one-line usage error on stderr. */
export async function runCli(argv: string[], context: BaseContext): Promise<number> {
  const cli = createCli({ colored: context.colorDepth > 1 });
  let command;
  try {
    command = cli.process(argv, context);
  } catch (error) {
    context.stderr.write(`${describeParseError(error, argv)}\n`);
    return EXIT.usage;
  }
  return cli.run(command, context);
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = await runCli(argv, processContext());
}
