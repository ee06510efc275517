import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds } from '../option-values';

export class EnvironmentListCommand extends ClientCommand {
  static override paths = [['environment', 'list']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'List the environments the server knows',
    details: `
      Prints one line per environment: its name, how it came to exist (built-in, created, deployment,
      consumer-registration, existing-registrations) and its description.

      Exit code 0: listed; 1: server unreachable; 2: usage error.
    `,
    examples: [['List the environments', '$0 environment list']],
  });

  json = Option.Boolean('-j,--json', false, { description: 'JSON output with the response fields in snake_case' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const response = await this.withConnection(parseSeconds('--timeout', this.timeout), (connection) => connection.call('ListEnvironments', {}));
    if (this.json) {
      this.printJson({ environments: response.environments });
      return EXIT.ok;
    }
    const width = Math.max(...response.environments.map((environment) => environment.name.length));
    for (const environment of response.environments) {
      this.print(`${environment.name.padEnd(width)}  ${environment.origin}${environment.description ? `  ${environment.description}` : ''}`);
    }
    return EXIT.ok;
  }
}
