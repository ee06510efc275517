import path from 'node:path';
import { Command, Option, UsageError } from 'clipanion';
import { compareDocuments } from '../../shared/compare';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseChoice } from '../option-values';
import { COMPARE_FORMATS, formatCompareReport, type CompareFormat } from '../reports/compare-report';
import { isHttpUrl, loadSchemaFrom } from '../schema-source';
import { SvcCommand } from '../svc-command';

export class CompareCommand extends SvcCommand {
  static override paths = [['compare']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Compare two versions of an OpenAPI schema for breaking changes, locally (no server)',
    details: `
      Reports what in the new schema breaks clients of the old one, with the same engine as the server's
      CompareSchemas: removed endpoints, new required fields and parameters, incompatible type changes,
      incompatible response changes, removed enum values. Each schema is a file or an http(s) URL, JSON or YAML.

      Formats: \`text\` (a count line, then \`[<TYPE>] <description>\` with \`Old:\`/\`New:\` lines), \`json\`,
      \`markdown\` (for a pull-request comment) and \`github\` (workflow annotations). Exit code 0: compatible;
      1: breaking changes found (or a schema could not be read); 2: usage error.
    `,
    examples: [
      ['Compare two files', '$0 compare --old api-v1.yaml --new api-v2.yaml'],
      ['Annotate a GitHub pull request', '$0 compare --old https://example.com/openapi.json --new openapi.json --format github'],
      ['JSON output', '$0 compare --old api-v1.yaml --new api-v2.yaml --json'],
    ],
  });

  oldSchema = Option.String('--old', { required: true, description: 'Path or http(s) URL of the old schema' });
  newSchema = Option.String('--new', { required: true, description: 'Path or http(s) URL of the new schema' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output (same as --format json)' });
  format = Option.String('-f,--format', { description: `Output format: ${COMPARE_FORMATS.join(', ')} (default text)` });

  protected override async run(): Promise<number> {
    const format = this.outputFormat();
    const [oldSchema, newSchema] = await Promise.all([loadSchemaFrom(this.oldSchema), loadSchemaFrom(this.newSchema)]);
    const changes = await compareDocuments(oldSchema.document, newSchema.document);
    this.context.stdout.write(formatCompareReport(changes, format, {
      oldLocation: this.oldSchema,
      newLocation: this.newSchema,
      annotationFile: isHttpUrl(this.newSchema) ? undefined : repositoryPath(this.newSchema),
    }));
    return changes.length === 0 ? EXIT.ok : EXIT.failure;
  }

  private outputFormat(): CompareFormat {
    const format = this.format === undefined ? undefined : parseChoice('--format', this.format, COMPARE_FORMATS);
    if (this.json && format !== undefined && format !== 'json') throw new UsageError(`--json and --format ${format} contradict each other`);
    return this.json ? 'json' : (format ?? 'text');
  }
}

/** GitHub wants annotation paths relative to the repository root, where workflow steps run. */
function repositoryPath(location: string): string {
  const relative = path.isAbsolute(location) ? path.relative(process.cwd(), location) : path.normalize(location);
  return relative.split(path.sep).join('/');
}
