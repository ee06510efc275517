/**
 * The axios adapter against a real provider and a real svc server: what it records (error responses
 * included), auto-validation with onValidationFailure, and detaching.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ContractValidatorError, createAxiosAdapter, type ValidationResult } from '@svc/client';
import { startUsersApiServer, startUsersProvider, type UsersApiServer } from '../helpers/client-fixtures';

const axios = require('axios');

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
  test('records requests with baseURL and params, parsed bodies, lower-cased headers', async () => {
    const client = axios.create({ baseURL: provider.url });
    const adapter = createAxiosAdapter(client);
    const got = await client.get('/users/42', { params: { expand: 'posts' } });
    assert.deepEqual(got.data, { id: 42, name: 'Ada' });
    await client.post('/users', { name: 'Grace' });

    const [first, second] = adapter.getInteractions();
    assert.equal(first!.request.method, 'GET');
    assert.equal(first!.request.path, '/users/42?expand=posts');
    assert.equal(first!.response.statusCode, 200);
    assert.equal(first!.response.headers?.['x-provider'], 'users');
    assert.deepEqual(first!.response.body, { id: 42, name: 'Ada' });
    assert.equal(second!.request.method, 'POST');
    assert.equal(second!.request.path, '/users');
    assert.deepEqual(second!.request.body, { name: 'Grace' });
    assert.match(String(second!.request.headers?.['content-type']), /application\/json/);
    assert.equal(second!.response.statusCode, 201);

    adapter.clearInteractions();
    assert.deepEqual(adapter.getInteractions(), []);
  });

  test('error responses are recorded, then the error reaches the caller as usual', async () => {
    const client = axios.create({ baseURL: provider.url });
    const adapter = createAxiosAdapter(client);
    await assert.rejects(client.get('/users/404'), (error: { response?: { status: number } }) => error.response?.status === 404);
    const [interaction] = adapter.getInteractions();
    assert.equal(interaction!.response.statusCode, 404);
    assert.deepEqual(interaction!.response.body, { message: 'no such user' });
  });

  test('detach stops recording', async () => {
    const client = axios.create({ baseURL: provider.url });
    const adapter = createAxiosAdapter(client);
    await client.get('/users/1');
    adapter.detach();
    adapter.detach();
    await client.get('/users/2');
    assert.deepEqual(adapter.getInteractions().map((i) => i.request.path), ['/users/1']);
  });

  test('something that is not an axios instance is refused', () => {
    assert.throws(() => createAxiosAdapter({} as never), (error: ContractValidatorError) => error.code === 'INVALID_ARGUMENT');
  });
});

describe('autoValidate', () => {
  test('validates each exchange before the caller gets it; failures reach onValidationFailure', async () => {
    const client = axios.create({ baseURL: provider.url });
    const failures: ValidationResult[] = [];
    const adapter = createAxiosAdapter(client, {
      validator: api.validator,
      autoValidate: true,
      onValidationFailure: (result) => failures.push(result),
    });
    await client.get('/users/7');
    await client.post('/users', { name: 'Ada' });
    assert.equal(failures.length, 0);
    await client.get('/users/13');
    assert.equal(failures.length, 1);
    assert.deepEqual(failures[0]!.errors, ['response body: property "name" is required']);
    await assert.rejects(client.get('/users/404'));
    assert.deepEqual(adapter.getInteractions().map((i) => i.validation?.valid), [true, true, false, true]);
  });
});
