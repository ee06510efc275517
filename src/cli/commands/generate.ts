import fs from 'node:fs/promises';
import { Command, Option, UsageError } from 'clipanion';
import { invalidArgument } from '../../shared/errors';
import { generateFixture, generateRequestBody, generateResponse, type FixtureRequestSpec, type GeneratedResponseRecord } from '../../shared/fixture-generator';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { listOperations } from '../../shared/openapi/operations';
import type { JsonValue } from '../../shared/json';
import { CLI_DEFAULTS } from '../defaults';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseChoice, parseStatusCode } from '../option-values';
import { loadSchemaFrom } from '../schema-source';
import { SvcCommand } from '../svc-command';

const OUTPUT_TYPES = Object.freeze(['fixture', 'request', 'response'] as const);
type OutputType = (typeof OUTPUT_TYPES)[number];

export class GenerateCommand extends SvcCommand {
  static override paths = [['generate']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Generate a test fixture from an OpenAPI schema, or list its endpoints, locally (no server)',
    details: `
      Builds a request/response pair for one operation with the same engine as the server's
      GenerateFixture: valid against the schema, and the same every time for the same input.

      Output types: \`fixture\` (\`{"request": {method, path, headers, body}, "response": {statusCode, headers, body}}\`,
      bodies as JSON values), \`request\` (the request body only) and \`response\` (\`{statusCode, headers, body}\`).
      \`--status-code 0\` picks the first success status the operation defines. \`--list\` prints a header line
      and one \`<METHOD> <path>\` line per endpoint. Exit code 0: written; 1: the operation or status does not
      exist or the schema could not be read; 2: usage error.
    `,
    examples: [
      ['List the endpoints of a schema', '$0 generate --schema openapi.yaml --list'],
      ['Generate a fixture for one operation', '$0 generate -s openapi.yaml -m GET -p /users/{id}'],
      ['Write the 404 response to a file, ignoring schema examples', '$0 generate -s openapi.yaml -m GET -p /users/{id} -t response --status-code 404 --no-use-examples -o user-404.json'],
    ],
  });

  schema = Option.String('-s,--schema', { required: true, description: 'Path or http(s) URL of the OpenAPI schema (JSON or YAML)' });
  list = Option.Boolean('-l,--list', false, { description: 'List the endpoints and exit' });
  method = Option.String('-m,--method', { description: 'HTTP method (required to generate)' });
  templatePath = Option.String('-p,--path', { description: 'Path template as written in the schema, e.g. /users/{id} (required to generate)' });
  outputType = Option.String('-t,--output-type', 'fixture', { description: `What to print: ${OUTPUT_TYPES.join(', ')} (default fixture)` });
  statusCode = Option.String('--status-code', '0', { description: 'Response status; 0 means the first success status (default 0)' });
  useExamples = Option.Boolean('--use-examples', true, { description: 'Use schema examples when available (default true; --no-use-examples to turn off)' });
  contentType = Option.String('--content-type', CLI_DEFAULTS.contentType, { description: `Media type of the bodies (default ${CLI_DEFAULTS.contentType})` });
  output = Option.String('-o,--output', { description: 'Write to this file instead of stdout' });

  protected override async run(): Promise<number> {
    if (this.list) {
      const { document } = await loadSchemaFrom(this.schema);
      const operations = listOperations(document);
      const lines = [`Endpoints in ${this.schema} (${operations.length}):`, ...operations.map((op) => `${op.method} ${op.path}`)];
      await this.emit(`${lines.join('\n')}\n`, 'endpoint list');
      return EXIT.ok;
    }

    if (this.method === undefined || this.templatePath === undefined) {
      throw new UsageError('--method and --path are required to generate a fixture (or use --list)');
    }
    const outputType = parseChoice('--output-type', this.outputType, OUTPUT_TYPES);
    const statusCode = parseStatusCode('--status-code', this.statusCode, { allowZero: true });
    const method = this.method.toUpperCase();
    const { document } = await loadSchemaFrom(this.schema);
    const spec: FixtureRequestSpec = {
      method,
      path: this.templatePath,
      statusCode,
      useExamples: this.useExamples,
      contentType: this.contentType,
    };
    const value = generateOutput(document, spec, outputType);
    await this.emit(`${JSON.stringify(value, null, 2)}\n`, outputType === 'request' ? 'request body' : outputType);
    return EXIT.ok;
  }

  private async emit(text: string, what: string): Promise<void> {
    if (this.output === undefined) {
      this.context.stdout.write(text);
      return;
    }
    try {
      await fs.writeFile(this.output, text);
    } catch (error) {
      throw invalidArgument(`cannot write ${this.output}: ${(error as Error).message}`);
    }
    this.print(`Wrote the ${what} to ${this.output}`);
  }
}

/** The spec's shapes: bodies as JSON values; a fixture request without a body has no `body` key. */
function generateOutput(document: OpenApiDocument, spec: FixtureRequestSpec, outputType: OutputType): JsonValue {
  switch (outputType) {
    case 'fixture': {
      const { request, response } = generateFixture(document, spec);
      return {
        request: {
          method: request.method,
          path: request.path,
          headers: request.headers,
          ...(request.body === '' ? {} : { body: bodyValue(request.body) }),
        },
        response: responseValue(response),
      };
    }
    case 'request': {
      const body = generateRequestBody(document, spec);
      if (body === '') throw invalidArgument(`${spec.method} ${spec.path} takes no request body (use --output-type fixture for the whole request)`);
      return bodyValue(body);
    }
    case 'response':
      return responseValue(generateResponse(document, spec));
  }
}

function responseValue(response: GeneratedResponseRecord): JsonValue {
  return { statusCode: response.statusCode, headers: response.headers, body: bodyValue(response.body) };
}

/** JSON text as a value; a body in another media type (text/plain) stays a string. */
function bodyValue(body: string): JsonValue {
  if (body === '') return null;
  try {
    return JSON.parse(body) as JsonValue;
  } catch {
    return body;
  }
}
