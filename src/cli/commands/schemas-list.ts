import { Command, Option } from 'clipanion';
import type { SchemaMetadata__Output } from '@svc/client/protocol';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds } from '../option-values';
import { SCHEMA_TABLE_HEADER, schemaMetadataJson, schemaRow } from '../reports/registry-records';
import { formatTable } from '../reports/table';
import { LIMITS } from '../../shared/limits';
import { limitExceeded } from '../../shared/errors';

/** Pages fetched before giving up: 1000 pages of the server's largest page is far past any real registry. */
const MAX_PAGES = 1000;
/** The server's largest page (maxPageSize); asked for, since the default (100) made MAX_PAGES only 100,000 schemas. */
const PAGE_SIZE = LIMITS.maxPageSize;

export class SchemasListCommand extends ClientCommand {
  static override paths = [['schemas', 'list']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'List the registered schemas (the latest version of each)',
    details: `
      Prints one row per schema id: its latest version, OpenAPI version, endpoint count, owner, team and
      last update, sorted by schema id. Every page of ListSchemas is fetched. \`--owner\` and \`--team\`
      filter on the latest version's ownership.

      Exit code 0: listed (an empty registry too); 1: server unreachable or refused; 2: usage error.
    `,
    examples: [
      ['List every schema', '$0 schemas list'],
      ['The schemas of one team, as JSON', '$0 schemas list --team identity --json'],
    ],
  });

  owner = Option.String('--owner', { description: 'Only schemas with this owner' });
  team = Option.String('--team', { description: 'Only schemas of this team' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output: {"total_count", "schemas": [...]}' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const schemas = await this.withConnection(timeoutSeconds, async (connection) => {
      const all: SchemaMetadata__Output[] = [];
      let pageToken = '';
      for (let page = 0; page < MAX_PAGES; page++) {
        const response = await connection.call('ListSchemas', { owner: this.owner ?? '', team: this.team ?? '', page_size: PAGE_SIZE, page_token: pageToken });
        all.push(...response.schemas);
        pageToken = response.next_page_token;
        if (pageToken === '') return all;
      }
      // Never a list cut short as if it were whole.
      throw limitExceeded(`the registry holds more schemas than ${MAX_PAGES} pages of ${PAGE_SIZE} (${all.length} listed); narrow the listing with --owner or --team`);
    });
    if (this.json) {
      this.printJson({ total_count: schemas.length, schemas: schemas.map(schemaMetadataJson) });
    } else if (schemas.length === 0) {
      this.print('No schemas registered');
    } else {
      this.context.stdout.write(formatTable(SCHEMA_TABLE_HEADER, schemas.map(schemaRow)));
    }
    return EXIT.ok;
  }
}
