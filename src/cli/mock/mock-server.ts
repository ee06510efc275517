/**
 * `svc mock`: an HTTP server that answers every operation of a document with a response generated from
 * it, so a consumer can test against the contract before the producer exists (Prism's mock mode).
 * Each request is first validated against the document (the validation engine, in process): an
 * invalid one gets 400 with the violations, an unknown route 404. Then the fixture generator writes the
 * response: the status asked for with `Prefer: code=404`, else the first success; the document's
 * examples when present (`Prefer: dynamic=true` generates from the schema instead).
 */
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { generateResponse } from '../../shared/fixture-generator';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { routingPathPrefixes, stripServerPrefix } from '../../shared/openapi/servers';
import { CompiledContract, DEFAULT_CONTRACT_OPTIONS } from '../../shared/validation';
import { buildRouteTable, type RouteTable } from '../../shared/validation/route-table';

export interface MockServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Largest request body read; a larger one is answered 413. */
  maxBodyBytes: number;
}

export const MOCK_DEFAULTS: Readonly<MockServerOptions> = Object.freeze({
  host: '127.0.0.1',
  port: 4010,
  maxBodyBytes: 1024 * 1024, // 1 MiB
});

/** Header on every answer that the mock itself wrote (not the document): 400, 404, 413, refusals. */
export const MOCK_ERROR_HEADER = 'x-svc-mock-error';

interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class MockServer {
  readonly #document: OpenApiDocument;
  readonly #contract: CompiledContract;
  readonly #routes: RouteTable;
  readonly #prefixes: readonly string[];
  readonly #options: MockServerOptions;
  readonly #server: http.Server;
  #closed: Promise<void> | undefined;

  private constructor(document: OpenApiDocument, options: MockServerOptions) {
    this.#document = document;
    this.#options = options;
    this.#contract = new CompiledContract(document);
    this.#routes = buildRouteTable(document, DEFAULT_CONTRACT_OPTIONS.maxPathChars);
    this.#prefixes = routingPathPrefixes(document);
    this.#server = http.createServer((request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        send(response, mockError(500, `mock failure: ${(error as Error).message}`));
      });
    });
  }

  static async start(document: OpenApiDocument, options: Partial<MockServerOptions> = {}): Promise<MockServer> {
    const mock = new MockServer(document, { ...MOCK_DEFAULTS, ...options });
    mock.#server.listen(mock.#options.port, mock.#options.host);
    await once(mock.#server, 'listening');
    return mock;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get url(): string {
    const host = this.#options.host.includes(':') ? `[${this.#options.host}]` : this.#options.host;
    return `http://${host}:${this.port}`;
  }

  /** Stops accepting, ends open connections, frees the compiled contract. Idempotent. */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    }).then(() => this.#contract.close());
    return this.#closed;
  }

  async #handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const body = await readBody(request, this.#options.maxBodyBytes);
    if (body === undefined) return send(response, mockError(413, `request body over the limit of ${this.#options.maxBodyBytes} bytes (maxBodyBytes)`));
    send(response, this.answer(request.method ?? 'GET', request.url ?? '/', flatHeaders(request.headers), body));
  }

  /** The answer to one request: validation first, then a generated response. */
  answer(method: string, target: string, headers: Record<string, string>, body: string): MockAnswer {
    const outcome = this.#contract.validateInteraction({ request: { method, path: target, headers, body } });
    if (!outcome.valid) {
      const status = outcome.category === 'route_not_found' ? 404 : 400;
      return mockError(status, status === 404 ? 'no operation of the document matches the request' : 'the request does not match the document', outcome.errors);
    }
    const pathname = new URL(target, 'http://mock.invalid').pathname;
    const match = this.#routes.find(method.toUpperCase(), stripServerPrefix(pathname, this.#prefixes)) ?? this.#routes.find(method.toUpperCase(), pathname);
    if (!match) return mockError(404, 'no operation of the document matches the request');
    const prefer = parsePrefer(headers.prefer ?? '');
    try {
      const generated = generateResponse(this.#document, {
        method: match.route.method,
        path: match.route.template,
        statusCode: prefer.code ?? 0,
        useExamples: !prefer.dynamic,
      });
      return { status: generated.statusCode, headers: generated.headers, body: generated.body };
    } catch (error) {
      // The document defines no such status, or no value can be generated for it.
      return mockError(prefer.code === undefined ? 500 : 400, (error as Error).message);
    }
  }
}

function mockError(status: number, message: string, violations?: readonly string[]): MockAnswer {
  const body = JSON.stringify({ error: message, ...(violations ? { violations } : {}) });
  return { status, headers: { 'Content-Type': 'application/json', [MOCK_ERROR_HEADER]: 'true' }, body };
}

/** `Prefer: code=404, dynamic=true` (RFC 7240 preferences, as Prism reads them). */
function parsePrefer(header: string): { code?: number; dynamic: boolean } {
  const preferences = new Map(header.split(/[,;]/).map((part) => {
    const [name, value = ''] = part.trim().split('=', 2);
    return [name!.toLowerCase(), value.trim().replace(/^"|"$/g, '')] as const;
  }));
  const code = Number(preferences.get('code'));
  return { ...(Number.isInteger(code) && code >= 100 && code <= 599 ? { code } : {}), dynamic: preferences.get('dynamic') === 'true' };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The body text; undefined when it passes `maxBytes` (the rest is drained, not kept). */
async function readBody(request: http.IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request) {
    total += (chunk as Buffer).length;
    if (total <= maxBytes) chunks.push(chunk as Buffer);
  }
  return total > maxBytes ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(response: http.ServerResponse, answer: MockAnswer): void {
  if (response.headersSent) return;
  response.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body) });
  response.end(answer.body);
}
