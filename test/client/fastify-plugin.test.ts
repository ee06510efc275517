/**
 * The Fastify plugin on a real Fastify app: the shared producer-middleware suite, plus Fastify's
 * encapsulation (routes registered in child plugins are covered) and its logger as the default.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFastifyPlugin, type ProducerMiddlewareOptions } from '@svc/client';
import { usersApp } from '../helpers/client-fixtures';
import { describeProducerMiddleware, type ConformanceContext, type MiddlewareApp } from '../helpers/middleware-conformance';

const Fastify = require('fastify');

const apps: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(apps.map((app) => app.close())));

async function startFastifyApp(context: ConformanceContext, overrides: Partial<ProducerMiddlewareOptions>): Promise<MiddlewareApp> {
  const { options, logger, violations } = context.baseOptions();
  const plugin = createFastifyPlugin({ ...options, ...overrides });
  const handled: string[] = [];
  const app = Fastify();
  apps.push(app);
  await app.register(plugin);
  const reply = (res: any, { status, body }: { status: number; body: unknown }) => res.code(status).send(body);
  app.get('/users/:id', async (request: any, res: any) => {
    handled.push(`GET ${request.url}`);
    return reply(res, usersApp.getUser(request.params.id));
  });
  app.post('/users', async (request: any, res: any) => {
    handled.push(`POST ${request.url} ${JSON.stringify(request.body)}`);
    return reply(res, usersApp.createUser(request.body));
  });
  app.get('/health', async (_request: any, res: any) => reply(res, usersApp.health()));
  app.get('/internal/metrics', async (_request: any, res: any) => res.type('text/plain').send('up 1'));
  const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, middleware: plugin, logger, violations, handled };
}

const context = describeProducerMiddleware('Fastify', startFastifyApp);

describe('Fastify: plugin system', () => {
  test('routes registered in an encapsulated child plugin are covered', async () => {
    const { options, violations } = context.baseOptions();
    const plugin = createFastifyPlugin({ ...options, mode: 'strict' });
    const app = Fastify();
    apps.push(app);
    await app.register(plugin);
    await app.register(async (child: any) => {
      child.get('/users/:id', async (request: any) => usersApp.getUser(request.params.id).body);
    });
    const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
    assert.equal((await fetch(`${url}/users/abc`)).status, 400);
    assert.equal((await fetch(`${url}/users/13`)).status, 200);
    await plugin.flush();
    assert.deepEqual(violations.map((v) => `${v.phase} ${v.path}`), ['request /users/abc', 'response /users/13']);
  });

  test("without a logger option, violations go to the app's own logger", async () => {
    const lines: string[] = [];
    const { options } = context.baseOptions();
    const plugin = createFastifyPlugin({ ...options, logger: undefined, mode: 'warn' });
    const app = Fastify({ logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } } });
    apps.push(app);
    await app.register(plugin);
    app.get('/users/:id', async (request: any) => usersApp.getUser(request.params.id).body);
    const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
    await fetch(`${url}/users/13`);
    await plugin.flush();
    const violation = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'contract violation');
    assert.ok(violation, lines.join('\n'));
    assert.deepEqual(violation.violation.errors, ['response body: property "name" is required']);
  });
});

describe('Fastify: the reply as sent', () => {
  // Fastify hands its headers to writeHead; Node does not list those in getHeaders().
  for (const mode of ['shadow', 'strict'] as const) {
    test(`${mode}: the content type Fastify sent is the one validated`, async () => {
      const { options, violations } = context.baseOptions();
      const plugin = createFastifyPlugin({ ...options, mode });
      const app = Fastify();
      apps.push(app);
      await app.register(plugin);
      app.get('/users/:id', async (_request: any, reply: any) => reply.type('text/plain').send('hello'));
      const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
      assert.equal(await (await fetch(`${url}/users/42`)).text(), 'hello');
      await plugin.flush();
      assert.deepEqual(violations.map((violation) => violation.errors), [['response content type "text/plain" is not allowed (expected application/json)']]);
    });
  }
});

describe('Fastify: a parsed body JSON cannot write', () => {
  // Shadow and warn validate the bytes Fastify read; strict checks the parsed body before the handler.
  for (const mode of ['shadow', 'strict'] as const) {
    const outcome = mode === 'strict' ? 'leaves the request check out (skipped)' : 'does not matter: the bytes received are validated';
    test(`${mode}: a BigInt in the parsed body ${outcome}; the app answers as usual`, async () => {
      const { options, violations } = context.baseOptions();
      const plugin = createFastifyPlugin({ ...options, mode });
      const app = Fastify();
      apps.push(app);
      // What a parser of big numbers may produce.
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: unknown, text: string, done: (error: null, body: unknown) => void) =>
        done(null, { name: BigInt(JSON.parse(text).name.length) }));
      await app.register(plugin);
      app.post('/users', async (_request: any, reply: any) => reply.code(201).send({ id: 1, name: 'Ada' }));
      const url: string = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada' }) });
      assert.equal(response.status, 201);
      assert.deepEqual(await response.json(), { id: 1, name: 'Ada' });
      await plugin.flush();
      const stats = plugin.stats();
      // Strict mode skips the request check and still validates the response.
      assert.deepEqual([stats.skipped, stats.validated, stats.rejected, violations.length], mode === 'strict' ? [1, 1, 0, 0] : [0, 1, 0, 0]);
    });
  }
});
