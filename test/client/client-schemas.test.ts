/**
 * ContractValidator against a real server: registering schemas from files and URLs (JSON, YAML),
 * binding, GetSchema, ListSchemas, ListEndpoints, and the errors of misuse.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ContractValidator, ContractValidatorError } from '@svc/client';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { USERS_V1_JSON, USERS_V1_YAML, USERS_V2_YAML, closeHttpServer, listen } from '../helpers/client-fixtures';

let server: TestServer;
let schemaHost: http.Server;
let schemaBaseUrl: string;

before(async () => {
  server = await startTestServer();
  schemaHost = http.createServer((request, response) => {
    if (request.url === '/users-api.yaml') {
      response.setHeader('content-type', 'application/yaml');
      response.end(fs.readFileSync(USERS_V1_YAML));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  schemaBaseUrl = await listen(schemaHost);
});

after(async () => {
  await closeHttpServer(schemaHost);
  await server.close();
});

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('registerSchema', () => {
  test('registers a YAML file, returns camelCase metadata and binds the client to it', async () => {
    const client = new ContractValidator(server.address);
    try {
      assert.equal(client.schemaId, undefined);
      const registration = await client.registerSchema('yaml-api', USERS_V1_YAML);
      assert.equal(registration.metadata.schemaId, 'yaml-api');
      assert.equal(registration.metadata.schemaVersion, '1.0.0');
      assert.equal(registration.metadata.schemaHash, sha256(USERS_V1_YAML));
      assert.equal(registration.metadata.openapiVersion, '3.0.3');
      assert.equal(registration.metadata.endpointCount, 6);
      assert.ok(registration.metadata.registeredAt > 1_600_000_000);
      assert.deepEqual(registration.breakingChanges, []);
      assert.equal(client.schemaId, 'yaml-api');
      assert.equal(client.schemaVersion, '1.0.0');
      // Bound: calls that need a schema use it without being told.
      const endpoints = await client.listEndpoints();
      assert.equal(endpoints.length, 6);
    } finally {
      client.close();
    }
  });

  test('registers a JSON file and a file: URL; the content hash is that of the bytes sent', async () => {
    const client = new ContractValidator({ address: server.address });
    try {
      const json = await client.registerSchema('json-api', USERS_V1_JSON);
      assert.equal(json.metadata.schemaHash, sha256(USERS_V1_JSON));
      const viaUrl = await client.registerSchema('file-url-api', pathToFileURL(USERS_V1_YAML).href);
      assert.equal(viaUrl.metadata.schemaHash, sha256(USERS_V1_YAML));
    } finally {
      client.close();
    }
  });

  test('registers from an http URL', async () => {
    const client = new ContractValidator(server.address);
    try {
      const registration = await client.registerSchema('url-api', `${schemaBaseUrl}/users-api.yaml`);
      assert.equal(registration.metadata.schemaHash, sha256(USERS_V1_YAML));
      await assert.rejects(client.registerSchema('url-api', `${schemaBaseUrl}/missing.yaml`), (error: ContractValidatorError) => {
        assert.equal(error.code, 'INVALID_ARGUMENT');
        assert.match(error.message, /HTTP 404/);
        return true;
      });
    } finally {
      client.close();
    }
  });

  test('registerSchemaWithVersion registers under the given version and rebinds to it', async () => {
    const client = new ContractValidator(server.address);
    try {
      await client.registerSchemaWithVersion('versioned-api', USERS_V1_YAML, '1.0.0');
      const second = await client.registerSchemaWithVersion('versioned-api', USERS_V2_YAML, '2.1.0', {
        ownership: { owner: 'ada', team: 'identity' },
      });
      assert.equal(second.metadata.schemaVersion, '2.1.0');
      assert.deepEqual(second.metadata.ownership, { owner: 'ada', team: 'identity', contactEmail: '', readOnly: false });
      assert.equal(client.schemaVersion, '2.1.0');
      // Version 2 dropped the posts endpoint: the bound version is the one listed.
      assert.equal((await client.listEndpoints()).length, 5);
      assert.equal((await client.listEndpoints({ schemaVersion: '1.0.0' })).length, 6);
    } finally {
      client.close();
    }
  });

  test('content that is not OpenAPI is refused with code REJECTED and the server message', async () => {
    const client = new ContractValidator(server.address);
    const bogus = path.join(makeTempDir('svc-client-'), 'not-openapi.json');
    fs.writeFileSync(bogus, JSON.stringify({ hello: 'world' }));
    try {
      await assert.rejects(client.registerSchema('bogus', bogus), (error: ContractValidatorError) => {
        assert.ok(error instanceof ContractValidatorError);
        assert.equal(error.code, 'REJECTED');
        assert.match(error.details, /^Invalid schema: /);
        return true;
      });
      assert.equal(client.schemaId, undefined, 'a refused registration does not bind');
    } finally {
      fs.rmSync(bogus, { force: true });
      client.close();
    }
  });

  test('a file that cannot be read is INVALID_ARGUMENT naming the file', async () => {
    const client = new ContractValidator(server.address);
    try {
      await assert.rejects(client.registerSchema('x', '/nonexistent/openapi.yaml'), (error: ContractValidatorError) => {
        assert.equal(error.code, 'INVALID_ARGUMENT');
        assert.match(error.message, /\/nonexistent\/openapi\.yaml/);
        return true;
      });
    } finally {
      client.close();
    }
  });
});

describe('reading the registry', () => {
  test('getSchema returns metadata and the exact content; unknown ids and versions are undefined', async () => {
    const client = new ContractValidator(server.address);
    try {
      await client.registerSchema('get-api', USERS_V1_YAML);
      const schema = await client.getSchema('get-api');
      assert.ok(schema);
      assert.equal(schema.content, fs.readFileSync(USERS_V1_YAML, 'utf8'));
      assert.equal(schema.metadata.schemaVersion, '1.0.0');
      assert.equal(await client.getSchema('get-api', '9.9.9'), undefined);
      assert.equal(await client.getSchema('no-such-schema'), undefined);
    } finally {
      client.close();
    }
  });

  test('listSchemas pages with nextPageToken and filters by team', async () => {
    const client = new ContractValidator(server.address);
    try {
      for (const id of ['page-a', 'page-b', 'page-c']) {
        await client.registerSchema(id, USERS_V1_YAML, { ownership: { team: 'paging-team' } });
      }
      const first = await client.listSchemas({ team: 'paging-team', pageSize: 2 });
      assert.equal(first.totalCount, 3);
      assert.deepEqual(first.schemas.map((s) => s.schemaId), ['page-a', 'page-b']);
      assert.notEqual(first.nextPageToken, '');
      const second = await client.listSchemas({ team: 'paging-team', pageSize: 2, pageToken: first.nextPageToken });
      assert.deepEqual(second.schemas.map((s) => s.schemaId), ['page-c']);
      assert.equal(second.nextPageToken, '');
    } finally {
      client.close();
    }
  });

  test('listEndpoints returns method, template, operationId and summary in camelCase', async () => {
    const client = new ContractValidator({ address: server.address });
    try {
      await client.registerSchema('endpoints-api', USERS_V1_YAML);
      const endpoints = await client.listEndpoints();
      assert.deepEqual(endpoints.find((e) => e.operationId === 'getUser'), {
        method: 'GET', path: '/users/{id}', operationId: 'getUser', summary: 'Get a user',
      });
      assert.deepEqual(
        endpoints.map((e) => `${e.method} ${e.path}`).sort(),
        ['GET /health', 'GET /users', 'GET /users/me', 'GET /users/{id}', 'GET /users/{id}/posts', 'POST /users'],
      );
    } finally {
      client.close();
    }
  });

  test('a client bound through its options uses that schema; an unbound one says what is missing', async () => {
    const registrar = new ContractValidator(server.address);
    await registrar.registerSchema('options-api', USERS_V1_YAML);
    registrar.close();
    const bound = new ContractValidator({ address: server.address, schemaId: 'options-api' });
    const unbound = new ContractValidator(server.address);
    try {
      assert.equal((await bound.listEndpoints()).length, 6);
      await assert.rejects(unbound.listEndpoints(), (error: ContractValidatorError) => {
        assert.equal(error.code, 'FAILED_PRECONDITION');
        assert.match(error.message, /registerSchema/);
        return true;
      });
      const missing = await unbound.listEndpoints({ schemaId: 'never-registered' }).catch((error: unknown) => error);
      assert.ok(missing instanceof ContractValidatorError);
      assert.equal(missing.code, 'NOT_FOUND');
    } finally {
      bound.close();
      unbound.close();
    }
  });
});

describe('lifecycle', () => {
  test('close is idempotent and later calls fail with FAILED_PRECONDITION', async () => {
    const client = new ContractValidator({ address: server.address, schemaId: 'whatever' });
    client.close();
    client.close();
    await assert.rejects(client.listEndpoints(), (error: ContractValidatorError) => error.code === 'FAILED_PRECONDITION');
  });
});
