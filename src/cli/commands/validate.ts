import { Command, Option, UsageError } from 'clipanion';
import { CompiledContract } from '../../shared/validation';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import {
  interactionFromFlags,
  readInteractionFile,
  readRequestAndResponseFiles,
  type Interaction,
} from '../interaction-input';
import { parseJsonOption, parseStatusCode } from '../option-values';
import { loadSchemaFrom } from '../schema-source';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import type { ServerConnection } from '../server-connection';
import { parseSeconds } from '../option-values';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';

interface ValidationVerdict {
  valid: boolean;
  errors: string[];
  /** The registered version validated against (server mode only). */
  version?: string;
}

/** Spec: `--status-code` defaults to 200. */
const DEFAULT_STATUS_CODE = 200;

export class ValidateCommand extends ClientCommand {
  static override paths = [['validate']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Validate one HTTP interaction against an OpenAPI schema, locally (no server)',
    details: `
      Checks the request and the response with the same engine as the server's ValidateInteraction.
      Give the interaction in one of three forms:

      - \`--interaction <file>\`: one JSON file \`{"request": {method, path, headers, body}, "response": {statusCode, headers, body}}\`, bodies as JSON values;
      - \`--request <file> --response <file>\`: \`{method, path, headers, body}\` and \`{status_code, headers, body}\`, the response body a string holding JSON;
      - flags: \`--method\` and \`--path\`, with \`--request-body\`, \`--status-code\` (default 200) and \`--response-body\`.

      The schema is a file or an http(s) URL, JSON or YAML (\`--schema\`), or a version registered with a
      server (\`--schema-id\`, with \`--schema-version\` or the latest; \`--server\`, TLS and API-key flags as for
      every client command): the server's ValidateInteraction then does the check.

      Exit code 0: valid; 1: invalid (each error on its own line) or the check could not run; 2: usage error.
    `,
    examples: [
      ['Validate a captured interaction', '$0 validate --schema openapi.yaml --interaction interaction.json'],
      ['Validate separate request and response files', '$0 validate -s openapi.yaml --request request.json --response response.json'],
      ['Validate from flags, JSON output', `$0 validate -s openapi.yaml -m GET -p /users/42 --response-body '{"id":42,"name":"Ada"}' --json`],
      ['Validate against the version registered on a server', '$0 validate --schema-id users-api --server svc.internal:9550 --interaction interaction.json'],
    ],
  });

  schema = Option.String('-s,--schema', { description: 'Path or http(s) URL of the OpenAPI schema (JSON or YAML); or --schema-id' });
  schemaId = Option.String('--schema-id', { description: 'Validate against this schema registered with the server instead of a file' });
  schemaVersion = Option.String('--schema-version', { description: 'With --schema-id: the registered version (default: the latest)' });
  timeout = connectionTimeoutOption();
  interaction = Option.String('-i,--interaction', { description: 'Combined interaction JSON file (request and response)' });
  request = Option.String('--request', { description: 'Request JSON file (with --response)' });
  response = Option.String('--response', { description: 'Response JSON file (with --request)' });
  method = Option.String('-m,--method', { description: 'HTTP method (with --path)' });
  requestPath = Option.String('-p,--path', { description: 'Request path with real values, e.g. /users/42 (with --method)' });
  requestBody = Option.String('--request-body', { description: 'Request body as a JSON string' });
  statusCode = Option.String('--status-code', { description: 'Response status code (default 200)' });
  responseBody = Option.String('--response-body', { description: 'Response body as a JSON string' });
  json = Option.Boolean('-j,--json', false, { description: 'Print the result as JSON ({"valid", "errors"})' });

  protected override async run(): Promise<number> {
    if (this.schema === undefined && this.schemaId === undefined) throw new UsageError('missing required option --schema (or --schema-id for a registered schema)');
    if (this.schema !== undefined && this.schemaId !== undefined) throw new UsageError('--schema and --schema-id contradict each other: give one');
    if (this.schemaVersion !== undefined && this.schemaId === undefined) throw new UsageError('--schema-version goes with --schema-id');
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const readInput = this.inputReader();
    const input = await readInput();
    const result = this.schemaId !== undefined
      ? await this.withConnection(timeoutSeconds, (connection) => validateOnServer(connection, this.schemaId!, this.schemaVersion ?? '', input))
      : validateLocally(await loadSchemaFrom(this.schema!), input);

    if (this.json) {
      this.printJson({ valid: result.valid, errors: result.errors, ...(result.version ? { validated_against_version: result.version } : {}) });
    } else {
      const against = result.version ? ` against ${this.schemaId} ${result.version}` : '';
      const subject = `${input.request.method} ${input.request.path}, status ${input.response.statusCode}${against}`;
      const count = result.errors.length;
      this.print(result.valid
        ? `Validation passed (${subject})`
        : [`Validation failed (${subject}): ${count} error${count === 1 ? '' : 's'}`, ...result.errors.map((error) => `  ${error}`)].join('\n'));
    }
    return result.valid ? EXIT.ok : EXIT.failure;
  }

  /** Checks which input form was given (a usage error unless exactly one) before anything is read. */
  private inputReader(): () => Promise<Interaction> {
    const flagsGiven = [this.method, this.requestPath, this.requestBody, this.statusCode, this.responseBody].some((value) => value !== undefined);
    const forms = [this.interaction !== undefined, this.request !== undefined || this.response !== undefined, flagsGiven];
    const formCount = forms.filter(Boolean).length;
    if (formCount !== 1) {
      const problem = formCount === 0 ? 'no interaction given' : 'more than one input form given';
      throw new UsageError(`${problem}: use --interaction <file>, or --request <file> with --response <file>, or --method with --path`);
    }
    if (this.interaction !== undefined) {
      const file = this.interaction;
      return () => readInteractionFile(file);
    }
    if (this.request !== undefined || this.response !== undefined) {
      if (this.request === undefined || this.response === undefined) throw new UsageError('--request and --response go together');
      const [requestFile, responseFile] = [this.request, this.response];
      return () => readRequestAndResponseFiles(requestFile, responseFile);
    }
    if (this.method === undefined || this.requestPath === undefined) throw new UsageError('--method and --path go together');
    const flags = {
      method: this.method,
      path: this.requestPath,
      requestBody: this.requestBody === undefined ? undefined : parseJsonOption('--request-body', this.requestBody),
      statusCode: this.statusCode === undefined ? DEFAULT_STATUS_CODE : parseStatusCode('--status-code', this.statusCode, { allowZero: false }),
      responseBody: this.responseBody === undefined ? undefined : parseJsonOption('--response-body', this.responseBody),
    };
    return async () => interactionFromFlags(flags);
  }
}

