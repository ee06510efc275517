import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';

export class RecordDeploymentCommand extends ClientCommand {
  static override paths = [['record-deployment']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Record which schema version (or consumer version) now runs in an environment',
    details: `
      Producer: \`--schema ID --version V --env E\` records schema version V as deployed in E. From then on
      can-i-deploy compares a candidate for E with V instead of the version before the candidate.

      Consumer: add \`--consumer ID\`; \`--version\` is then the consumer's own version, which must have been
      registered (register-consumer, in any environment) with the schema version it was tested against. The
      registration is copied into E, and can-i-deploy for E judges the consumer by that schema version.

      Run it after the deployment succeeded. The history is kept.

      Exit code 0: recorded; 1: refused (unknown schema, version, environment or consumer version) or server unreachable; 2: usage error.
    `,
    examples: [
      ['The producer deployed users-api 1.4.0 to prod', '$0 record-deployment --schema users-api --version 1.4.0 --env prod'],
      ['The web app 3.4.1 (registered in dev) was deployed to prod', '$0 record-deployment --consumer web-app --schema users-api --version 3.4.1 --env prod'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  version = Option.String('--version', { required: true, description: 'Schema version deployed (with --consumer: the consumer version)' });
  env = Option.String('--env', { required: true, description: 'Environment it now runs in' });
  consumer = Option.String('--consumer', { description: 'Record a consumer version instead of a schema version' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const request = {
      schema_id: requireText('--schema', this.schema),
      version: requireText('--version', this.version),
      environment: requireText('--env', this.env),
      consumer_id: this.consumer === undefined ? '' : requireText('--consumer', this.consumer),
    };
    const response = await this.withConnection(parseSeconds('--timeout', this.timeout), (connection) => connection.call('RecordDeployment', request));
    if (this.json) this.printJson({ success: response.success, message: response.message, deployment: response.deployment, replaced_version: response.replaced_version });
    if (!response.success) {
      this.printError(`deployment not recorded: ${response.message || 'no reason given'}`);
      return EXIT.failure;
    }
    if (!this.json && !this.quiet) this.print(response.message);
    return EXIT.ok;
  }
}
