import { Command } from 'clipanion';
import { readBuildInfo } from '../build-info';

export class VersionCommand extends Command {
  static override paths = [['version']];
  static override usage = Command.Usage({
    description: 'Print the version, the commit and the build time',
    examples: [['Print version information', '$0 version']],
  });

  override async execute(): Promise<number> {
    const info = readBuildInfo();
    this.context.stdout.write(`svc version ${info.version}\nCommit: ${info.commit}\nBuilt: ${info.built}\n`);
    return 0;
  }
}
