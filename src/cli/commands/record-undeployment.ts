import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';

export class RecordUndeploymentCommand extends ClientCommand {
  static override paths = [['record-undeployment']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Record that a schema (or a consumer) no longer runs in an environment',
    details: `
      Without \`--consumer\`: nothing of the schema is recorded as deployed in the environment any more, so
      can-i-deploy falls back to comparing with the previous version. With \`--consumer\`: the consumer's
      registration in that environment is removed, and can-i-deploy stops judging it there.

      Exit code 0: recorded; 1: refused (nothing deployed there, unknown schema or environment) or server unreachable; 2: usage error.
    `,
    examples: [
      ['users-api was taken out of the eu environment', '$0 record-undeployment --schema users-api --env eu'],
      ['The web app no longer runs in staging', '$0 record-undeployment --consumer web-app --schema users-api --env staging'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  env = Option.String('--env', { required: true, description: 'Environment it no longer runs in' });
  consumer = Option.String('--consumer', { description: 'A consumer instead of the schema itself' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const request = {
      schema_id: requireText('--schema', this.schema),
      environment: requireText('--env', this.env),
      consumer_id: this.consumer === undefined ? '' : requireText('--consumer', this.consumer),
    };
    const response = await this.withConnection(parseSeconds('--timeout', this.timeout), (connection) => connection.call('RecordUndeployment', request));
    if (this.json) this.printJson({ success: response.success, message: response.message, deployment: response.deployment });
    if (!response.success) {
      this.printError(`undeployment not recorded: ${response.message || 'no reason given'}`);
      return EXIT.failure;
    }
    if (!this.json && !this.quiet) this.print(response.message);
    return EXIT.ok;
  }
}