function validateLocally(schema: Awaited<ReturnType<typeof loadSchemaFrom>>, input: Interaction): ValidationVerdict {
  const contract = new CompiledContract(schema.document);
  try {
    return contract.validateInteraction(input);
  } finally {
    contract.close();
  }
}

/** The spec's message shapes for a schema or version the server does not know (returned as a result, not a status). */
const NOT_REGISTERED = /^(Schema not found: |schema version not found$)/;

async function validateOnServer(connection: ServerConnection, schemaId: string, schemaVersion: string, input: Interaction): Promise<ValidationVerdict> {
  const result = await connection.call('ValidateInteraction', {
    schema_id: schemaId,
    schema_version: schemaVersion,
    request: { method: input.request.method, path: input.request.path, headers: input.request.headers, body: input.request.body },
    response: { status_code: input.response.statusCode, headers: input.response.headers, body: input.response.body },
  });
  if (!result.valid && result.validated_against_version === '' && result.errors.length === 1 && NOT_REGISTERED.test(result.errors[0]!)) {
    throw new UnansweredError(UNANSWERED_CODES.notFound, `${result.errors[0]} (${schemaId}${schemaVersion ? ` ${schemaVersion}` : ''})`);
  }
  return { valid: result.valid, errors: result.errors, version: result.validated_against_version };
}
