/**
 * The node:http handler wrapper on a plain http.Server: the shared producer-middleware suite, plus the
 * ways a plain handler reads its body (events, async iteration, late reads) under strict mode's
 * read-ahead, and bodies over the size limit.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { wrapHttpHandler, type ProducerMiddlewareOptions } from '@svc/client';
import { closeHttpServer, listen, usersApp } from '../helpers/client-fixtures';
import { describeProducerMiddleware, postUser, type ConformanceContext, type MiddlewareApp } from '../helpers/middleware-conformance';

const servers: http.Server[] = [];
after(() => Promise.all(servers.map(closeHttpServer)));

type BodyReading = 'events' | 'async-iteration' | 'late';

async function readBody(request: http.IncomingMessage, how: BodyReading): Promise<string> {
  if (how === 'late') await new Promise((resolve) => setTimeout(resolve, 20));
  if (how === 'events') {
    return new Promise((resolve, reject) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => { text += chunk; });
      request.on('end', () => resolve(text));
      request.on('error', reject);
    });
  }
  let text = '';
  for await (const chunk of request) text += chunk;
  return text;
}

async function startHttpApp(context: ConformanceContext, overrides: Partial<ProducerMiddlewareOptions>, how: BodyReading = 'events'): Promise<MiddlewareApp> {
  const { options, logger, violations } = context.baseOptions();
  const handled: string[] = [];
  const send = (response: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
    response.writeHead(status, { 'content-type': type });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const handler = wrapHttpHandler((request, response) => {
    const url = request.url ?? '/';
    const user = /^\/users\/([^/?]+)/.exec(url);
    if (request.method === 'GET' && user) {
      handled.push(`GET ${url}`);
      const { status, body } = usersApp.getUser(user[1]!);
      return send(response, status, body);
    }
    if (request.method === 'POST' && url === '/users') {
      void readBody(request, how).then((text) => {
        handled.push(`POST ${url} ${text}`);
        const { status, body } = usersApp.createUser(JSON.parse(text));
        send(response, status, body);
      });
      return undefined;
    }
    if (url === '/health') return send(response, 200, usersApp.health().body);
    if (url === '/internal/metrics') return send(response, 200, 'up 1', 'text/plain');
    return send(response, 404, { message: 'not found' });
  }, { ...options, ...overrides });
  const server = http.createServer(handler);
  servers.push(server);
  return { url: await listen(server), middleware: handler, logger, violations, handled };
}

const context = describeProducerMiddleware('node:http', startHttpApp);

describe('node:http: reading the body under strict mode', () => {
  for (const how of ['events', 'async-iteration', 'late'] as const) {
    test(`a handler reading by ${how} gets the whole body after the read-ahead`, async () => {
      const app = await startHttpApp(context, { mode: 'strict' }, how);
      const name = 'x'.repeat(200_000); // several chunks
      const response = await postUser(app, { name });
      assert.equal(response.status, 201);
      assert.equal(((await response.json()) as { name: string }).name.length, name.length);
      assert.equal(app.handled.length, 1);
    });
  }

  test('strict mode: a request body over maxBodyBytes is not validated; the handler still gets all of it', async () => {
    const app = await startHttpApp(context, { mode: 'strict', maxBodyBytes: 1_000 });
    const response = await postUser(app, { nme: 'y'.repeat(5_000) }); // invalid, but too large to check
    assert.equal(response.status, 201);
    assert.equal(app.handled.length, 1);
    assert.equal(app.handled[0]!.length, 'POST /users '.length + JSON.stringify({ nme: 'y'.repeat(5_000) }).length);
    await app.middleware.flush();
    assert.equal(app.middleware.stats().skipped, 1);
    assert.equal(app.middleware.stats().rejected, 0);
  });

});

describe('node:http: bodies over the limit', () => {
  test('warn mode: a response over maxBodyBytes is skipped, not validated', async () => {
    const app = await startHttpApp(context, { mode: 'warn', maxBodyBytes: 5 }); // {"id":13} is 9 bytes
    assert.equal((await fetch(`${app.url}/users/13`)).status, 200);
    await app.middleware.flush();
    assert.deepEqual(app.middleware.stats(), { validated: 0, violations: 0, rejected: 0, undocumented: 0, skipped: 1, dropped: 0, validatorErrors: 0, pending: 0 });
  });
});

describe('node:http: bounded work after the response', () => {
  test('beyond maxPendingValidations, exchanges are dropped and counted', async () => {
    const app = await startHttpApp(context, { mode: 'shadow', maxPendingValidations: 1 });
    await Promise.all(Array.from({ length: 6 }, () => fetch(`${app.url}/users/7`).then((r) => r.arrayBuffer())));
    await app.middleware.flush();
    const stats = app.middleware.stats();
    assert.equal(stats.validated + stats.dropped, 6, JSON.stringify(stats));
    assert.ok(stats.dropped >= 1, JSON.stringify(stats));
  });
});

describe('node:http: headers handed to writeHead', () => {
  // Node sends them without listing them in getHeaders() unless setHeader came first.
  const forms = {
    object: { 'Content-Type': 'text/plain' },
    'raw array': ['Content-Type', 'text/plain'],
    pairs: [['content-type', 'text/plain']],
    'object, Content-Encoding: identity': { 'Content-Type': 'text/plain', 'Content-Encoding': 'identity' },
    'raw array, Content-Encoding: Identity': ['Content-Type', 'text/plain', 'Content-Encoding', 'Identity'],
  };
  for (const [form, headers] of Object.entries(forms)) {
    test(`warn mode: the headers a handler passes to writeHead (${form}) are the ones validated`, async () => {
      const { options, violations } = context.baseOptions();
      const handler = wrapHttpHandler((_request, response) => {
        response.writeHead(200, headers as http.OutgoingHttpHeaders);
        response.end('hello');
      }, { ...options, mode: 'warn' });
      const server = http.createServer(handler);
      servers.push(server);
      const url = await listen(server);
      assert.equal((await fetch(`${url}/users/42`)).status, 200);
      await handler.flush();
      assert.deepEqual(violations.map((violation) => violation.errors), [['response content type "text/plain" is not allowed (expected application/json)']]);
    });
  }
});

describe('node:http: a header repeated, or named in two cases', () => {
  // Accepts only every value joined with ", " (RFC 9110): one value kept of two fails the check.
  const document = {
    openapi: '3.0.3',
    info: { title: 'Repeated headers', version: '1.0.0' },
    paths: {
      '/session': {
        get: {
          parameters: [{ name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', enum: ['a, b'] } }],
          responses: {
            200: {
              description: 'signed in',
              headers: {
                'Set-Cookie': { required: true, schema: { type: 'string', enum: ['a=1, b=2'] } },
                Link: { required: true, schema: { type: 'string', enum: ['</a>, </b>'] } },
              },
            },
          },
        },
      },
    },
  };
  const SCHEMA_ID = 'repeated-headers';
  let registered = false;

  async function startApp(writeHeaders: (response: http.ServerResponse) => void) {
    const { options, violations } = context.baseOptions();
    if (!registered) {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-headers-')), 'repeated-headers.json');
      fs.writeFileSync(file, JSON.stringify(document));
      await context.api().validator.registerSchema(SCHEMA_ID, file);
      registered = true;
    }
    const handler = wrapHttpHandler((_request, response) => {
      writeHeaders(response);
      response.end();
    }, { ...options, schemaId: SCHEMA_ID, mode: 'warn' });
    const server = http.createServer(handler);
    servers.push(server);
    return { url: await listen(server), handler, violations };
  }

  /** A request with `X-Trace: a` and `x-trace: b` as two lines, as a proxy may send it (a raw header list needs its own Host). */
  async function getSession(url: string): Promise<number> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/session', headers: ['Host', `127.0.0.1:${port}`, 'X-Trace', 'a', 'x-trace', 'b'] as unknown as http.OutgoingHttpHeaders });
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.on('error', reject);
      request.end();
    });
  }

  const forms: Record<string, (response: http.ServerResponse) => void> = {
    'flat array to writeHead': (response) => { response.writeHead(200, ['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'Link', '</a>', 'Link', '</b>']); },
    'pairs to writeHead': (response) => { response.writeHead(200, [['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['Link', '</a>'], ['link', '</b>']] as unknown as http.OutgoingHttpHeaders); },
    'object to writeHead, names in two cases': (response) => { response.writeHead(200, { 'Set-Cookie': 'a=1', 'set-cookie': 'b=2', Link: '</a>', link: '</b>' }); },
    'arrays to setHeader': (response) => { response.setHeader('Set-Cookie', ['a=1', 'b=2']); response.setHeader('Link', ['</a>', '</b>']); response.writeHead(200); },
  };
  for (const [form, writeHeaders] of Object.entries(forms)) {
    test(`every value sent is the one validated: ${form}`, async () => {
      const app = await startApp(writeHeaders);
      assert.equal(await getSession(app.url), 200);
      await app.handler.flush();
      assert.deepEqual(app.violations.map((violation) => violation.errors), []);
    });
  }

  test('validate(): header objects with a name in two cases are one header each, their values joined', async () => {
    await startApp(() => {}); // registers the document
    const result = await context.api().validator.validate(
      { method: 'GET', path: '/session', headers: { 'X-Trace': 'a', 'x-trace': 'b' } },
      { statusCode: 200, headers: { 'Set-Cookie': 'a=1', 'set-cookie': 'b=2', Link: ['</a>', '</b>'] } },
      { schemaId: SCHEMA_ID },
    );
    assert.deepEqual(result.errors, []);
  });

  test('one value of two is reported, so the check above can fail', async () => {
    const app = await startApp((response) => { response.writeHead(200, ['Set-Cookie', 'a=1', 'Link', '</a>']); });
    assert.equal(await getSession(app.url), 200);
    await app.handler.flush();
    assert.equal(app.violations.length, 1);
    assert.match(app.violations[0]!.errors.join('; '), /set-cookie/i);
  });
});
