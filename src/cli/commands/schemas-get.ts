import fs from 'node:fs/promises';
import { Command, Option } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { schemaMetadataJson } from '../reports/registry-records';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';

export class SchemasGetCommand extends ClientCommand {
  static override paths = [['schemas', 'get']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Print (or save) the content of a registered schema version',
    details: `
      Prints the schema text exactly as it was registered (its hash is the registered hash), so it can be
      handed to \`svc compare --old\`, \`svc validate --schema\` or \`svc mock --schema\`. Without \`--version\`
      the latest version is printed. \`--output\` writes the text to a file; \`--json\` prints the metadata
      and the content as one JSON object.

      Exit code 0: printed; 1: unknown schema or version, or server unreachable; 2: usage error.
    `,
    examples: [
      ['Print the latest version', '$0 schemas get users-api'],
      ['Save version 1.2.0 for a local comparison', '$0 schemas get users-api --version 1.2.0 --output users-api-1.2.0.yaml'],
    ],
  });

  schemaId = Option.String({ name: 'schema-id', required: true });
  version = Option.String('-v,--version', { description: 'Schema version (default: the latest)' });
  output = Option.String('-o,--output', { description: 'Write the content to this file instead of stdout' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output: {"metadata", "schema_content"}' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const schemaId = requireText('<schema-id>', this.schemaId);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const response = await this.withConnection(timeoutSeconds, (connection) =>
      connection.call('GetSchema', { schema_id: schemaId, schema_version: this.version ?? '' }));
    if (!response.found || !response.metadata) {
      const what = this.version ? `version ${this.version} of schema ${schemaId}` : `schema ${schemaId}`;
      throw new UnansweredError(UNANSWERED_CODES.notFound, `${what} is not registered`);
    }
    const content = response.schema_content;
    if (this.output !== undefined) {
      await fs.writeFile(this.output, content);
      if (this.json) this.printJson({ metadata: schemaMetadataJson(response.metadata), output: this.output });
      else this.context.stderr.write(`${this.commandName}: wrote ${schemaId} ${response.metadata.schema_version} to ${this.output}\n`);
    } else if (this.json) {
      this.printJson({ metadata: schemaMetadataJson(response.metadata), schema_content: content });
    } else {
      this.print(content);
    }
    return EXIT.ok;
  }
}
