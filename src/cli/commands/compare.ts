import path from 'node:path';
import { Command, Option, UsageError } from 'clipanion';
import { compareDocuments } from '../../shared/compare';
import { findNonBreakingChanges } from '../../shared/compare/changelog';
import { classifyBreakingChange, type ReportedChange } from '../../shared/compare/reported-change';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { invalidArgument } from '../../shared/errors';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { describeEntry, expiredEntries, isIgnored, readIgnoreFile, type IgnoreEntry } from '../compare-ignore';
import { locateChanges, type ComparedSource } from '../compare-locations';
import { EXIT } from '../exit-codes';
import { parseChoice, parseSeconds, requireText } from '../option-values';
import { createPathFilter, keepsPath } from '../path-filter';
import { fromProtoChange } from '../reports/breaking-changes';
import { COMPARE_FORMATS, failsGate, formatCompareReport, sortBySeverity, type CompareFormat } from '../reports/compare-report';
import { isHttpUrl, loadSchemaText, readSchemaText, shownSchemaLocation } from '../schema-source';
import type { ServerConnection } from '../server-connection';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';

const FAIL_ON_LEVELS = Object.freeze(['warning', 'error'] as const);

interface Comparison {
  oldSource: ComparedSource;
  newSource: ComparedSource;
  breaking: ReportedChange[];
}

