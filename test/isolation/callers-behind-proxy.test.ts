/**
 * Callers behind a proxy (`trustedProxies`): shared capacity is divided by caller, and behind a proxy
 * every caller without an API key would be the proxy's host. Over loopback the test client stands in
 * for the proxy (127.0.0.1 is trusted) and names clients in `x-forwarded-for`; the caller each
 * registration's intake is counted against is read where the document-task pool receives it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { runSvc } from '../cli/run-svc';
import { minimalDocument } from '../helpers/documents';
import { captureLogs } from '../helpers/log-capture';
import { spawnServerProcess, startTestServer, type TestServer } from '../helpers/server';

const KEY = 'proxy-test-key-Qw8Er6Ty4Ui2';

/** Registers a schema with `headers` as metadata; answers the caller its intake was counted against. */
async function callerOfRegistration(server: TestServer, headers: Record<string, string | string[]>): Promise<string> {
  const callers: string[] = [];
  const pool = server.server.context.documentTasks;
  const run = pool.run.bind(pool);
  pool.run = ((task, caller) => {
    callers.push(caller);
    return run(task, caller);
  }) as typeof pool.run;
  try {
    const metadata = new grpc.Metadata();
    for (const [name, values] of Object.entries(headers)) for (const value of [values].flat()) metadata.add(name, value);
    const answer = await server.client.call('RegisterSchema', { schema_id: `s-${Math.random().toString(36).slice(2)}`, schema_content: minimalDocument() }, { metadata });
    assert.equal(answer.success, true, answer.message);
  } finally {
    pool.run = run;
  }
  assert.equal(callers.length, 1, `intakes counted: ${callers.join(', ')}`);
  return callers[0]!;
}

describe('a server that trusts the proxy in front of it', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ trustedProxies: ['127.0.0.1', '::1'] });
  });
  after(() => server.close());

  test('counts a call as the client the proxy forwards for', async () => {
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': '203.0.113.7' }), 'peer:203.0.113.7');
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': '198.51.100.2' }), 'peer:198.51.100.2');
  });

  test('reads the chain from the nearest proxy: an address the client wrote itself further left is not taken', async () => {
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': '192.0.2.1, 198.51.100.2, 127.0.0.1' }), 'peer:198.51.100.2');
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': ['192.0.2.1', '198.51.100.2'] }), 'peer:198.51.100.2');
  });

  test('counts a call as the proxy when it names no client', async () => {
    assert.equal(await callerOfRegistration(server, {}), 'peer:127.0.0.1');
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': 'unknown' }), 'peer:127.0.0.1');
  });
});

describe('a server that trusts no proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('ignores x-forwarded-for: a client cannot choose whom it counts as', async () => {
    assert.equal(await callerOfRegistration(server, { 'x-forwarded-for': '203.0.113.7' }), 'peer:127.0.0.1');
  });
});

describe('a server with API keys behind a trusted proxy', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ trustedProxies: ['127.0.0.0/8'], apiKeyAuth: true, env: { SVC_API_KEYS: KEY } });
  });
  after(() => server.close());

  test("counts a call as its key's name, whatever the proxy forwards for", async () => {
    assert.equal(await callerOfRegistration(server, { 'x-api-key': KEY, 'x-forwarded-for': '203.0.113.7' }), 'key:env-1');
  });
});

test('svc serve takes --trusted-proxies (its listening line names them) and refuses an entry that is no address or range', async () => {
  const server = await spawnServerProcess({ storage: 'memory', args: ['--trusted-proxies', '127.0.0.1, 10.1.0.0/16'] });
  try {
    const listening = server.output.map((line) => JSON.parse(line) as { msg?: string; trustedProxies?: string[] }).find((entry) => entry.msg === 'svc server listening');
    assert.deepEqual(listening?.trustedProxies, ['127.0.0.1', '10.1.0.0/16']);
  } finally {
    assert.equal(await server.stop(), 0);
  }
  const refused = await runSvc(['serve', '--trusted-proxies', '10.1.0.0/16,lb.internal', '--port', '0', '--metrics-port=-1', '--storage', 'memory']);
  assert.equal(refused.code, 2, 'a usage error');
  assert.match(refused.stderr + refused.stdout, /trustedProxies: "lb\.internal" is not an IP address or CIDR range/);
});

describe('audit lines of calls through a trusted proxy', () => {
  const logs = captureLogs('info');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ trustedProxies: ['127.0.0.0/8'], apiKeyAuth: true, env: { SVC_API_KEYS: KEY }, logger: logs.logger });
  });
  after(() => server.close());

  const metadataOf = (headers: Record<string, string>) => {
    const metadata = new grpc.Metadata();
    for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
    return metadata;
  };
  const auditLine = (eventType: string, schemaId?: string) => logs.lines().find((line) => line.audit === true && line.event_type === eventType && (schemaId === undefined || line.schemaId === schemaId));

  test('name the client the proxy forwards for beside the peer, the proxy', async () => {
    const answer = await server.client.call('RegisterSchema', { schema_id: 'audited', schema_content: minimalDocument() }, { metadata: metadataOf({ 'x-api-key': KEY, 'x-forwarded-for': '203.0.113.7' }) });
    assert.equal(answer.success, true, answer.message);
    const registered = auditLine('schema_registered', 'audited');
    assert.ok(registered, logs.text());
    assert.equal(registered.actor, 'env-1');
    assert.match(String(registered.peer), /^127\.0\.0\.1:\d+$/);
    assert.equal(registered.client, '203.0.113.7');

    await assert.rejects(server.client.call('ListSchemas', {}, { metadata: metadataOf({ 'x-forwarded-for': '198.51.100.2' }) }));
    const refused = auditLine('auth_failure');
    assert.ok(refused, logs.text());
    assert.match(String(refused.peer), /^127\.0\.0\.1:\d+$/);
    assert.equal(refused.client, '198.51.100.2');
  });

  test('name no client when the proxy names none', async () => {
    const answer = await server.client.call('RegisterSchema', { schema_id: 'direct', schema_content: minimalDocument() }, { metadata: metadataOf({ 'x-api-key': KEY }) });
    assert.equal(answer.success, true, answer.message);
    const registered = auditLine('schema_registered', 'direct');
    assert.ok(registered, logs.text());
    assert.equal('client' in registered, false);
  });
});
