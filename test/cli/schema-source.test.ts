import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readSchemaText } from '../../src/cli/schema-source';
import { cliFixture, runSvc, unusedPort } from './run-svc';

const yamlText = fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8');
const jsonText = fs.readFileSync(cliFixture('users-v2.json'), 'utf8');
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((request, response) => {
    switch (request.url) {
      case '/users-v1.yaml':
        response.writeHead(200, { 'content-type': 'application/yaml' }).end(yamlText);
        return;
      case '/users-v2.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(jsonText);
        return;
      case '/unbounded':
        // No Content-Length: the size limit must hold while the body streams in.
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('x'.repeat(64 * 1024));
        response.end('x'.repeat(64 * 1024));
        return;
      case '/silent':
        return; // never answers: the fetch time-out must end the wait
      default:
        response.writeHead(404).end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

test('schema URLs: YAML and JSON over http are read as is', async () => {
  assert.equal(await readSchemaText(`${base}/users-v1.yaml`), yamlText);
  assert.equal(await readSchemaText(`${base}/users-v2.json`), jsonText);
});

test('schema URLs (child process): compare reads both schemas from http URLs', async () => {
  const { code, stdout, stderr } = await runSvc(['compare', '--old', `${base}/users-v1.yaml`, '--new', `${base}/users-v2.json`]);
  assert.equal(code, 1, stderr);
  assert.match(stdout, /^Found 4 breaking changes\n/);
});

test('schema URLs: HTTP errors, size and time limits are clear failures', async () => {
  await assert.rejects(readSchemaText(`${base}/missing.yaml`), { message: `cannot fetch schema ${base}/missing.yaml: HTTP 404 Not Found` });
  await assert.rejects(
    readSchemaText(`${base}/unbounded`, { maxBytes: 100 * 1024, fetchTimeoutMs: 5_000 }),
    { code: 'LIMIT_EXCEEDED', message: /over the limit of 100 KiB \(maxSchemaBytes\)/ },
  );
  const started = Date.now();
  await assert.rejects(
    readSchemaText(`${base}/silent`, { maxBytes: 1024, fetchTimeoutMs: 200 }),
    { message: /no complete answer within 0\.2 s \(fetchTimeoutMs\)/ },
  );
  assert.ok(Date.now() - started < 2_000);
  const closedPort = await unusedPort();
  await assert.rejects(readSchemaText(`http://127.0.0.1:${closedPort}/x.yaml`), {
    message: `cannot fetch schema http://127.0.0.1:${closedPort}/x.yaml: connect ECONNREFUSED 127.0.0.1:${closedPort}`,
  });
});

test('schema files: size is checked before reading, folders and missing files are named', async () => {
  await assert.rejects(readSchemaText(cliFixture('users-v1.yaml'), { maxBytes: 100, fetchTimeoutMs: 1_000 }), {
    code: 'LIMIT_EXCEEDED',
    message: /schema file ".*users-v1\.yaml" is .* over the limit of 100 bytes \(maxSchemaBytes\)/,
  });
  await assert.rejects(readSchemaText(cliFixture('')), { message: /it is a folder/ });
  await assert.rejects(readSchemaText(cliFixture('nope.yaml')), { message: /no such file$/ });
});
