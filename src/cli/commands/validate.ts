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
import { SvcCommand } from '../svc-command';

/** Spec: `--status-code` defaults to 200. */
const DEFAULT_STATUS_CODE = 200;

export class ValidateCommand extends SvcCommand {
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

      The schema is a file or an http(s) URL, JSON or YAML. Exit code 0: valid; 1: invalid (each error on its own line) or the check could not run; 2: usage error.
    `,
    examples: [
      ['Validate a captured interaction', '$0 validate --schema openapi.yaml --interaction interaction.json'],
      ['Validate separate request and response files', '$0 validate -s openapi.yaml --request request.json --response response.json'],
      ['Validate from flags, JSON output', `$0 validate -s openapi.yaml -m GET -p /users/42 --response-body '{"id":42,"name":"Ada"}' --json`],
    ],
  });

  schema = Option.String('-s,--schema', { required: true, description: 'Path or http(s) URL of the OpenAPI schema (JSON or YAML)' });
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
    const readInput = this.inputReader();
    const [input, schema] = await Promise.all([readInput(), loadSchemaFrom(this.schema)]);
    const result = new CompiledContract(schema.document).validateInteraction(input);

    if (this.json) {
      this.printJson({ valid: result.valid, errors: result.errors });
    } else {
      const subject = `${input.request.method} ${input.request.path}, status ${input.response.statusCode}`;
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
