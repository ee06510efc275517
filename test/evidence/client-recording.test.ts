/**
 * Evidence from real traffic, end to end through the Node.js client: a producer Express app whose
 * middleware records in shadow mode, and two consumers (fetch and axios capture adapters) calling it
 * and recording what their code reads, against a real server. Then coverage lists exactly what was
 * exercised, replay in can-i-deploy catches a tightened response pattern for the consumer whose real
 * responses no longer match, and the read-tracking Proxy reports only the fields read.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import {
  ContractValidator, DEFAULT_REDACTED_KEYS, createAxiosAdapter, createExpressMiddleware, createFetchAdapter, trackReads, type ExpressMiddleware,
} from '@svc/client';
import { closeHttpServer, closedPortAddress, listen } from '../helpers/client-fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

const express = require('express');
const axios = require('axios');

const SCHEMA = 'people';
/** The producer records what it serves in production; the consumers record from their test runs. */
const PRODUCTION = 'prod';
const CONSUMER_TESTS = 'ci';

function document(version: string, emailPattern?: string): string {
  const user = {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string', ...(emailPattern ? { pattern: emailPattern } : {}) },
      nick: { type: 'string' },
    },
  };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'people', version },
    paths: {
      '/users/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: user } } },
            '404': { description: 'missing' },
          },
        },
      },
      '/users/me': { get: { responses: { '200': { description: 'me', content: { 'application/json': { schema: user } } } } } },
    },
  });
}

const USERS: Record<string, object> = {
  1: { id: '1', name: 'Ann', email: 'ann@example', nick: 'a' },
  2: { id: '2', name: 'Bob', email: 'BOB@EXAMPLE', nick: 'b' },
};

