/**
 * The Express middleware on a real Express app: the shared producer-middleware suite, plus body
 * parsers mounted before or after the middleware.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
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
