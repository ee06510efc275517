import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { formatTable } from '../reports/table';

export class EndpointsCommand extends ClientCommand {
  static override paths = [['endpoints']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'List the endpoints of a registered schema',
    details: `
      Prints one row per operation of the schema's latest version (or \`--version\`): method, path template,
      operationId and summary, sorted by path and method. These templates are what \`register-consumer
      --endpoints\` expects.

      Exit code 0: listed; 1: unknown schema or version, or server unreachable; 2: usage error.
    `,
    examples: [
      ['List the endpoints of users-api', '$0 endpoints users-api'],
      ['Of one version, as JSON', '$0 endpoints users-api --version 1.2.0 --json'],
    ],
  });

  schemaId = Option.String({ name: 'schema-id', required: true });
  version = Option.String('-v,--version', { description: 'Schema version (default: the latest)' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output: an array of {method, path, operation_id, summary}' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const schemaId = requireText('<schema-id>', this.schemaId);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const { endpoints } = await this.withConnection(timeoutSeconds, (connection) =>
      connection.call('ListEndpoints', { schema_id: schemaId, schema_version: this.version ?? '' }));
    if (this.json) {
      this.printJson(endpoints.map(({ method, path, operation_id, summary }) => ({ method, path, operation_id, summary })));
    } else {
      const rows = endpoints.map((endpoint) => [endpoint.method, endpoint.path, endpoint.operation_id || '-', endpoint.summary]);
      this.context.stdout.write(formatTable(['METHOD', 'PATH', 'OPERATION', 'SUMMARY'], rows));
    }
    return EXIT.ok;
  }
}
