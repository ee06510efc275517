import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { CONSUMER_TABLE_HEADER, consumerJson, consumerRow } from '../reports/registry-records';
import { formatTable } from '../reports/table';

export class ConsumersListCommand extends ClientCommand {
  static override paths = [['consumers', 'list']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'List the consumers registered for a schema',
    details: `
      Prints one row per registration \`<consumer>/<schema>/<env>\`: the consumer's version, environment, the
      schema version it was tested against, the endpoints it uses and when it was last validated.
      \`--env\` keeps one environment.

      Exit code 0: listed (none registered too); 1: server unreachable or refused; 2: usage error.
    `,
    examples: [
      ['Every consumer of users-api', '$0 consumers list --schema users-api'],
      ['The production consumers, as JSON', '$0 consumers list --schema users-api --env prod --json'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  env = Option.String('--env', { description: 'Only this environment (default: all)' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output: {"consumers": [...]}' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const schemaId = requireText('--schema', this.schema);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const { consumers } = await this.withConnection(timeoutSeconds, (connection) =>
      connection.call('ListConsumers', { schema_id: schemaId, environment: this.env ?? '' }));
    if (this.json) {
      this.printJson({ consumers: consumers.map(consumerJson) });
    } else if (consumers.length === 0) {
      this.print(`No consumers registered for ${schemaId}${this.env ? ` in ${this.env}` : ''}`);
    } else {
      this.context.stdout.write(formatTable(CONSUMER_TABLE_HEADER, consumers.map(consumerRow)));
    }
    return EXIT.ok;
  }
}
