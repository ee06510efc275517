import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option, UsageError } from 'clipanion';
import type { CanIDeployResponse__Output } from '@svc/client/protocol';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseChoice, parseSeconds, requireText } from '../option-values';
import { canIDeployJson, canIDeployTable, canIDeployText, type DeployQuestion } from '../reports/can-i-deploy-report';
import { RpcError, type ServerConnection } from '../server-connection';
import { describeFailure } from '../failure';
import { readSchemaText } from '../schema-source';

const OUTPUT_STYLES = Object.freeze(['table', 'text'] as const);

/** Most retries `--retry-while-unknown` accepts: with the longest interval, about a day of waiting. */
const MAX_RETRIES = 1000;
const DEFAULT_RETRY_INTERVAL_SECONDS = 10;

export class CanIDeployCommand extends ClientCommand {
  static override paths = [['can-i-deploy']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Ask the server whether a schema version can be deployed without breaking registered consumers',
    details: `
      Compares the new version with the one before it and checks every consumer registered for the schema
      in the environment: a consumer breaks when a breaking change touches an endpoint it uses.
      Prints the breaking changes, each consumer with its impact (BREAKING or None) and the reason (the
      changes that touch it), and a recommendation. With no consumers registered the answer is safe.

      Output: a table of consumers when stdout is a terminal, plain text otherwise (\`--output\` chooses);
      \`--json\` for the response fields in snake_case.

      \`--retry-while-unknown N\` asks again up to N times, \`--retry-interval\` seconds apart (default
      ${DEFAULT_RETRY_INTERVAL_SECONDS}), while the schema or version is not registered yet (a pipeline that
      registers it in a parallel job). \`--dry-run\` prints the answer and exits 0 whatever it is.

      The changes are counted from the version recorded as deployed in the environment (record-deployment),
      else from the previous version; the summary and \`--json\` (\`compared_with\`) say which. An environment
      the server does not know is an error, never "safe". \`--fail-if-no-consumers\` makes "no consumers
      registered" unsafe. \`--file candidate.yaml\` checks a document that is not registered yet (check
      before publishing); \`--version\` then names its version (default: its info.version).

      With recorded traffic (docs/evidence.md) each consumer's recorded interactions are replayed against the
      version and the report shows how many, and the ones that fail. \`--include-observed\` adds consumers
      seen only in traffic; \`--field-level\` sets aside response changes none of a consumer's used fields
      reaches (listed as not relevant).

      Exit code 0: safe to deploy (or --dry-run); 1: unsafe, or the question could not be answered (server
      unreachable, unknown schema or version; see --unknown-exit-code); 2: usage error.
    `,
    examples: [
      ['Gate a production deploy', '$0 can-i-deploy --schema users-api --version 2.0.0 --env prod'],
      ['Against a remote server over TLS, JSON output', '$0 can-i-deploy --schema users-api --version 2.0.0 --env staging --server svc.internal:9550 --tls --json'],
      ['Wait up to 5 minutes for the version to be registered', '$0 can-i-deploy --schema users-api --version 2.0.0 --env prod --retry-while-unknown 30 --retry-interval 10'],
      ['See the answer without gating', '$0 can-i-deploy --schema users-api --version 2.0.0 --env prod --dry-run'],
      ['Check a candidate before publishing it; no consumers is a failure', '$0 can-i-deploy --schema users-api --file openapi.yaml --env prod --fail-if-no-consumers'],
    ],
  });

  schema = Option.String('--schema', { required: true, description: 'Schema id' });
  version = Option.String('--version', { description: 'The new schema version to deploy (required unless --file is given)' });
  file = Option.String('--file', { description: 'A candidate document (path or URL) to check without registering it' });
  failIfNoConsumers = Option.Boolean('--fail-if-no-consumers', false, { description: 'Unsafe when no consumers are registered in the environment' });
  includeObserved = Option.Boolean('--include-observed', false, { description: 'Consumers seen in recorded traffic without a registration take part too' });
  fieldLevel = Option.Boolean('--field-level', false, { description: 'A response change no used field of a consumer reaches does not break it' });
  env = Option.String('--env', { required: true, description: 'Target environment (dev, staging, prod, ...)' });
  json = Option.Boolean('-j,--json', false, { description: 'JSON output with the response fields in snake_case' });
  output = Option.String('-o,--output', { description: 'table (default in a terminal) or text (default otherwise)' });
  retryWhileUnknown = Option.String('--retry-while-unknown', '0', { description: 'Ask again up to this many times while the schema or version is not registered (default 0)' });
  retryInterval = Option.String('--retry-interval', String(DEFAULT_RETRY_INTERVAL_SECONDS), { description: `Seconds between two tries (default ${DEFAULT_RETRY_INTERVAL_SECONDS})` });
  dryRun = Option.Boolean('--dry-run', false, { description: 'Print the answer and exit 0 whatever it is' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const question: DeployQuestion = {
      schemaId: requireText('--schema', this.schema),
      version: this.version === undefined ? candidateVersion(this.file) : requireText('--version', this.version),
      environment: requireText('--env', this.env),
    };
    const file = this.file;
    const candidate = file === undefined ? '' : await readSchemaText(file);
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const retries = parseRetries(this.retryWhileUnknown);
    const intervalMs = parseSeconds('--retry-interval', this.retryInterval) * 1000;
    const style = this.outputStyle();

    let answer: CanIDeployResponse__Output;
    try {
      answer = await this.withConnection(timeoutSeconds, (connection) => this.ask(connection, question, retries, intervalMs, candidate));
    } catch (error) {
      if (!this.dryRun) throw error;
      // A dry run reports what it could not learn and still exits 0: it never gates.
      const failure = describeFailure(error, this.commandName);
      this.printError(`[dry run] ${failure.message}`);
      if (this.json) this.printJson({ dry_run: true, error: { code: failure.code, message: failure.message } });
      return EXIT.ok;
    }

    question.version ||= answer.checked_version;
    const baseline = { checked_version: answer.checked_version, compared_with: answer.compared_with, compared_with_version: answer.compared_with_version };
    if (this.json) this.printJson({ ...canIDeployJson(question, answer), ...baseline, ...(this.dryRun ? { dry_run: true } : {}) });
    else this.context.stdout.write(`${this.dryRun ? '[dry run] the exit code is 0 whatever the verdict\n' : ''}${style === 'table' ? canIDeployTable(question, answer) : canIDeployText(question, answer)}`);
    if (this.dryRun) return EXIT.ok;
    return answer.safe_to_deploy ? EXIT.ok : EXIT.failure;
  }

  /** Asks, and while the answer is NOT_FOUND (schema or version not registered yet) asks again, up to `retries` times. */
  private async ask(connection: ServerConnection, question: DeployQuestion, retries: number, intervalMs: number, candidate: string): Promise<CanIDeployResponse__Output> {
    const request = {
      schema_id: question.schemaId, new_version: question.version, environment: question.environment,
      candidate_content: candidate, fail_if_no_consumers: this.failIfNoConsumers,
      include_observed: this.includeObserved, field_level_impact: this.fieldLevel,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await connection.call('CanIDeploy', request);
      } catch (error) {
        if (!(error instanceof RpcError) || error.code !== 'NOT_FOUND' || attempt >= retries) throw error;
        if (!this.json) this.printError(`${error.message}; asking again in ${intervalMs / 1000} s (${attempt + 1}/${retries})`);
        await sleep(intervalMs);
      }
    }
  }

  private outputStyle(): (typeof OUTPUT_STYLES)[number] {
    if (this.output !== undefined) {
      if (this.json) throw new UsageError('--json and --output contradict each other');
      return parseChoice('--output', this.output, OUTPUT_STYLES);
    }
    return (this.context.stdout as { isTTY?: boolean }).isTTY ? 'table' : 'text';
  }
}

/** Without --version a candidate file's version comes from its info.version; without either there is no question. */
function candidateVersion(file: string | undefined): string {
  if (file === undefined) throw new UsageError('--version is required (or --file with a candidate document to check before publishing it)');
  return '';
}

function parseRetries(value: string): number {
  const retries = Number(value);
  if (!/^\d+$/.test(value.trim()) || retries > MAX_RETRIES) {
    throw new UsageError(`--retry-while-unknown must be a whole number from 0 to ${MAX_RETRIES} (got "${value}")`);
  }
  return retries;
}
