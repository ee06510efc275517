/**
 * A schema URL's credentials and query values (`https://ci:token@…`, `?token=…`, how private raw
 * files are fetched) are never printed: compare reports, which CI publishes, named both URLs whole,
 * and every message of a fetch that failed (HTTP error, a URL with credentials fetch refuses, a
 * document that is not valid) repeated them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { COMPARE_FORMATS } from '../../src/cli/reports/compare-report';
import { cliFixture, runSvcInProcess } from '../cli/run-svc';

const SECRETS = ['hunter2', 'tok-old-7f3a', 'tok-new-91c2'];
const documents: Record<string, string> = {
  '/users-v1.yaml': fs.readFileSync(cliFixture('users-v1.yaml'), 'utf8'),
  '/users-v2.json': fs.readFileSync(cliFixture('users-v2.json'), 'utf8'),
  '/broken.yaml': 'openapi: 3.0.0\ninfo: [',
};

let server: http.Server;
let base: string;
before(async () => {
  server = http.createServer((request, response) => {
    const text = documents[new URL(request.url!, 'http://x').pathname];
    if (text === undefined) response.writeHead(404).end('not here');
    else response.writeHead(200).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

function assertNoSecret(text: string, what: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${what} shows ${secret}:\n${text}`);
}

test('compare reports name schema URLs without their query values', async () => {
  for (const format of COMPARE_FORMATS) {
    const { code, stdout, stderr } = await runSvcInProcess(['compare', '--old', `${base}/users-v1.yaml?token=tok-old-7f3a`, '--new', `${base}/users-v2.json?token=tok-new-91c2&ref=main`, '--format', format]);
    assert.equal(code, 1, stderr);
    assertNoSecret(stdout + stderr, `--format ${format}`);
  }
  const { stdout } = await runSvcInProcess(['compare', '--old', `${base}/users-v1.yaml?token=tok-old-7f3a`, '--new', `${base}/users-v2.json?token=tok-new-91c2&ref=main`, '--json']);
  assert.match(stdout, /users-v2\.json\?token=\*\*\*&ref=\*\*\*/);
});

test('messages of a schema URL that could not be used name it without credentials or query values', async () => {
  const cases: Array<[string, RegExp]> = [
    [`${base}/missing.yaml?token=tok-old-7f3a`, /cannot fetch schema http:\/\/127\.0\.0\.1:\d+\/missing\.yaml\?token=\*\*\*: HTTP 404/],
    [`http://ci:hunter2@${base.slice('http://'.length)}/users-v1.yaml`, /cannot fetch schema http:\/\/\*\*\*@127\.0\.0\.1:\d+\/users-v1\.yaml: /],
    [`${base}/broken.yaml?token=tok-old-7f3a`, /broken\.yaml\?token=\*\*\*: Invalid schema: /],
  ];
  for (const [location, message] of cases) {
    const compared = await runSvcInProcess(['compare', '--old', cliFixture('users-v1.yaml'), '--new', location]);
    assert.equal(compared.code, 1);
    assert.match(compared.stderr, message);
    assertNoSecret(compared.stdout + compared.stderr, `compare --new ${location}`);
    const listed = await runSvcInProcess(['generate', '--schema', location, '--list']);
    assert.notEqual(listed.code, 0);
    assertNoSecret(listed.stdout + listed.stderr, `generate --schema ${location}`);
  }
});
