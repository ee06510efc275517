import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';

export class EnvironmentCreateCommand extends ClientCommand {
  static override paths = [['environment', 'create']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Create an environment that can-i-deploy, consumer registrations and deployments may name',
    details: `
      \`dev\`, \`staging\` and \`prod\` always exist; any other environment must be created before it is used,
      so that a misspelt \`--env\` is an error instead of a gate that checks nothing. Creating an environment
      that exists already succeeds and changes nothing. Needs an API key with the \`admin\` scope when keys have scopes.

      Exit code 0: created (or already there); 1: refused (invalid name) or server unreachable; 2: usage error.
    `,
    examples: [['Create a QA environment', '$0 environment create qa --description "integration tests"']],
  });

  name = Option.String({ name: 'name', required: true });
  description = Option.String('--description', '', { description: 'What the environment is for' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const request = { name: requireText('<name>', this.name), description: this.description };
    const response = await this.withConnection(parseSeconds('--timeout', this.timeout), (connection) => connection.call('CreateEnvironment', request));
    if (this.json) this.printJson({ success: response.success, message: response.message, environment: response.environment });
    if (!response.success) {
      this.printError(`environment not created: ${response.message || 'no reason given'}`);
      return EXIT.failure;
    }
    if (!this.json && !this.quiet) this.print(response.message);
    return EXIT.ok;
  }
}
