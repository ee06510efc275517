/** The `svc` command line: one clipanion class per command (src/cli/commands/). */
import { Builtins, type BaseContext, type Cli } from 'clipanion';
import { readBuildInfo } from './build-info';
import { processContext } from './cli-context';
import { CanIDeployCommand } from './commands/can-i-deploy';
import { CompareCommand } from './commands/compare';
import { ConsumersDeregisterCommand } from './commands/consumers-deregister';
import { ConsumersListCommand } from './commands/consumers-list';
import { CoverageCommand } from './commands/coverage';
import { EndpointsCommand } from './commands/endpoints';
import { EnvironmentCreateCommand } from './commands/environment-create';
import { EnvironmentDeleteCommand } from './commands/environment-delete';
import { EnvironmentListCommand } from './commands/environment-list';
import { ExportCommand } from './commands/export';
import { GenerateCommand } from './commands/generate';
import { MockCommand } from './commands/mock';
import { ImportCommand } from './commands/import';
import { RecordDeploymentCommand } from './commands/record-deployment';
import { RecordUndeploymentCommand } from './commands/record-undeployment';
import { RegisterConsumerCommand } from './commands/register-consumer';
import { RegisterSchemaCommand } from './commands/register-schema';
import { SchemasGetCommand } from './commands/schemas-get';
import { SchemasListCommand } from './commands/schemas-list';
import { ServeCommand } from './commands/serve';
import { ValidateCommand } from './commands/validate';
import { VersionCommand } from './commands/version';
import { WaitCommand } from './commands/wait';
import { EXIT } from './exit-codes';
import { failureJson, USAGE_ERROR_CODE } from './failure';
import { describeParseError } from './parse-error';
import { SvcCli } from './svc-cli';

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
  cli.register(SchemasListCommand);
  cli.register(SchemasGetCommand);
  cli.register(EndpointsCommand);
  cli.register(CoverageCommand);
  cli.register(ConsumersListCommand);
  cli.register(ConsumersDeregisterCommand);
  cli.register(EnvironmentCreateCommand);
  cli.register(EnvironmentListCommand);
  cli.register(EnvironmentDeleteCommand);
  cli.register(RecordDeploymentCommand);
  cli.register(RecordUndeploymentCommand);
  cli.register(MockCommand);
  cli.register(ServeCommand);
  cli.register(ExportCommand);
  cli.register(ImportCommand);
  cli.register(VersionCommand);
  return cli;
}

/** Runs one command line and returns its exit code; a command line that does not parse is a one-line usage error on stderr. */
export async function runCli(argv: string[], context: BaseContext): Promise<number> {
  const cli = createCli({ colored: context.colorDepth > 1 });
  if (argv.length === 0) {
    // No command is a usage error: a pipeline step that lost its arguments must not pass.
    context.stderr.write(`${cli.usage(null, { colored: false })}\nsvc: no command given (see "svc --help")\n`);
    return EXIT.usage;
  }
  let command;
  try {
    command = cli.process(argv, context);
  } catch (error) {
    const message = describeParseError(error, argv);
    context.stderr.write(`${message}\n`);
    if (argv.includes('--json') || argv.includes('-j')) context.stdout.write(failureJson({ code: USAGE_ERROR_CODE, message }));
    return EXIT.usage;
  }
  return cli.run(command, context);
}

export async function main(argv: string[]): Promise<void> {
  process.exitCode = await runCli(argv, processContext());
}
