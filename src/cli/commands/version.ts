import { Command } from 'clipanion';
import { readBuildInfo } from '../build-info';
import { EXIT } from '../exit-codes';
import { SvcCommand } from '../svc-command';

export class VersionCommand extends SvcCommand {
  static override paths = [['version'], ['--version']];
  static override usage = Command.Usage({
    description: 'Print the version, the commit and the build time',
    examples: [['Print version information', '$0 version']],
  });

  protected override async run(): Promise<number> {
    const info = readBuildInfo();
    this.print(`svc version ${info.version}\nCommit: ${info.commit}\nBuilt: ${info.built}`);
    return EXIT.ok;
  }
}
