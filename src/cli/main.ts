/** The `svc` command line: one clipanion class per command (src/cli/commands/). */
import { Builtins, Cli } from 'clipanion';
import { readBuildInfo } from './build-info';
import { ServeCommand } from './commands/serve';
import { VersionCommand } from './commands/version';

export function createCli(): Cli {
  const cli = new Cli({
    binaryLabel: 'svc — contract validation service',
    binaryName: 'svc',
    binaryVersion: readBuildInfo().version,
    enableCapture: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(ServeCommand);
  cli.register(VersionCommand);
  return cli;
}

export async function main(argv: string[]): Promise<void> {
  const exitCode = await createCli().run(argv, Cli.defaultContext);
  process.exitCode = exitCode;
}
