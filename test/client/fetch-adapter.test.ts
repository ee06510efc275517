/**
 * The fetch adapter against a real provider and a real svc server: what it records, auto-validation
 * with onValidationFailure, a validator that is down, global installation, and a consumer
 * registration built from the captured traffic.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ContractValidator,
  ContractValidatorError,
  createFetchAdapter,
  type CapturedInteraction,
  type ValidationResult,
} from '@svc/client';
import http from 'node:http';
import { closeHttpServer, closedPortAddress, listen, startUsersApiServer, startUsersProvider, type UsersApiServer } from '../helpers/client-fixtures';

let api: UsersApiServer;
let provider: { url: string; close(): Promise<void> };

before(async () => {
  api = await startUsersApiServer();
  provider = await startUsersProvider();
});

after(async () => {
  await provider.close();
  await api.close();
});

describe('capturing', () => {
  test('records method, path with query, headers and parsed bodies; the caller still reads the response', async () => {
    const adapter = createFetchAdapter();
    const got = await adapter.fetch(`${provider.url}/users/42?expand=posts`, { headers: { Accept: 'application/json' } });
    assert.deepEqual(await got.json(), { id: 42, name: 'Ada' });
    const created = await adapter.fetch(new URL(`${provider.url}/users`), {
      method: 'post',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grace' }),
    });
    assert.equal(created.status, 201);
    assert.deepEqual(await created.json(), { id: 1, name: 'Grace' });

    const [first, second] = adapter.getInteractions();
    assert.equal(first!.request.method, 'GET');
    assert.equal(first!.request.path, '/users/42?expand=posts');
    assert.equal(first!.request.headers?.accept, 'application/json');
    assert.equal(first!.request.body, undefined);
    assert.equal(first!.response.statusCode, 200);
    assert.equal(first!.response.headers?.['x-provider'], 'users');
    assert.deepEqual(first!.response.body, { id: 42, name: 'Ada' });
    assert.equal(first!.validation, undefined, 'not validated without autoValidate');
    assert.equal(second!.request.method, 'POST');
    assert.deepEqual(second!.request.body, { name: 'Grace' });
    assert.deepEqual(second!.response.body, { id: 1, name: 'Grace' });

    adapter.clearInteractions();
    assert.deepEqual(adapter.getInteractions(), []);
  });

  test('a Request object as input is recorded, body included', async () => {
    const adapter = createFetchAdapter();
    const request = new Request(`${provider.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Lin"}' });
    assert.equal((await adapter.fetch(request)).status, 201);
    const [interaction] = adapter.getInteractions();
    assert.deepEqual(interaction!.request.body, { name: 'Lin' });
    assert.equal(interaction!.request.headers?.['content-type'], 'application/json');
  });

  test('binary bodies and bodies over maxBodyBytes are recorded without their body', async () => {
    const adapter = createFetchAdapter({ maxBodyBytes: 10_000 });
    const download = await adapter.fetch(`${provider.url}/download`);
    assert.deepEqual([...new Uint8Array(await download.arrayBuffer())], [0, 1, 2, 3]);
    const big = await adapter.fetch(`${provider.url}/big`);
    assert.equal(((await big.json()) as unknown[]).length, 5_000, 'the caller gets the whole body');
    assert.deepEqual(adapter.getInteractions().map((i) => [i.response.statusCode, i.response.body]), [[200, undefined], [200, undefined]]);
  });

  test('a stream of messages (JSON lines) is handed back at once, not recorded; a body cut off fails the caller\'s read, not the fetch', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = http.createServer((request, response) => {
      if (request.url === '/cut') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"id":');
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write('{"n":1}\n');
      // The rest only once the caller has the response: an adapter that waits for the end never gets it.
      void released.then(() => response.end('{"n":2}\n'));
    });
    const url = await listen(server);
    try {
      const adapter = createFetchAdapter();
      const streamed = await Promise.race([
        adapter.fetch(`${url}/lines`),
        new Promise<never>((_, fail) => setTimeout(() => fail(new Error('the adapter waited for the end of the stream')), 2_000)),
      ]);
      release();
      assert.equal(await streamed.text(), '{"n":1}\n{"n":2}\n');
      const cut = await adapter.fetch(`${url}/cut`);
      await assert.rejects(cut.text());
      assert.deepEqual(adapter.getInteractions().map((i) => [i.response.statusCode, i.response.body]), [[200, undefined], [200, undefined]]);
    } finally {
      release();
      await closeHttpServer(server);
    }
  });

  test('maxInteractions keeps the most recent ones', async () => {
    const adapter = createFetchAdapter({ maxInteractions: 2 });
    for (const id of [1, 2, 3]) await (await adapter.fetch(`${provider.url}/users/${id}`)).arrayBuffer();
    assert.deepEqual(adapter.getInteractions().map((i) => i.request.path), ['/users/2', '/users/3']);
  });
});

describe('autoValidate', () => {
  test('each interaction is validated before the caller gets the response; failures reach onValidationFailure', async () => {
    const failures: Array<{ result: ValidationResult; interaction: CapturedInteraction }> = [];
    const adapter = createFetchAdapter({
      validator: api.validator,
      autoValidate: true,
      onValidationFailure: (result, interaction) => failures.push({ result, interaction }),
    });
    await adapter.fetch(`${provider.url}/users/7`);
    assert.equal(adapter.getInteractions()[0]!.validation?.valid, true);
    assert.equal(failures.length, 0);

    await adapter.fetch(`${provider.url}/users/13`);
    assert.equal(failures.length, 1, 'reported before fetch resolved');
    assert.deepEqual(failures[0]!.result.errors, ['response body: property "name" is required']);
    assert.equal(failures[0]!.interaction.request.path, '/users/13');
    assert.equal(adapter.getInteractions()[1]!.validation?.valid, false);

    await adapter.fetch(`${provider.url}/users/404`);
    assert.equal(adapter.getInteractions()[2]!.validation?.valid, true, 'a documented 404 is part of the contract');
  });

  test('a validator that is down makes the call fail: a contract test must not pass unchecked', async () => {
    const down = new ContractValidator({ address: await closedPortAddress(), schemaId: 'users-api' });
    try {
      const adapter = createFetchAdapter({ validator: down, autoValidate: true });
      await assert.rejects(adapter.fetch(`${provider.url}/users/7`), (error: ContractValidatorError) => error.code === 'UNAVAILABLE');
      assert.equal(adapter.getInteractions().length, 1, 'the interaction was still recorded');
    } finally {
      down.close();
    }
  });

  test('autoValidate without a validator is refused', () => {
    assert.throws(() => createFetchAdapter({ autoValidate: true }), (error: ContractValidatorError) => error.code === 'INVALID_ARGUMENT');
  });
});

describe('installGlobally', () => {
  test('records calls made through the global fetch until restored', async () => {
    const original = globalThis.fetch;
    const adapter = createFetchAdapter();
    const restore = adapter.installGlobally();
    try {
      assert.notEqual(globalThis.fetch, original);
      await (await fetch(`${provider.url}/users/5`)).json();
    } finally {
      restore();
    }
    assert.equal(globalThis.fetch, original);
    await (await fetch(`${provider.url}/users/6`)).json();
    assert.deepEqual(adapter.getInteractions().map((i) => i.request.path), ['/users/5']);
  });
});

describe('from captured traffic to a consumer registration', () => {
  test('buildConsumerFromInteractions turns the recorded calls into templated endpoints and fields', async () => {
    const adapter = createFetchAdapter();
    await (await adapter.fetch(`${provider.url}/users/42`)).json();
    await (await adapter.fetch(`${provider.url}/users/43`)).json();
    await (await adapter.fetch(`${provider.url}/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' })).json();
    const registration = await api.validator.buildConsumerFromInteractions(adapter.getInteractions(), { consumerId: 'web', consumerVersion: '1.0.0' });
    assert.deepEqual(registration.usedEndpoints, [
      { method: 'POST', path: '/users', usedFields: ['id', 'name'] },
      { method: 'GET', path: '/users/{id}', usedFields: ['id', 'name'] },
    ]);
  });
});
