import { Command, Option } from 'clipanion';
import type { RegisterSchemaResponse__Output, SchemaOwnership } from '@svc/client/protocol';
import { ClientCommand } from '../client-command';
import { CLI_DEFAULTS } from '../defaults';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseSeconds, requireText } from '../option-values';
import { changeTextLines, changeToJson, countLine, fromProtoChange } from '../reports/breaking-changes';
import { readSchemaText } from '../schema-source';
import type { ServerConnection } from '../server-connection';

export class RegisterSchemaCommand extends ClientCommand {
  static override paths = [['register-schema']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Register an OpenAPI schema (a file or an http(s) URL, JSON or YAML) with the server',
    details: `
      Sends the schema text as it is; the server checks it, converts OpenAPI 2.0 to 3.0 and stores it under
      the schema id and version (the document's \`info.version\` when \`--version\` is not given).

      Ownership (\`--owner\`, \`--team\`, \`--contact-email\`, \`--read-only\`) is kept from the registered
      version, or inherited from the latest version of the schema, for every flag that is not given: a new
      version or a re-registration never wipes it.

      \`--check-compatibility\` compares the new version with the previous one and lists the breaking changes
      (or says that there is no previous version).
      The version is registered either way, unless \`--fail-on-breaking\` (which implies \`--check-compatibility\`)
      is given: then the server checks first and registers nothing when there are breaking changes (exit code 1),
      so a rejected version never becomes the latest. \`--dry-run\` runs every check and registers nothing.

      Exit code 0: registered; 1: refused, breaking changes with \`--fail-on-breaking\`, or server unreachable; 2: usage error.
    `,
    examples: [
      ['Register version 1.2.0', '$0 register-schema users-api openapi.yaml --version 1.2.0'],
      ['Register and fail the pipeline on breaking changes', '$0 register-schema users-api openapi.yaml -v 2.0.0 --fail-on-breaking --owner alice --team identity'],
    ],
  });

  schemaId = Option.String({ name: 'schema-id', required: true });
  schemaFile = Option.String({ name: 'schema-file', required: true });
  version = Option.String('-v,--version', { description: 'Schema version (semantic version; default: the document\'s info.version)' });
  checkCompatibility = Option.Boolean('--check-compatibility', false, { description: 'Report breaking changes against the previous version' });
  failOnBreaking = Option.Boolean('--fail-on-breaking', false, { description: 'Exit with code 1 when breaking changes are found (implies --check-compatibility)' });
  owner = Option.String('--owner', { description: 'Owner name' });
  team = Option.String('--team', { description: 'Team name' });
  contactEmail = Option.String('--contact-email', { description: 'Contact e-mail for schema issues' });
  dryRun = Option.Boolean('--dry-run', false, { description: 'Check (intake, version, compatibility when asked) and register nothing' });
  readOnly = Option.Boolean('--read-only', { description: 'Refuse later updates of this version (--no-read-only to allow them again)' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the server response as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });
  timeout = Option.String('-t,--timeout', String(CLI_DEFAULTS.connectionTimeoutSeconds), {
    description: `Connection time-out in seconds (default ${CLI_DEFAULTS.connectionTimeoutSeconds})`,
  });

  protected override async run(): Promise<number> {
    const schemaId = requireText('<schema-id>', this.schemaId);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const checkCompatibility = this.checkCompatibility || this.failOnBreaking;
    const content = await readSchemaText(this.schemaFile);
    const response = await this.withConnection(timeoutSeconds, async (connection) =>
      connection.call('RegisterSchema', {
        schema_id: schemaId,
        schema_content: content,
        schema_version: this.version ?? '',
        ownership: await this.ownership(connection, schemaId),
        check_compatibility: checkCompatibility,
        refuse_breaking_changes: this.failOnBreaking,
        dry_run: this.dryRun,
      }));

    if (this.json) this.printJson(responseJson(response));
    if (!response.success) {
      this.printError(`registration refused: ${response.message || 'no reason given'}`);
      if (!this.json && !this.quiet) for (const change of response.breaking_changes.map(fromProtoChange)) this.print(changeTextLines(change, '  ').join('\n'));
      return EXIT.failure;
    }
    if (!this.json && !this.quiet && this.dryRun) this.print(response.message);
    else if (!this.json && !this.quiet) this.print(responseText(response, checkCompatibility));
    const breaking = response.breaking_changes.length;
    if (this.failOnBreaking && breaking > 0) {
      this.printError(`${countLine(breaking).toLowerCase()} against the previous version (--fail-on-breaking); the version was registered all the same`);
      return EXIT.failure;
    }
    return EXIT.ok;
  }

  /**
   * Undefined (the server keeps or inherits it) when no ownership flag is given; otherwise the flags
   * given over the ownership already registered, so `--team` alone does not wipe the owner.
   */
  private async ownership(connection: ServerConnection, schemaId: string): Promise<SchemaOwnership | undefined> {
    const given = { owner: this.owner, team: this.team, contact_email: this.contactEmail, read_only: this.readOnly };
    if (Object.values(given).every((value) => value === undefined)) return undefined;
    const registered = await registeredOwnership(connection, schemaId, this.version ?? '');
    return {
      owner: given.owner ?? registered?.owner ?? '',
      team: given.team ?? registered?.team ?? '',
      contact_email: given.contact_email ?? registered?.contact_email ?? '',
      read_only: given.read_only ?? registered?.read_only ?? false,
    };
  }
}

