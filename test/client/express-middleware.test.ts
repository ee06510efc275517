/**
 * The Express middleware on a real Express app: the shared producer-middleware suite, plus body
 * parsers mounted before or after the middleware.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { createExpressMiddleware, type ProducerMiddlewareOptions } from '@svc/client';
import { closeHttpServer, listen, usersApp } from '../helpers/client-fixtures';
import { describeProducerMiddleware, postUser, type ConformanceContext, type MiddlewareApp } from '../helpers/middleware-conformance';

const express = require('express');

const servers: http.Server[] = [];
after(() => Promise.all(servers.map(closeHttpServer)));

async function startExpressApp(
  context: ConformanceContext,
  overrides: Partial<ProducerMiddlewareOptions>,
  bodyParser: 'before' | 'after' = 'before',
): Promise<MiddlewareApp> {
  const { options, logger, violations } = context.baseOptions();
  const middleware = createExpressMiddleware({ ...options, ...overrides });
  const handled: string[] = [];
  const app = express();
  if (bodyParser === 'before') app.use(express.json());
  app.use(middleware);
  if (bodyParser === 'after') app.use(express.json());
  const reply = (res: any, { status, body }: { status: number; body: unknown }) => res.status(status).json(body);
  app.get('/users/:id', (req: any, res: any) => {
    handled.push(`GET ${req.originalUrl}`);
    reply(res, usersApp.getUser(req.params.id));
  });
  app.post('/users', (req: any, res: any) => {
    handled.push(`POST ${req.originalUrl} ${JSON.stringify(req.body)}`);
    reply(res, usersApp.createUser(req.body));
  });
  app.get('/health', (_req: any, res: any) => reply(res, usersApp.health()));
  app.get('/internal/metrics', (_req: any, res: any) => res.type('text/plain').send('up 1'));
  const server = http.createServer(app);
  servers.push(server);
  return { url: await listen(server), middleware, logger, violations, handled };
}

const context = describeProducerMiddleware('Express', (ctx, overrides) => startExpressApp(ctx, overrides));

describe('Express: body parsers', () => {
  test('strict mode with express.json() after the middleware: the body is read ahead and put back', async () => {
    const app = await startExpressApp(context, { mode: 'strict' }, 'after');
    const ok = await postUser(app, { name: 'Grace' });
    assert.equal(ok.status, 201);
    assert.deepEqual(await ok.json(), { id: 1, name: 'Grace' });
    assert.deepEqual(app.handled, ['POST /users {"name":"Grace"}']);
    const rejected = await postUser(app, { name: 'Grace', extra: true });
    assert.equal(rejected.status, 400);
    assert.deepEqual((await rejected.json() as { errors: string[] }).errors, ['request body: unexpected property "extra"']);
    assert.equal(app.handled.length, 1);
  });

  test('warn mode with express.json() after the middleware: the bytes the parser read are validated', async () => {
    const app = await startExpressApp(context, { mode: 'warn' }, 'after');
    assert.equal((await postUser(app, { name: 'Grace', extra: true })).status, 201);
    await app.middleware.flush();
    assert.deepEqual(app.violations.map((v) => v.errors), [['request body: unexpected property "extra"']]);
  });

  test('a router mounted under a prefix validates the full path (originalUrl)', async () => {
    const { options, violations } = context.baseOptions();
    const middleware = createExpressMiddleware({ ...options, mode: 'shadow' });
    const router = express.Router();
    router.use(middleware);
    router.get('/:id', (req: any, res: any) => res.json(usersApp.getUser(req.params.id).body));
    const app = express();
    app.use('/users', router);
    const server = http.createServer(app);
    servers.push(server);
    const url = await listen(server);
    assert.equal((await fetch(`${url}/users/13`)).status, 200);
    await middleware.flush();
    assert.deepEqual(violations.map((v) => v.path), ['/users/13']);
  });
});

describe('Express: a request body the application never reads', () => {
  test('shadow mode checks the response only: no "request body is required" for bytes it never saw', async () => {
    const { options, violations } = context.baseOptions();
    const middleware = createExpressMiddleware({ ...options, mode: 'shadow' });
    const app = express();
    app.use(middleware);
    // No body parser: the handler answers without reading the request body.
    app.post('/users', (req: any, res: any) => res.status(201).json(req.headers['x-answer'] === 'wrong' ? { id: 'one', name: 'Ada' } : { id: 1, name: 'Ada' }));
    const server = http.createServer(app);
    servers.push(server);
    const url = await listen(server);
    assert.equal((await postUser({ url }, { name: 'Ada' })).status, 201);
    await middleware.flush();
    assert.equal(violations.length, 0, 'before, the unread body was checked as empty: "request body is required"');
    assert.equal(middleware.stats().validated, 1);

    // The response is still checked.
    const wrong = await fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-answer': 'wrong' }, body: '{"name":"Ada"}' });
    assert.equal(wrong.status, 201);
    await middleware.flush();
    assert.deepEqual(violations.map((violation) => [violation.phase, violation.errors]), [['response', ['response body /id: must be integer']]]);
  });
});

describe('Express: a placeholder body from a parser that read nothing', () => {
  test('Express 4\'s body parsers set req.body = {} on every request: unread, not an empty object sent', async () => {
    const { options, violations } = context.baseOptions();
    const middleware = createExpressMiddleware({ ...options, mode: 'shadow' });
    const app = express();
    // What body-parser 1 does for a request it does not parse (it marks the ones it parses with req._body).
    app.use((req: any, _res: any, next: () => void) => {
      req.body = req.body || {};
      next();
    });
    app.use(middleware);
    app.post('/users', (_req: any, res: any) => res.status(201).json({ id: 1, name: 'Ada' }));
    const server = http.createServer(app);
    servers.push(server);
    const url = await listen(server);
    assert.equal((await postUser({ url }, { name: 'Ada' })).status, 201);
    await middleware.flush();
    assert.equal(violations.length, 0, 'before, {} was checked: "request body: property \"name\" is required"');
    assert.equal(middleware.stats().validated, 1);
  });
});

describe('Express: capturing the response', () => {
  /** An app in shadow mode whose GET /users/:id answers with `send`; `before` is mounted ahead of the middleware, `after` behind it. */
  async function startCaptureApp(send: (res: any) => void, around: { before?: (req: any, res: any, next: () => void) => void; after?: (req: any, res: any, next: () => void) => void } = {}) {
    const { options, violations } = context.baseOptions();
    const middleware = createExpressMiddleware({ ...options, mode: 'shadow' });
    const app = express();
    if (around.before) app.use(around.before);
    app.use(middleware);
    if (around.after) app.use(around.after);
    app.get('/users/:id', (_req: any, res: any) => send(res));
    const server = http.createServer(app);
    servers.push(server);
    return { url: await listen(server), middleware, violations };
  }

  /**
   * Wraps the response's `write` and `end` on the object itself, as compression middlewares do;
   * `transform` rewrites the whole body at the end. It hands the body on to the methods the response
   * has, or with `nodeMethods` straight to Node's own (as code that kept them from before the
   * middleware was created would).
   */
  function bufferingMiddleware(transform: (body: Buffer, res: any) => Buffer, nodeMethods = false) {
    return (_req: any, res: any, next: () => void) => {
      const write = nodeMethods ? http.OutgoingMessage.prototype.write : res.write;
      const end = nodeMethods ? http.OutgoingMessage.prototype.end : res.end;
      const chunks: Buffer[] = [];
      res.write = (chunk: string | Buffer, encoding?: BufferEncoding) => {
        chunks.push(toBuffer(chunk, encoding));
        return true;
      };
      res.end = (chunk?: string | Buffer, encoding?: BufferEncoding) => {
        if (chunk !== undefined) chunks.push(toBuffer(chunk, encoding));
        const body = transform(Buffer.concat(chunks), res);
        res.setHeader('content-length', body.length);
        write.call(res, body);
        return end.call(res);
      };
      next();
    };
  }

  const toBuffer = (chunk: string | Buffer, encoding?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);

  const nameNotAString = (res: any) => {
    res.status(200).type('application/json');
    res.write('{"id":');
    res.write(Buffer.from('13,'));
    res.write('"name":', 'latin1');
    res.end('7}', 'utf8', () => undefined);
  };

  test('a body written in several chunks, strings and buffers, is validated whole', async () => {
    const app = await startCaptureApp(nameNotAString);
    const response = await fetch(`${app.url}/users/13`);
    assert.deepEqual(await response.json(), { id: 13, name: 7 });
    await app.middleware.flush();
    assert.equal(app.violations.length, 1);
    assert.match(app.violations[0]!.errors.join('\n'), /name/);
    assert.equal(app.middleware.stats().validated, 1);
  });

  for (const nodeMethods of [false, true]) {
    test(`a middleware mounted before it that replaces write and end${nodeMethods ? ' with Node\'s own' : ''}: the body is validated`, async () => {
      const app = await startCaptureApp(nameNotAString, { before: bufferingMiddleware((body) => body, nodeMethods) });
      assert.deepEqual(await (await fetch(`${app.url}/users/13`)).json(), { id: 13, name: 7 });
      await app.middleware.flush();
      assert.equal(app.violations.length, 1);
      assert.equal(app.middleware.stats().validated, 1);
    });
  }

  test('a compression middleware mounted after it: the compressed body is skipped, not reported', async () => {
    const gzip = bufferingMiddleware((body, res) => {
      res.setHeader('content-encoding', 'gzip');
      return zlib.gzipSync(body);
    });
    const app = await startCaptureApp((res) => res.json({ id: 13, name: 'Ada' }), { after: gzip });
    const response = await fetch(`${app.url}/users/13`);
    assert.deepEqual(await response.json(), { id: 13, name: 'Ada' }); // fetch inflates it
    await app.middleware.flush();
    assert.deepEqual(app.middleware.stats(), { ...app.middleware.stats(), validated: 0, skipped: 1 });
    assert.deepEqual(app.violations, []);
  });

  test('a response ended twice is validated once', async () => {
    const app = await startCaptureApp((res) => {
      res.status(200).type('application/json').end('{"id":13,"name":7}');
      res.end(); // a second end without a chunk is allowed, and does nothing
    });
    assert.deepEqual(await (await fetch(`${app.url}/users/13`)).json(), { id: 13, name: 7 });
    await app.middleware.flush();
    assert.equal(app.middleware.stats().validated, 1);
    assert.equal(app.violations.length, 1);
  });

  test('a response never ended (the app destroys it) validates nothing; other servers in the process are untouched', async () => {
    const app = await startCaptureApp((res) => res.destroy());
    await assert.rejects(fetch(`${app.url}/users/13`));
    const plain = http.createServer((_req, res) => {
      res.write('plain ');
      res.end('answer');
    });
    servers.push(plain);
    assert.equal(await (await fetch(await listen(plain))).text(), 'plain answer');
    await app.middleware.flush();
    assert.deepEqual([app.middleware.stats().validated, app.middleware.stats().pending, app.violations.length], [0, 0, 0]);
  });
});

