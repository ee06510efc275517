import { Command, Option } from 'clipanion';
import type { GetCoverageResponse__Output, StatusCoverage__Output } from '@svc/client/protocol';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseChoice, parseSeconds, requireText } from '../option-values';
import { formatTable } from '../reports/table';

const FORMATS = Object.freeze(['text', 'json', 'markdown'] as const);
type CoverageFormat = (typeof FORMATS)[number];

export class CoverageCommand extends ClientCommand {
  static override paths = [['coverage']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Show which operations and documented status codes recorded traffic exercised',
    details: `
      For each operation of the schema's latest version (or \`--version\`) and each documented status code:
      how many recorded interactions exercised it, when last, and by which consumers. Statuses never
      exercised show a count of 0; undocumented statuses seen in traffic are listed and marked. The last
      line is the coverage: documented (operation, status) pairs exercised, of all. \`--env\` limits it to
      the traffic recorded in one environment (default: every environment).

      Traffic is recorded by the middleware and capture adapters with their \`recordInteractions\` option
      (docs/evidence.md).

      \`--format json\` prints the response fields in snake_case; \`--format markdown\` a table for a pull
      request or a wiki.

      Exit code 0: shown; 1: unknown schema or version, or server unreachable; 2: usage error.
    `,
    examples: [
      ['Coverage of users-api in production', '$0 coverage --schema users-api --env prod'],
      ['Of one version, as Markdown', '$0 coverage --schema users-api --version 1.2.0 --format markdown'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  version = Option.String('-v,--version', { description: 'Schema version (default: the latest)' });
  env = Option.String('--env', { description: 'Only the traffic recorded in this environment (default: every environment)' });
  format = Option.String('-f,--format', 'text', { description: 'text (default), json or markdown' });
  timeout = connectionTimeoutOption();

  protected override wantsJson(): boolean {
    return this.format?.toLowerCase() === 'json';
  }

  protected override async run(): Promise<number> {
    const schemaId = requireText('--schema', this.schema);
    const format = parseChoice('--format', this.format, FORMATS);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const coverage = await this.withConnection(timeoutSeconds, (connection) => connection.call('GetCoverage', {
      schema_id: schemaId,
      schema_version: this.version === undefined ? '' : requireText('--version', this.version),
      environment: this.env === undefined ? '' : requireText('--env', this.env),
    }));
    this.print(renderCoverage(coverage, format));
    return EXIT.ok;
  }
}

export function renderCoverage(coverage: GetCoverageResponse__Output, format: CoverageFormat): string {
  if (format === 'json') return JSON.stringify(coverageJson(coverage), null, 2);
  const rows = coverage.operations.flatMap((operation) => operation.statuses.map((status) => [
    operation.method,
    operation.path,
    `${status.status}${status.documented ? '' : ' (undocumented)'}`,
    String(Number(status.call_count)),
    Number(status.last_seen) === 0 ? '-' : new Date(Number(status.last_seen) * 1000).toISOString(),
    consumersCell(status),
  ]));
  const headers = ['METHOD', 'PATH', 'STATUS', 'CALLS', 'LAST SEEN', 'CONSUMERS'];
  const scope = `${coverage.schema_id} ${coverage.schema_version}, ${coverage.environment === '' ? 'every environment' : `environment ${coverage.environment}`}`;
  const total = `Coverage: ${coverage.exercised_statuses}/${coverage.documented_statuses} documented statuses exercised (${coverage.coverage_percent}%)`;
  const consumers = `Consumers: ${coverage.consumers.length === 0 ? 'none recorded' : coverage.consumers.join(', ')}`;
  if (format === 'markdown') {
    const line = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
    return [`### Contract coverage: ${scope}`, '', line(headers), line(headers.map(() => '---')), ...rows.map(line), '', `**${total}**`, '', consumers].join('\n');
  }
  return [`Contract coverage of ${scope}`, '', formatTable(headers, rows).trimEnd(), '', total, consumers].join('\n');
}

function consumersCell(status: StatusCoverage__Output): string {
  if (status.consumers.length === 0) return '-';
  return status.consumers.map((consumer) => `${consumer.consumer_id} (${Number(consumer.call_count)}${consumer.environment ? `, ${consumer.environment}` : ''})`).join(', ');
}

function coverageJson(coverage: GetCoverageResponse__Output): object {
  return {
    schema_id: coverage.schema_id,
    schema_version: coverage.schema_version,
    environment: coverage.environment,
    operations: coverage.operations.map((operation) => ({
      method: operation.method,
      path: operation.path,
      operation_id: operation.operation_id,
      call_count: Number(operation.call_count),
      statuses: operation.statuses.map((status) => ({
        status: status.status,
        documented: status.documented,
        call_count: Number(status.call_count),
        last_seen: Number(status.last_seen),
        consumers: status.consumers.map((consumer) => ({
          consumer_id: consumer.consumer_id, call_count: Number(consumer.call_count), last_seen: Number(consumer.last_seen), environment: consumer.environment,
        })),
      })),
    })),
    exercised_statuses: coverage.exercised_statuses,
    documented_statuses: coverage.documented_statuses,
    coverage_percent: coverage.coverage_percent,
    consumers: coverage.consumers,
  };
}
