import { Command, Option } from 'clipanion';
import { ClientCommand } from '../client-command';
import { CLI_DEFAULTS } from '../defaults';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { canIDeployJson, canIDeployText } from '../reports/can-i-deploy-report';

export class CanIDeployCommand extends ClientCommand {
  static override paths = [['can-i-deploy']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Ask the server whether a schema version can be deployed without breaking registered consumers',
    details: `
      Compares the new version with the one before it and checks every consumer registered for the schema
      in the environment: a consumer breaks when a breaking change touches an endpoint it uses.
      Prints the breaking changes, each consumer with its impact (BREAKING or None), and a recommendation.
      With no consumers registered the answer is safe.

      Exit code 0: safe to deploy; 1: unsafe, or the question could not be answered (server unreachable,
      unknown schema or version); 2: usage error.
    `,
    examples: [
      ['Gate a production deploy', '$0 can-i-deploy --schema users-api --version 2.0.0 --env prod'],
      ['Against a remote server over TLS, JSON output', '$0 can-i-deploy --schema users-api --version 2.0.0 --env staging --server svc.internal:9550 --tls --json'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  version = Option.String('--version', { required: true, description: 'The new schema version to deploy' });
  env = Option.String('--env', { required: true, description: 'Target environment (dev, staging, prod, ...)' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output with the response fields in snake_case' });
  timeout = Option.String('-t,--timeout', String(CLI_DEFAULTS.connectionTimeoutSeconds), {
    description: `Connection time-out in seconds (default ${CLI_DEFAULTS.connectionTimeoutSeconds})`,
  });

  protected override async run(): Promise<number> {
    const question = {
      schemaId: requireText('--schema', this.schema),
      version: requireText('--version', this.version),
      environment: requireText('--env', this.env),
    };
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const answer = await this.withConnection(timeoutSeconds, (connection) =>
      connection.call('CanIDeploy', { schema_id: question.schemaId, new_version: question.version, environment: question.environment }));

    if (this.json) this.printJson(canIDeployJson(question, answer));
    else this.context.stdout.write(canIDeployText(question, answer));
    return answer.safe_to_deploy ? EXIT.ok : EXIT.failure;
  }
}
