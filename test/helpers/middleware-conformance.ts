/**
 * The behaviour every producer middleware (Express, Fastify, node:http) must show, as one suite each
 * framework's test file runs against its own app: each mode with valid and invalid requests and
 * responses, path filters, sampling, and a validator that is down or hangs. The apps serve the Users
 * API of client-fixtures.ts on real loopback ports; calls are real HTTP.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidator } from '@svc/client';
import type { ContractViolation, ProducerMiddlewareOptions } from '@svc/client';
import type { ProducerValidationHandle } from '@svc/client';
import {
  USERS_SCHEMA_ID,
  closedPortAddress,
  recordingLogger,
  startStubGrpcServer,
  startUsersApiServer,
  timed,
  type RecordingLogger,
  type UsersApiServer,
} from './client-fixtures';

export interface MiddlewareApp {
  url: string;
  middleware: ProducerValidationHandle;
  logger: RecordingLogger;
  violations: ContractViolation[];
  /** Requests that reached a route handler, as `METHOD url body`. */
  handled: string[];
}

export interface ConformanceContext {
  api(): UsersApiServer;
  /** Options every app gets: schema, validator, a recording logger, a recording onViolation. */
  baseOptions(): { options: ProducerMiddlewareOptions; logger: RecordingLogger; violations: ContractViolation[] };
}