export class CompareCommand extends ClientCommand {
  static override paths = [['compare']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Compare two versions of an OpenAPI schema: breaking changes, warnings and a changelog',
    details: `
      Reports what in the new schema breaks clients of the old one, with the same engine as the server's
      CompareSchemas. Two files or http(s) URLs (\`--old\`, \`--new\`; no server needed), or two versions
      registered with a server (\`--schema\`, with \`--old-version\` (default: the one before the new one) and
      \`--new-version\` (default: the latest); \`--server\`, TLS and API-key flags as for every client command).

      Every change has a stable rule id and a severity: \`error\` for the six breaking kinds, \`warning\` for
      changes that may break (a tightened request maxLength, maximum or pattern, a response enum gaining a
      value, a newly deprecated operation), \`info\` for the rest (added endpoints, optional fields, new enum
      values), shown with \`--changelog\`. \`--fail-on warning\` also fails on warnings. \`--ignore FILE\` hides
      accepted changes (rule id, path, reason, optional expiry date; an expired entry fails the command);
      \`--include-path\`/\`--exclude-path\` keep or drop paths by glob (\`*\` within a segment, \`**\` across).

      Formats: \`text\` (a count line, then \`[<TYPE>] <description>\` with \`Old:\`/\`New:\` and \`Rule:\` lines),
      \`json\`, \`yaml\`, \`markdown\` (a pull-request comment), \`html\`, \`junit\` (CI test reports) and
      \`github\` (workflow annotations with the line in the new file). Locations are JSON pointers into the
      documents as written, Swagger 2.0 included.

      Exit code 0: compatible (nothing at or above --fail-on); 1: breaking changes found (or a schema could
      not be read); 2: usage error.
    `,
    examples: [
      ['Compare two files', '$0 compare --old api-v1.yaml --new api-v2.yaml'],
      ['Annotate a GitHub pull request', '$0 compare --old https://example.com/openapi.json --new openapi.json --format github'],
      ['The full changelog as Markdown', '$0 compare --old api-v1.yaml --new api-v2.yaml --changelog --format markdown'],
      ['Two registered versions, failing on warnings too', '$0 compare --schema users-api --old-version 1.2.0 --new-version 2.0.0 --fail-on warning'],
      ['Accepted changes and only the public paths', '$0 compare --old api-v1.yaml --new api-v2.yaml --ignore svc-ignore.yaml --exclude-path "/internal/**"'],
    ],
  });

  oldSchema = Option.String('--old', { description: 'Path or http(s) URL of the old schema (with --new)' });
  newSchema = Option.String('--new', { description: 'Path or http(s) URL of the new schema (with --old)' });
  schema = Option.String('--schema', { description: 'Compare two versions registered with the server under this schema id' });
  oldVersion = Option.String('--old-version', { description: 'With --schema: the old version (default: the one before --new-version)' });
  newVersion = Option.String('--new-version', { description: 'With --schema: the new version (default: the latest)' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output (same as --format json)' });
  format = Option.String('-f,--format', { description: `Output format: ${COMPARE_FORMATS.join(', ')} (default text)` });
  changelog = Option.Boolean('--changelog', false, { description: 'Also list the info-level changes (added endpoints, optional fields, new enum values...)' });
  failOn = Option.String('--fail-on', 'error', { description: 'Lowest severity that makes the exit code 1: warning or error (default error)' });
  ignore = Option.String('--ignore', { description: 'YAML or JSON file of accepted changes (id, path, method, reason, expires)' });
  includePath = Option.Array('--include-path', [], { description: 'Only paths matching this glob (repeatable)' });
  excludePath = Option.Array('--exclude-path', [], { description: 'Leave out paths matching this glob (repeatable)' });
  timeout = connectionTimeoutOption();

  protected override wantsJson(): boolean {
    return this.json || this.format?.toLowerCase() === 'json';
  }

  protected override async run(): Promise<number> {
    const format = this.outputFormat();
    const failOn = parseChoice('--fail-on', this.failOn, FAIL_ON_LEVELS);
    const filter = createPathFilter(this.includePath, this.excludePath);
    const ignoreEntries = this.ignore === undefined ? [] : await readIgnoreFile(this.ignore);
    failOnExpired(ignoreEntries);

    const comparison = this.schema !== undefined ? await this.compareRegistered() : await this.compareFiles();
    const nonBreaking = findNonBreakingChanges(comparison.oldSource.document, comparison.newSource.document)
      .filter((change) => this.changelog || change.severity !== 'info');
    const located = locateChanges([...comparison.breaking, ...nonBreaking], comparison.oldSource, comparison.newSource);

    const inScope = located.filter((change) => keepsPath(filter, change.path));
    const shown = inScope.filter((change) => !isIgnored(change, ignoreEntries));
    const report = {
      oldLocation: comparison.oldSource.label,
      newLocation: comparison.newSource.label,
      changes: sortBySeverity(shown),
      ignoredCount: inScope.length - shown.length,
      failOn,
      changelog: this.changelog,
      swagger2: [comparison.oldSource, comparison.newSource].some((side) => side.source?.swagger2 !== undefined),
    };
    this.context.stdout.write(formatCompareReport(report, format));
    return failsGate(report) ? EXIT.failure : EXIT.ok;
  }

  private outputFormat(): CompareFormat {
    const format = this.format === undefined ? undefined : parseChoice('--format', this.format, COMPARE_FORMATS);
    if (this.json && format !== undefined && format !== 'json') throw new UsageError(`--json and --format ${format} contradict each other`);
    return this.json ? 'json' : (format ?? 'text');
  }

  private async compareFiles(): Promise<Comparison> {
    if (this.oldSchema === undefined || this.newSchema === undefined) {
      throw new UsageError('give --old and --new (two files or URLs), or --schema (two registered versions)');
    }
    if (this.oldVersion !== undefined || this.newVersion !== undefined) throw new UsageError('--old-version and --new-version go with --schema');
    // Each side read and loaded in one promise: an old side that failed to load while the new one was
    // still being read was a rejection nobody handled yet, and Node ended the command with a stack trace.
    // Reports and messages name a URL without its credentials and query values (shownSchemaLocation).
    const [oldSource, newSource] = await Promise.all([this.oldSchema, this.newSchema].map(async (location) => {
      const shown = shownSchemaLocation(location);
      return sourceAt(shown, await readSchemaText(location), shown);
    }));
    newSource.annotationFile = isHttpUrl(this.newSchema) ? undefined : repositoryPath(this.newSchema);
    const breaking = compareDocuments(oldSource.document, newSource.document).map(classifyBreakingChange);
    return { oldSource, newSource, breaking };
  }

  /** The server compares (its engine, its versions); the two texts are fetched for the changelog and locations. */
  private async compareRegistered(): Promise<Comparison> {
    if (this.oldSchema !== undefined || this.newSchema !== undefined) throw new UsageError('--schema compares registered versions: leave out --old and --new');
    const schemaId = requireText('--schema', this.schema!);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    return this.withConnection(timeoutSeconds, async (connection) => {
      const response = await connection.call('CompareSchemas', { schema_id: schemaId, old_version: this.oldVersion ?? '', new_version: this.newVersion ?? '' });
      if (!response.old_schema || !response.new_schema) {
        throw new UnansweredError(UNANSWERED_CODES.notFound, response.message || `cannot compare versions of ${schemaId}`);
      }
      const [oldSource, newSource] = await Promise.all([
        registeredSource(connection, schemaId, response.old_schema.schema_version),
        registeredSource(connection, schemaId, response.new_schema.schema_version),
      ]);
      return { oldSource, newSource, breaking: response.breaking_changes.map((change) => classifyBreakingChange(fromProtoChange(change))) };
    });
  }
}

async function sourceAt(label: string, text: string, location: string): Promise<ComparedSource> {
  const loaded = await loadSchemaText(text, location);
  return { label, text, document: loaded.document as OpenApiDocument };
}

async function registeredSource(connection: ServerConnection, schemaId: string, version: string): Promise<ComparedSource> {
  const response = await connection.call('GetSchema', { schema_id: schemaId, schema_version: version });
  if (!response.found) throw new UnansweredError(UNANSWERED_CODES.notFound, `version ${version} of schema ${schemaId} is not registered`);
  return sourceAt(`${schemaId} ${version}`, response.schema_content, `${schemaId} ${version}`);
}

function failOnExpired(entries: readonly IgnoreEntry[]): void {
  const today = new Date().toISOString().slice(0, 10);
  const expired = expiredEntries(entries, today);
  if (expired.length === 0) return;
  const list = expired.map((entry) => `${describeEntry(entry)} (expired ${entry.expires})`).join('; ');
  throw invalidArgument(`--ignore file has ${expired.length} expired entr${expired.length === 1 ? 'y' : 'ies'}: ${list}. Fix the change or extend the date`);
}

/** GitHub wants annotation paths relative to the repository root, where workflow steps run. */
function repositoryPath(location: string): string {
  const relative = path.isAbsolute(location) ? path.relative(process.cwd(), location) : path.normalize(location);
  return relative.split(path.sep).join('/');
}
