import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { CLI_DEFAULTS } from '../defaults';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';

export class ConsumersDeregisterCommand extends ClientCommand {
  static override paths = [['consumers', 'deregister']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Remove a consumer registration (the consumer no longer uses the schema in that environment)',
    details: `
      Removes the registration \`<consumer>/<schema>/<env>\`; can-i-deploy stops counting that consumer.
      Other registrations of the same consumer (other schemas, other environments) stay.

      Exit code 0: removed; 1: no such registration, or server unreachable; 2: usage error.
    `,
    examples: [
      ['Retire the web app from users-api in prod', '$0 consumers deregister --consumer web-app --schema users-api --env prod'],
    ],
  });

  consumer = Option.String('--consumer', { required: true, description: 'Consumer id' });
  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  env = Option.String('--env', CLI_DEFAULTS.consumerEnvironment, { description: `Environment (default ${CLI_DEFAULTS.consumerEnvironment})` });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const request = {
      consumer_id: requireText('--consumer', this.consumer),
      schema_id: requireText('--schema', this.schema),
      environment: requireText('--env', this.env),
    };
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const response = await this.withConnection(timeoutSeconds, (connection) => connection.call('DeregisterConsumer', request));
    const key = `${request.consumer_id}/${request.schema_id}/${request.environment}`;
    if (!response.success) {
      throw new UnansweredError(UNANSWERED_CODES.notFound, `cannot deregister ${key}: ${response.message || 'no reason given'}`);
    }
    if (this.json) this.printJson({ success: true, message: response.message });
    else if (!this.quiet) this.print(`Deregistered ${key}`);
    return EXIT.ok;
  }
}