export function postUser(app: Pick<MiddlewareApp, 'url'>, body: unknown): Promise<Response> {
  return fetch(`${app.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * Registers the shared suite. `startApp` starts the framework's Users app with the middleware made
 * from `context.baseOptions()` plus the overrides; routes: GET /users/:id (id 13 answers a response
 * without `name`), POST /users (JSON echo), GET /health, GET /internal/metrics (text, not in the
 * schema). The returned context lets the file add framework-specific tests.
 */
export function describeProducerMiddleware(framework: string, startApp: (context: ConformanceContext, options: Partial<ProducerMiddlewareOptions>) => Promise<MiddlewareApp>): ConformanceContext {
  let api: UsersApiServer;
  const context: ConformanceContext = {
    api: () => api,
    baseOptions() {
      const logger = recordingLogger();
      const violations: ContractViolation[] = [];
      return {
        logger,
        violations,
        options: { schemaId: USERS_SCHEMA_ID, validator: api.validator, logger, onViolation: (violation) => violations.push(violation) },
      };
    },
  };
  const start = (options: Partial<ProducerMiddlewareOptions>) => startApp(context, options);

  before(async () => {
    api = await startUsersApiServer();
  });
  after(() => api.close());

  describe(`${framework}: strict mode`, () => {
    let app: MiddlewareApp;
    before(async () => {
      app = await start({ mode: 'strict' });
    });

    test('a valid request and response pass untouched', async () => {
      const response = await postUser(app, { name: 'Ada' });
      assert.equal(response.status, 201);
      assert.deepEqual(await response.json(), { id: 1, name: 'Ada' });
      await app.middleware.flush();
      assert.deepEqual(app.violations, []);
      assert.equal(app.middleware.stats().validated, 2, 'the request before, the response after');
    });

    test('an invalid request is answered 400 with a JSON list of errors, before the handler', async () => {
      const handledBefore = app.handled.length;
      const response = await postUser(app, { nme: 'Ada' });
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /application\/json/);
      const body = await response.json() as { error: string; message: string; errors: string[] };
      assert.equal(body.error, 'Bad Request');
      assert.ok(body.errors.includes('request body: property "name" is required'), body.errors.join('\n'));
      assert.ok(body.errors.includes('request body: unexpected property "nme"'), body.errors.join('\n'));
      assert.equal(app.handled.length, handledBefore, 'the handler never ran');
      const violation = app.violations.at(-1)!;
      assert.equal(violation.phase, 'request');
      assert.equal(violation.mode, 'strict');
      assert.equal(violation.statusCode, undefined);
      assert.equal(app.logger.lines.at(-1)?.level, 'warn');
      await app.middleware.flush();
      assert.equal(app.middleware.stats().rejected, 1);
      assert.equal(app.violations.length, 1, 'the 400 itself is not validated as a response');
    });

    test('an invalid response goes out as it is and is logged as an error', async () => {
      const response = await fetch(`${app.url}/users/13`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { id: 13 });
      await app.middleware.flush();
      const violation = app.violations.at(-1)!;
      assert.equal(violation.phase, 'response');
      assert.equal(violation.statusCode, 200);
      assert.equal(violation.path, '/users/13');
      assert.equal(violation.validatedAgainstVersion, '1.0.0');
      assert.deepEqual(violation.errors, ['response body: property "name" is required']);
      const line = app.logger.lines.at(-1)!;
      assert.equal(line.level, 'error');
      assert.equal(line.details.violation.path, '/users/13');
    });

    test('a route outside the contract goes to the app by default, and is neither rejected nor reported', async () => {
      const before = { ...app.middleware.stats() };
      const violationsBefore = app.violations.length;
      const routed = await fetch(`${app.url}/internal/metrics`);
      assert.equal(routed.status, 200);
      assert.equal(await routed.text(), 'up 1');
      const unknown = await fetch(`${app.url}/no/such/route`);
      assert.equal(unknown.status, 404, "the app's own 404 answers");
      await app.middleware.flush();
      const after = app.middleware.stats();
      assert.equal(after.undocumented - before.undocumented, 2);
      assert.equal(after.rejected, before.rejected);
      assert.equal(app.violations.length, violationsBefore, 'no request or response violation for an undocumented route');
    });

    test("undocumentedRoutes: 'reject' answers 400 for a route outside the contract", async () => {
      const rejecting = await start({ mode: 'strict', undocumentedRoutes: 'reject' });
      const response = await fetch(`${rejecting.url}/internal/metrics`);
      assert.equal(response.status, 400);
      assert.deepEqual((await response.json() as { errors: string[] }).errors, ['Path not found: /internal/metrics']);
      assert.equal(rejecting.middleware.stats().rejected, 1);
    });
  });

  describe(`${framework}: warn mode`, () => {
    let app: MiddlewareApp;
    before(async () => {
      app = await start({ mode: 'warn' });
    });

    test('valid traffic is validated and nothing is logged', async () => {
      assert.equal((await fetch(`${app.url}/users/7?verbose=1`)).status, 200);
      assert.equal((await postUser(app, { name: 'Ada' })).status, 201);
      await app.middleware.flush();
      assert.equal(app.middleware.stats().validated, 2);
      assert.equal(app.middleware.stats().violations, 0);
      assert.deepEqual(app.logger.lines, []);
    });

    test('an invalid request reaches the handler; the violation is logged as a warning', async () => {
      const response = await postUser(app, { nme: 'Ada' });
      assert.equal(response.status, 201);
      assert.ok(app.handled.at(-1)?.startsWith('POST /users'));
      await app.middleware.flush();
      const line = app.logger.lines.at(-1)!;
      assert.equal(line.level, 'warn');
      assert.ok(line.details.violation.errors.includes('request body: property "name" is required'), JSON.stringify(line));
      assert.equal(app.violations.at(-1)?.phase, 'interaction');
      assert.equal(app.violations.at(-1)?.statusCode, 201);
    });

    test('an invalid response goes out; the violation is logged as a warning', async () => {
      assert.equal((await fetch(`${app.url}/users/13`)).status, 200);
      await app.middleware.flush();
      assert.equal(app.logger.lines.at(-1)?.level, 'warn');
      assert.deepEqual(app.violations.at(-1)?.errors, ['response body: property "name" is required']);
    });
  });

  describe(`${framework}: shadow mode`, () => {
    test('violations are counted and passed to onViolation, never logged', async () => {
      const app = await start({ mode: 'shadow' });
      assert.equal((await fetch(`${app.url}/users/7`)).status, 200);
      assert.equal((await postUser(app, { nme: 'Ada' })).status, 201);
      assert.equal((await fetch(`${app.url}/users/13`)).status, 200);
      await app.middleware.flush();
      assert.deepEqual(app.logger.lines, []);
      // Validations run concurrently after the responses: their order is not the order of the requests.
      assert.deepEqual(app.violations.map((v) => `${v.mode} ${v.path}`).sort(), ['shadow /users', 'shadow /users/13']);
      assert.deepEqual(app.middleware.stats(), { validated: 3, violations: 2, rejected: 0, undocumented: 0, skipped: 0, dropped: 0, validatorErrors: 0, pending: 0 });
    });

    test('an onViolation callback that throws is reported and changes nothing', async () => {
      const app = await start({ mode: 'shadow', onViolation: () => { throw new Error('callback bug'); } });
      assert.equal((await fetch(`${app.url}/users/13`)).status, 200);
      await app.middleware.flush();
      assert.equal(app.middleware.stats().violations, 1);
      assert.equal(app.logger.lines.at(-1)?.message, 'onViolation callback threw');
    });
  });

  describe(`${framework}: what is validated`, () => {
    test('excludePaths are never validated, even in strict mode', async () => {
      const app = await start({ mode: 'strict', excludePaths: ['/internal/**', '/health'] });
      assert.equal((await fetch(`${app.url}/internal/metrics`)).status, 200);
      assert.equal((await fetch(`${app.url}/health`)).status, 200);
      assert.equal((await fetch(`${app.url}/users/7`)).status, 200);
      await app.middleware.flush();
      assert.equal(app.middleware.stats().skipped, 2);
      assert.equal(app.middleware.stats().validated, 2, 'only /users/7: request and response');
    });

    test('includePaths limit validation to the matching paths', async () => {
      const app = await start({ mode: 'shadow', includePaths: ['/users/*'] });
      await fetch(`${app.url}/users/13`);
      await fetch(`${app.url}/internal/metrics`);
      await postUser(app, { nme: 'x' }); // /users is not /users/*
      await app.middleware.flush();
      assert.deepEqual(app.violations.map((v) => v.path), ['/users/13']);
      assert.equal(app.middleware.stats().skipped, 2);
    });

    test('sampleRate 0 validates nothing, even in strict mode', async () => {
      const app = await start({ mode: 'strict', sampleRate: 0 });
      assert.equal((await postUser(app, { nme: 'x' })).status, 201);
      await app.middleware.flush();
      assert.equal(app.middleware.stats().validated, 0);
      assert.equal(app.middleware.stats().skipped, 1);
    });
  });

  describe(`${framework}: a validator that is down or slow never breaks the app`, () => {
    test('down: every mode serves the traffic; failures are counted and reported once', async () => {
      const down = new ContractValidator({ address: await closedPortAddress() });
      try {
        for (const mode of ['strict', 'warn', 'shadow'] as const) {
          const app = await start({ mode, validator: down });
          assert.equal((await postUser(app, { nme: 'invalid but unchecked' })).status, 201, mode);
          assert.equal((await fetch(`${app.url}/users/13`)).status, 200, mode);
          await app.middleware.flush();
          const stats = app.middleware.stats();
          assert.ok(stats.validatorErrors >= 2, `${mode}: ${JSON.stringify(stats)}`);
          assert.equal(stats.rejected, 0);
          const reports = app.logger.lines.filter((line) => /validator unavailable/.test(line.message));
          assert.equal(reports.length, 1, `${mode}: one report, not one per request`);
          assert.equal(reports[0]!.details.err.code, 'UNAVAILABLE');
        }
      } finally {
        down.close();
      }
    });

    test('hanging: warn and shadow answer without waiting for the validation', async () => {
      const stub = await startStubGrpcServer({ hang: ['ValidateInteractionStream'] });
      const hanging = new ContractValidator({ address: stub.address });
      try {
        for (const mode of ['warn', 'shadow'] as const) {
          const app = await start({ mode, validator: hanging, validationDeadlineMs: 800 });
          const { value: response, ms } = await timed(() => fetch(`${app.url}/users/7`));
          assert.equal(response.status, 200);
          assert.ok(ms < 400, `${mode}: answered after ${ms} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
          assert.equal(app.middleware.stats().pending, 1, 'the validation still waits for the validator');
          await app.middleware.flush();
          assert.equal(app.middleware.stats().validatorErrors, 1);
        }
      } finally {
        hanging.close();
        await stub.close();
      }
    });

    test('hanging in strict mode: the request goes on after requestCheckDeadlineMs', async () => {
      const stub = await startStubGrpcServer({ hang: ['ValidateInteraction', 'ValidateProducerResponse'] });
      const hanging = new ContractValidator({ address: stub.address });
      try {
        const app = await start({ mode: 'strict', validator: hanging, requestCheckDeadlineMs: 200, validationDeadlineMs: 200 });
        const { value: response, ms } = await timed(() => postUser(app, { name: 'Ada' }));
        assert.equal(response.status, 201);
        assert.ok(ms >= 190 && ms < 1_500, `answered after ${ms} ms`);
        await app.middleware.flush();
        assert.equal(app.middleware.stats().validatorErrors, 2);
      } finally {
        hanging.close();
        await stub.close();
      }
    });
  });

  return context;
}
