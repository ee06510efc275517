/**
 * `ContractValidator.close()` ends every interaction stream opened through the client, the
 * middleware's among them: an Express app in warn or shadow mode whose server and validator are
 * closed exits at once, not when the stream's idle timer (5 s) would have ended it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../helpers/paths';
import { USERS_SCHEMA_ID, startUsersApiServer, type UsersApiServer } from '../helpers/client-fixtures';
import { INTERACTION_STREAM_DEFAULTS } from '@svc/client';

/** Serves one validated request in the given mode, then closes the HTTP server and the validator. */
const APP = `
const http = require('node:http');
const express = require('express');
const { ContractValidator, createExpressMiddleware } = require('@svc/client');
const validator = new ContractValidator({ address: process.env.SVC_ADDRESS, schemaId: process.env.SCHEMA_ID });
const middleware = createExpressMiddleware({ schemaId: process.env.SCHEMA_ID, validator, mode: process.env.MODE });
const app = express();
app.use(middleware);
app.get('/users/:id', (req, res) => res.json({ id: Number(req.params.id), name: 'Ada' }));
const server = http.createServer(app).listen(0, '127.0.0.1', async () => {
  const response = await fetch('http://127.0.0.1:' + server.address().port + '/users/7');
  await response.text();
  await middleware.flush();
  if (middleware.stats().validated !== 1) throw new Error('not validated: ' + JSON.stringify(middleware.stats()));
  server.close();
  validator.close();
  process.stdout.write('closed ' + Date.now() + '\\n');
});
`;

let api: UsersApiServer;
before(async () => {
  api = await startUsersApiServer();
});
after(() => api.close());

for (const mode of ['warn', 'shadow']) {
  test(`${mode} mode: the app exits as soon as its server and validator are closed`, async () => {
    const child = spawn(process.execPath, ['-e', APP], {
      cwd: REPO_ROOT,
      env: { ...process.env, SVC_ADDRESS: api.address, SCHEMA_ID: USERS_SCHEMA_ID, MODE: mode },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const exitedAt = Date.now();
    assert.equal(code, 0, stderr);
    const closedAt = Number(/closed (\d+)/.exec(stdout)?.[1]);
    assert.ok(Number.isFinite(closedAt), stdout);
    const lingerMs = exitedAt - closedAt;
    assert.ok(lingerMs < INTERACTION_STREAM_DEFAULTS.idleCloseMs / 2, `the process lived ${lingerMs} ms after close()`);
  });
}
