import fs from 'node:fs/promises';
import { Command, Option, UsageError } from 'clipanion';
import { invalidArgument } from '../../shared/errors';
import { generateRequest, generateRequestBody, generateResponse, type FixtureRequestSpec, type GeneratedResponseRecord } from '../../shared/fixture-generator';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { listOperations } from '../../shared/openapi/operations';
import type { JsonValue } from '../../shared/json';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { parseChoice, parseStatusCode } from '../option-values';
import { loadSchemaFrom } from '../schema-source';
import { AnsweringCommand } from '../answering-command';

const OUTPUT_TYPES = Object.freeze(['fixture', 'request', 'response'] as const);
type OutputType = (typeof OUTPUT_TYPES)[number];

export class GenerateCommand extends AnsweringCommand {
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
      and one \`<METHOD> <path>\` line per endpoint (with \`--json\`: an array of \`{method, path, operation_id, summary}\`).

      Media types are chosen per body: the request body's with \`--request-content-type\`, the response's with
      \`--response-content-type\` (\`--content-type\` sets both). Left out, each body takes JSON when the
      operation offers it, else the first type the generator can write (a form-only request body is
      written as \`application/x-www-form-urlencoded\`).

      Exit code 0: written; 1: the operation, status or media type does not exist, or the schema could not be
      read; 2: usage error.
    `,
    examples: [
      ['List the endpoints of a schema', '$0 generate --schema openapi.yaml --list'],
      ['List the endpoints as JSON', '$0 generate --schema openapi.yaml --list --json'],
      ['A form-encoded request with a JSON response', '$0 generate -s openapi.yaml -m POST -p /charges --request-content-type application/x-www-form-urlencoded'],
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
  contentType = Option.String('--content-type', { description: 'Media type of both bodies (default: chosen per body; see --request-content-type)' });
  requestContentType = Option.String('--request-content-type', { description: 'Media type of the request body (default: JSON when offered, else the first writable type)' });
  responseContentType = Option.String('--response-content-type', { description: 'Media type of the response body (default: JSON when offered, else the first writable type)' });
  json = Option.Boolean('-j,--json', false, { description: 'With --list: the endpoints as a JSON array' });
  output = Option.String('-o,--output', { description: 'Write to this file instead of stdout' });

  protected override async run(): Promise<number> {
    if (this.list) {
      const { document } = await loadSchemaFrom(this.schema);
      const operations = listOperations(document);
      const text = this.json
        ? `${JSON.stringify(operations.map((op) => ({ method: op.method, path: op.path, operation_id: op.operationId, summary: op.summary })), null, 2)}\n`
        : `${[`Endpoints in ${this.schema} (${operations.length}):`, ...operations.map((op) => `${op.method} ${op.path}`)].join('\n')}\n`;
      await this.emit(text, 'endpoint list');
      return EXIT.ok;
    }
    if (this.json) throw new UsageError('--json goes with --list (fixtures are JSON already)');

    if (this.method === undefined || this.templatePath === undefined) {
      throw new UsageError('--method and --path are required to generate a fixture (or use --list)');
    }
    const outputType = parseChoice('--output-type', this.outputType, OUTPUT_TYPES);
    const statusCode = parseStatusCode('--status-code', this.statusCode, { allowZero: true });
    const method = this.method.toUpperCase();
    const { document } = await loadSchemaFrom(this.schema);
    const spec: FixtureRequestSpec = { method, path: this.templatePath, statusCode, useExamples: this.useExamples };
    const mediaTypes = this.mediaTypes();
    const value = generateOutput(document, spec, mediaTypes, outputType);
    await this.emit(`${JSON.stringify(value, null, 2)}\n`, outputType === 'request' ? 'request body' : outputType);
    return EXIT.ok;
  }

  /** '' lets the generator choose (JSON first, then what it can write). */
  private mediaTypes(): BodyMediaTypes {
    if (this.contentType !== undefined && (this.requestContentType !== undefined || this.responseContentType !== undefined)) {
      throw new UsageError('--content-type sets both media types: give it alone, or --request-content-type and --response-content-type');
    }
    return {
      request: this.requestContentType ?? this.contentType ?? '',
      response: this.responseContentType ?? this.contentType ?? '',
    };
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

interface BodyMediaTypes {
  request: string;
  response: string;
}

/** The spec's shapes: bodies as JSON values; a fixture request without a body has no `body` key. */
function generateOutput(document: OpenApiDocument, spec: FixtureRequestSpec, mediaTypes: BodyMediaTypes, outputType: OutputType): JsonValue {
  const requestSpec = { ...spec, contentType: mediaTypes.request };
  const responseSpec = { ...spec, contentType: mediaTypes.response };
  switch (outputType) {
    case 'fixture': {
      const request = generateRequest(document, requestSpec);
      const response = generateResponse(document, responseSpec);
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
      const body = generateRequestBody(document, requestSpec);
      if (body === '') throw invalidArgument(`${spec.method} ${spec.path} takes no request body (use --output-type fixture for the whole request)`);
      return bodyValue(body);
    }
    case 'response':
      return responseValue(generateResponse(document, responseSpec));
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