describe('Express: a parsed body JSON cannot write', () => {
  for (const mode of ['shadow', 'strict'] as const) {
    test(`${mode}: a BigInt in req.body leaves the request unvalidated (skipped); the app answers as usual`, async () => {
      const { options, violations } = context.baseOptions();
      const middleware = createExpressMiddleware({ ...options, mode });
      const app = express();
      app.use((req: any, _res: any, next: () => void) => {
        req.body = { name: 10n }; // what a custom parser of big numbers may leave
        next();
      });
      app.use(middleware);
      app.post('/users', (_req: any, res: any) => res.status(201).json({ id: 1, name: 'Ada' }));
      const server = http.createServer(app);
      servers.push(server);
      const response = await postUser({ url: await listen(server) }, { name: 'Ada' });
      assert.equal(response.status, 201);
      assert.deepEqual(await response.json(), { id: 1, name: 'Ada' });
      await middleware.flush();
      const stats = middleware.stats();
      // Strict mode skips the request check and still validates the response.
      assert.deepEqual([stats.skipped, stats.validated, stats.rejected, violations.length], [1, mode === 'strict' ? 1 : 0, 0, 0]);
    });
  }
});

describe('Express: two middlewares on the same exchange', () => {
  test('an app-wide and a router middleware both validate every exchange they see, request bodies included', async () => {
    const outer = context.baseOptions();
    const inner = context.baseOptions();
    const appWide = createExpressMiddleware({ ...outer.options, mode: 'shadow' });
    const routerOnly = createExpressMiddleware({ ...inner.options, mode: 'shadow' });
    const router = express.Router();
    router.use(routerOnly);
    router.get('/:id', (req: any, res: any) => res.json(usersApp.getUser(req.params.id).body));
    router.post('/', (req: any, res: any) => { // reads the raw body: only the taps see it
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => { text += chunk; });
      req.on('end', () => res.status(201).json({ id: 1, name: JSON.parse(text).nme }));
    });
    const app = express();
    app.use(appWide); // no body parser anywhere: both record the request bytes as the handler reads them
    app.use('/users', router);
    const server = http.createServer(app);
    servers.push(server);
    const url = await listen(server);
    assert.equal((await fetch(`${url}/users/13`)).status, 200); // a response without "name"
    assert.equal((await postUser({ url }, { nme: 'Ada' })).status, 201); // a request without "name"
    await Promise.all([appWide.flush(), routerOnly.flush()]);
    for (const [middleware, { violations }] of [[appWide, outer], [routerOnly, inner]] as const) {
      assert.equal(middleware.stats().validated, 2);
      const byPath = new Map(violations.map((v) => [v.path, v.errors]));
      assert.deepEqual([...byPath.keys()].sort(), ['/users', '/users/13']);
      assert.ok(byPath.get('/users')!.includes('request body: property "name" is required'), JSON.stringify(violations));
      assert.deepEqual(byPath.get('/users/13'), ['response body: property "name" is required']);
    }
  });
});
