import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';

export class EnvironmentDeleteCommand extends ClientCommand {
  static override paths = [['environment', 'delete']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Delete an environment nothing is registered or deployed in any more',
    details: `
      The built-in environments (dev, staging, prod) cannot be deleted; neither can one that still holds
      consumer registrations or a recorded deployment (deregister or record the undeployment first).

      Exit code 0: deleted; 1: refused (unknown, built in, still in use) or server unreachable; 2: usage error.
    `,
    examples: [['Delete the QA environment', '$0 environment delete qa']],
  });

  name = Option.String({ name: 'name', required: true });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const request = { name: requireText('<name>', this.name) };
    const response = await this.withConnection(parseSeconds('--timeout', this.timeout), (connection) => connection.call('DeleteEnvironment', request));
    if (this.json) this.printJson({ success: response.success, message: response.message });
    if (!response.success) {
      this.printError(`environment not deleted: ${response.message || 'no reason given'}`);
      return EXIT.failure;
    }
    if (!this.json && !this.quiet) this.print(response.message);
    return EXIT.ok;
  }
}