describe('recording real traffic through the client', () => {
  let server: TestServer;
  let admin: ContractValidator;
  let producerValidator: ContractValidator;
  let consumerValidator: ContractValidator;
  let middleware: ExpressMiddleware;
  let producer: http.Server;
  let producerUrl: string;

  before(async () => {
    server = await startTestServer();
    admin = new ContractValidator({ address: server.address });
    await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.0.0'), schema_version: '1.0.0' });
    await server.client.call('RecordDeployment', { schema_id: SCHEMA, environment: PRODUCTION, version: '1.0.0' });

    producerValidator = new ContractValidator({ address: server.address });
    middleware = createExpressMiddleware({
      schemaId: SCHEMA,
      validator: producerValidator,
      mode: 'shadow',
      recordInteractions: { environment: PRODUCTION },
    });
    const app = express();
    app.use(middleware);
    app.get('/users/:id', (request: { params: { id: string } }, response: http.ServerResponse & { json(body: object): void; status(code: number): { end(): void } }) => {
      const user = USERS[request.params.id];
      if (user) response.json(user);
      else response.status(404).end();
    });
    producer = http.createServer(app);
    producerUrl = await listen(producer);
    consumerValidator = new ContractValidator({ address: server.address, schemaId: SCHEMA });
  });

  after(async () => {
    await closeHttpServer(producer);
    for (const client of [admin, producerValidator, consumerValidator]) client.close();
    await server.close();
  });

  it('records both sides and keeps what the code read apart from what it received', async () => {
    // web: fetch, reads id and name; also asks for a user that does not exist.
    const web = createFetchAdapter({ validator: consumerValidator, recordInteractions: { consumerId: 'web', environment: CONSUMER_TESTS } });
    const webHeaders = { 'x-consumer-id': 'web' };
    const names: string[] = [];
    for (const id of ['1', '1']) {
      const user = await (await web.fetch(`${producerUrl}/users/${id}`, { headers: webHeaders })).json() as { id: string; name: string };
      names.push(`${user.id}:${user.name}`);
    }
    assert.deepEqual(names, ['1:Ann', '1:Ann']);
    assert.equal((await web.fetch(`${producerUrl}/users/404`, { headers: webHeaders })).status, 404);

    // mobile: axios, reads the id and e-mail address of user 2.
    const mobileClient = axios.create({ baseURL: producerUrl, headers: { 'x-consumer-id': 'mobile' } });
    const mobile = createAxiosAdapter(mobileClient, { validator: consumerValidator, recordInteractions: { consumerId: 'mobile', environment: CONSUMER_TESTS } });
    const { data } = await mobileClient.get('/users/2');
    assert.equal(data.email, 'BOB@EXAMPLE');
    assert.equal(data.id, '2');

    // The Proxy reported exactly the fields read.
    assert.deepEqual(web.getInteractions().map((interaction) => interaction.readFields && [...interaction.readFields].sort()), [['id', 'name'], ['id', 'name'], undefined]);
    assert.deepEqual([...mobile.getInteractions()[0]!.readFields!].sort(), ['email', 'id']);
    assert.deepEqual(mobile.getInteractions()[0]!.response.body, USERS[2], 'the recorded body is the whole body received');

    // A registration built from the traffic uses the fields read; those received and unread stay apart.
    const registration = await consumerValidator.buildConsumerFromInteractions(web.getInteractions(), { consumerId: 'web', consumerVersion: '1.0.0', schemaVersion: '1.0.0' });
    assert.deepEqual(registration.usedEndpoints, [{ method: 'GET', path: '/users/{id}', usedFields: ['id', 'name'] }]);

    await Promise.all([middleware.flush(), web.flushRecording(), mobile.flushRecording()]);
    assert.deepEqual(middleware.stats().recording, { recorded: 4, sent: 4, dropped: 0, failed: 0, accepted: 4, notKept: 0, queued: 0 });
    assert.deepEqual(web.recordingStats(), { recorded: 3, sent: 3, dropped: 0, failed: 0, accepted: 3, notKept: 0, queued: 0 });
    assert.equal(mobile.recordingStats()!.accepted, 1);
    mobile.detach();
    await server.server.context.usage.flush();

    // The rows as stored: the fields mobile's code read, and those it received without reading.
    const [stored] = await server.server.context.storage.listUsage({ consumerId: 'mobile', environment: CONSUMER_TESTS });
    assert.deepEqual(stored!.usedFields, ['email', 'id']);
    assert.deepEqual(stored!.receivedFields, ['name', 'nick']);
  });

  it('lists exactly what was exercised as coverage', async () => {
    const coverage = await admin.getCoverage(SCHEMA, { environment: PRODUCTION });
    const byOperation = Object.fromEntries(coverage.operations.map((operation) => [
      `${operation.method} ${operation.path}`,
      operation.statuses.map((status) => `${status.status}:${status.callCount}:${status.consumers.map((c) => `${c.consumerId}×${c.callCount}`).sort().join('+')}`),
    ]));
    assert.deepEqual(byOperation, { 'GET /users/me': ['200:0:'], 'GET /users/{id}': ['200:3:mobile×1+web×2', '404:1:web×1'] });
    assert.deepEqual([coverage.exercisedStatuses, coverage.documentedStatuses, coverage.coveragePercent], [2, 3, 66.7]);
    assert.deepEqual(coverage.consumers, ['mobile', 'web']);
  });

  it('catches a tightened response pattern by replay, for the consumer whose real responses no longer match', async () => {
    await server.client.call('RegisterSchema', { schema_id: SCHEMA, schema_content: document('1.1.0', '^[a-z]+@[a-z]+$'), schema_version: '1.1.0' });
    const result = await admin.canIDeploy(SCHEMA, '1.1.0', PRODUCTION, { includeObserved: true });
    assert.deepEqual(result.breakingChanges, [], 'the structural comparison sees nothing');
    assert.equal(result.safeToDeploy, false);
    const impacts = Object.fromEntries(result.affectedConsumers.map((impact) => [impact.consumerId, impact]));
    assert.deepEqual(Object.keys(impacts).sort(), ['mobile', 'web']);
    assert.equal(impacts.web!.willBreak, false);
    assert.equal(impacts.web!.observed, true);
    assert.equal(impacts.mobile!.willBreak, true);
    assert.equal(impacts.mobile!.replayFailures.length, 1);
    const [failure] = impacts.mobile!.replayFailures;
    assert.deepEqual([failure!.method, failure!.path, failure!.statusCode], ['GET', '/users/2', 200]);
    assert.match(failure!.errors.join('\n'), /email/);
    assert.ok(result.replayedInteractions >= 2, `${result.replayedInteractions} replayed`);

    const withoutReplay = await admin.canIDeploy(SCHEMA, '1.1.0', PRODUCTION, { includeObserved: true, skipReplay: true });
    assert.equal(withoutReplay.safeToDeploy, true);
    assert.equal(withoutReplay.replayedInteractions, 0);
  });

  it('reports array reads with [] and leaves methods, length and unread fields out', () => {
    const { value, readFields } = trackReads({ items: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], total: 2, next: null });
    assert.deepEqual(value.items.map((item) => item.id), [1, 2]);
    assert.equal(value.items.length, 2);
    assert.equal(value.items, value.items, 'the same object reads as the same Proxy');
    assert.deepEqual([...readFields].sort(), ['items', 'items[].id']);
    assert.deepEqual(JSON.parse(JSON.stringify(value)), { items: [{ id: 1, name: 'a' }, { id: 2, name: 'b' }], total: 2, next: null });
    assert.deepEqual([...readFields].sort(), ['items', 'items[].id', 'items[].name', 'next', 'total'], 'serialising reads everything');
  });

  it('redacts with its own key list before sending, and drops and counts when the queue is full', async () => {
    const client = new ContractValidator({ address: server.address });
    try {
      const recording = client.openRecording({ environment: 'redaction', redactKeys: [...DEFAULT_REDACTED_KEYS, 'ssn'], maxQueuedInteractions: 2 });
      const accepted = [1, 2, 3].map((n) => recording.record({
        schemaId: SCHEMA, schemaVersion: '1.0.0', consumerId: 'hr', valid: true,
        request: { method: 'GET', path: `/users/${n}?ssn=078-05-1120&page=2`, headers: { authorization: 'Bearer top-secret' } },
        response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: { id: String(n), name: 'Ann', nick: 'a', email: 'ann@example', ssn: '078-05-1120' } as object },
      }));
      assert.deepEqual(accepted, [true, true, false]);
      await recording.flush();
      assert.deepEqual(recording.stats(), { recorded: 2, sent: 2, dropped: 1, failed: 0, accepted: 2, notKept: 0, queued: 0 });
    } finally {
      client.close();
    }
    await server.server.context.usage.flush();
    const stored = (await server.server.context.storage.listSamples({ consumerId: 'hr' })).map((sample) => sample.interactionJson).join('\n');
    assert.ok(stored.length > 0);
    assert.doesNotMatch(stored, /078-05-1120|top-secret/);
    assert.match(stored, /ssn\\":\\"\[REDACTED\]/, 'a key only the client lists was redacted by the client');
    assert.match(stored, /\?ssn=\[REDACTED\]&page=2/, 'in the query too');
  });

  it('counts a server that is down as failed, and never throws at the app', async () => {
    const client = new ContractValidator({ address: await closedPortAddress(), deadlineMs: 2_000 });
    try {
      const recording = client.openRecording();
      assert.equal(recording.record({
        schemaId: SCHEMA, schemaVersion: '1.0.0', consumerId: 'web', valid: true,
        request: { method: 'GET', path: '/users/1' }, response: { statusCode: 404 },
      }), true);
      await recording.flush();
      assert.deepEqual(recording.stats(), { recorded: 1, sent: 1, dropped: 0, failed: 1, accepted: 0, notKept: 0, queued: 0 });
    } finally {
      client.close();
    }
  });
});
