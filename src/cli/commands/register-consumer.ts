import { Command, Option } from 'clipanion';
import { ClientCommand } from '../client-command';
import { CLI_DEFAULTS } from '../defaults';
import { parseEndpointUsages } from '../endpoint-usage-syntax';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';

export class RegisterConsumerCommand extends ClientCommand {
  static override paths = [['register-consumer']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Register which endpoints and response fields a consumer uses, for can-i-deploy',
    details: `
      Records (or updates) the registration \`<consumer>/<schema>/<env>\`: the consumer's version, the schema
      version it was tested against and the endpoints it calls.

      \`--endpoints\` lists endpoints as \`<METHOD> <path>[:<field>,<field>...]\`, separated by \`;\` (or given
      several times): the method in any case, the path template as the schema writes it, and after a colon
      the response fields the consumer reads, e.g. \`GET /users/{id}:id,email;POST /users\`. The field list
      starts at the last colon, so a path holding a colon ends with one: \`POST /jobs/{id}:cancel:\`.

      Exit code 0: registered; 1: refused (unknown schema, version or endpoint) or server unreachable; 2: usage error.
    `,
    examples: [
      ['Register the web app against users-api 1.2.0 in prod', `$0 register-consumer --consumer web-app --version 3.4.1 --schema users-api --schema-version 1.2.0 --env prod --endpoints 'GET /users/{id}:id,email;POST /users'`],
    ],
  });

  consumer = Option.String('--consumer', { required: true, description: 'Consumer id' });
  version = Option.String('--version', { required: true, description: "The consumer's own version" });
  schema = Option.String('--schema', { required: true, description: 'Id of the schema the consumer depends on' });
  schemaVersion = Option.String('--schema-version', { description: 'Schema version the consumer was tested against (default: the server decides, normally the latest)' });
  env = Option.String('--env', CLI_DEFAULTS.consumerEnvironment, { description: `Environment (default ${CLI_DEFAULTS.consumerEnvironment})` });
  endpoints = Option.Array('--endpoints', { required: true, description: 'Endpoints used: "GET /users/{id}:id,email;POST /users" (repeatable)' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = Option.String('-t,--timeout', String(CLI_DEFAULTS.connectionTimeoutSeconds), {
    description: `Connection time-out in seconds (default ${CLI_DEFAULTS.connectionTimeoutSeconds})`,
  });

  protected override async run(): Promise<number> {
    const usages = parseEndpointUsages(this.endpoints.join(';'));
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const request = {
      consumer_id: requireText('--consumer', this.consumer),
      consumer_version: requireText('--version', this.version),
      schema_id: requireText('--schema', this.schema),
      schema_version: this.schemaVersion ?? '',
      environment: requireText('--env', this.env),
      used_endpoints: usages.map((usage) => ({ method: usage.method, path: usage.path, used_fields: usage.usedFields })),
    };
    const response = await this.withConnection(timeoutSeconds, (connection) => connection.call('RegisterConsumer', request));

    if (this.json) this.printJson({ success: response.success, message: response.message, consumer: response.consumer });
    if (!response.success) {
      this.printError(`registration refused: ${response.message || 'no reason given'}`);
      return EXIT.failure;
    }
    if (!this.json && !this.quiet) {
      const consumer = response.consumer;
      const schemaVersion = consumer?.schema_version || request.schema_version || 'latest';
      const count = consumer?.used_endpoints.length ?? usages.length;
      this.print(`Registered consumer ${request.consumer_id} ${request.consumer_version} of ${request.schema_id} ${schemaVersion} in ${request.environment} (${count} endpoint${count === 1 ? '' : 's'})`);
    }
    return EXIT.ok;
  }
}