/** The ownership of that version when it exists, else of the latest version; undefined for a new schema. */
async function registeredOwnership(connection: ServerConnection, schemaId: string, version: string): Promise<SchemaOwnership | undefined> {
  if (version !== '') {
    const exact = await connection.call('GetSchema', { schema_id: schemaId, schema_version: version });
    if (exact.found) return exact.metadata?.ownership ?? undefined;
  }
  const latest = await connection.call('GetSchema', { schema_id: schemaId, schema_version: '' });
  return latest.found ? latest.metadata?.ownership ?? undefined : undefined;
}

function responseText(response: RegisterSchemaResponse__Output, checkCompatibility: boolean): string {
  const metadata = response.metadata;
  const lines = metadata
    ? [
      `Registered ${metadata.schema_id} ${metadata.schema_version} (OpenAPI ${metadata.openapi_version}, ${metadata.endpoint_count} endpoint${metadata.endpoint_count === 1 ? '' : 's'})`,
      `Hash: ${metadata.schema_hash}`,
    ]
    : [response.message || 'Registered'];
  if (checkCompatibility) {
    const changes = response.breaking_changes.map(fromProtoChange);
    if (changes.length > 0) lines.push(`${countLine(changes.length)} against the previous version:`);
    else lines.push(compatibilityVerdict(response));
    for (const change of changes) lines.push(...changeTextLines(change, '  '));
  }
  if (response.warnings.length > 0) lines.push(`Warnings (${response.warnings.length}):`);
  for (const warning of response.warnings) lines.push(`  ${warning.code} ${warning.pointer || '/'}: ${warning.message}`);
  return lines.join('\n');
}

/**
 * The outcome of a check that found nothing, in the server's words (the part of its message after
 * "; "): the first or lowest version has nothing to be compared with, which is not "no breaking changes".
 */
function compatibilityVerdict(response: RegisterSchemaResponse__Output): string {
  const summary = response.message.includes('; ') ? response.message.slice(response.message.indexOf('; ') + 2) : '';
  const version = response.metadata?.schema_version ?? '';
  if (/no earlier version/i.test(summary)) return `No previous version to check compatibility against: ${version} is the first (or lowest) version of ${response.metadata?.schema_id ?? 'the schema'}`;
  const since = /since (\S+)$/.exec(summary);
  if (since) return `No breaking changes against the previous version ${since[1]}`;
  return summary ? `Compatibility: ${summary}` : 'No breaking changes against the previous version';
}

function responseJson(response: RegisterSchemaResponse__Output): object {
  return {
    success: response.success,
    message: response.message,
    metadata: response.metadata,
    breaking_changes: response.breaking_changes.map((change) => changeToJson(fromProtoChange(change))),
    warnings: response.warnings.map(({ code, pointer, message }) => ({ code, pointer, message })),
  };
}
