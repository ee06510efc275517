import fs from 'node:fs';
import { once } from 'node:events';
import { Command, Option, UsageError } from 'clipanion';
import { ClientCommand, connectionTimeoutOption } from '../client-command';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { MOCK_DEFAULTS, MockServer } from '../mock/mock-server';
import { parseSeconds } from '../option-values';
import { isHttpUrl, loadSchemaFrom, loadSchemaText } from '../schema-source';
import type { LoadedSchema } from '../../shared/openapi/load-document';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';

export class MockCommand extends ClientCommand {
  static override paths = [['mock']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Serve HTTP responses generated from an OpenAPI schema, to test a consumer before the producer exists',
    details: `
      Answers every operation of the schema on http://<host>:<port>. Each request is validated first: one
      that does not match the schema gets 400 with \`{"error", "violations": [...]}\`, one that matches no
      operation 404. The response is the status asked for with the \`Prefer: code=<status>\` header, else
      the operation's first success status; its body is the schema's example when there is one (\`Prefer:
      dynamic=true\` generates from the schema instead), generated like \`svc generate\` otherwise. Answers
      written by the mock itself (400, 404, 413) carry the header \`x-svc-mock-error: true\`.

      \`--schema\` is a file or an http(s) URL, or the id of a schema registered with a server (with
      \`--schema-version\`, \`--server\` and the TLS and API-key flags). Prints one line when listening; stops
      on SIGINT or SIGTERM. Exit code 0: stopped by a signal; 1: the schema could not be read or the port
      not bound; 2: usage error.
    `,
    examples: [
      ['Mock a local schema on port 4010', '$0 mock --schema openapi.yaml'],
      ['Mock a registered schema on a free port', '$0 mock --schema users-api --server svc.internal:9550 --port 0'],
    ],
  });

  schema = Option.String('-s,--schema', { required: true, description: 'Path or http(s) URL of the schema, or the id of a registered schema' });
  schemaVersion = Option.String('--schema-version', { description: 'With a registered schema id: the version (default: the latest)' });
  port = Option.String('-p,--port', String(MOCK_DEFAULTS.port), { description: `HTTP port; 0 picks a free one (default ${MOCK_DEFAULTS.port})` });
  host = Option.String('--host', MOCK_DEFAULTS.host, { description: `Address to bind (default ${MOCK_DEFAULTS.host})` });
  json = Option.Boolean('-j,--json', false, { description: 'Print the listening line as JSON ({"url", "port", "operations"})' });
  timeout = connectionTimeoutOption();

  protected override async run(): Promise<number> {
    const port = Number(this.port);
    if (!/^\d+$/.test(this.port) || port > 65535) throw new UsageError(`--port must be a port number from 0 to 65535 (got "${this.port}")`);
    const schema = await this.loadSchema();
    const mock = await MockServer.start(schema.document, { host: this.host, port });
    if (this.json) this.print(JSON.stringify({ url: mock.url, port: mock.port, operations: schema.endpointCount }));
    else this.print(`svc mock listening on ${mock.url} (${schema.endpointCount} operation${schema.endpointCount === 1 ? '' : 's'} of ${this.schema})`);

    const signal = await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]).then(() => 'stopped');
    await mock.close();
    this.context.stderr.write(`${this.commandName}: ${signal}\n`);
    return EXIT.ok;
  }

  /** A file or URL when it looks like one (or the file exists); otherwise a registered schema id. */
  private async loadSchema(): Promise<LoadedSchema> {
    if (isHttpUrl(this.schema) || fs.existsSync(this.schema) || /[/\\.]/.test(this.schema)) {
      if (this.schemaVersion !== undefined) throw new UsageError('--schema-version goes with a registered schema id, not a file');
      return loadSchemaFrom(this.schema);
    }
    const timeoutSeconds = parseSeconds('--timeout', this.timeout);
    const response = await this.withConnection(timeoutSeconds, (connection) =>
      connection.call('GetSchema', { schema_id: this.schema, schema_version: this.schemaVersion ?? '' }));
    if (!response.found) {
      throw new UnansweredError(UNANSWERED_CODES.notFound, `"${this.schema}" is neither a file nor a schema registered with the server`);
    }
    return loadSchemaText(response.schema_content, `${this.schema} ${response.metadata?.schema_version ?? ''}`.trim());
  }
}
