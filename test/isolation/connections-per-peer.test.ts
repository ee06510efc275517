/**
 * One client address holds at most maxConnectionsPerPeer connections. Before, under a 256-descriptor
 * limit, 240 connections from one host that completed the HTTP/2 preface and then sent nothing kept
 * every other client out (their connections were accepted and dropped for want of a descriptor)
 * until they counted as idle 5 minutes later.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { runSvc } from '../cli/run-svc';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { CLIENT_MAGIC, EMPTY_SETTINGS_FRAME, closedAfter, connectAndWrite } from '../helpers/raw-connections';
import { captureLogs } from '../helpers/log-capture';
import { REPO_ROOT } from '../helpers/paths';
import { spawnServerProcess, startTestServer } from '../helpers/server';

const LIMIT = 3;
const PREFACE = Buffer.concat([CLIENT_MAGIC, EMPTY_SETTINGS_FRAME]);

test('a connection past maxConnectionsPerPeer from one address is reset at once; calls on the others go on, and a freed slot is taken again', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ maxConnectionsPerPeer: LIMIT, logger: logs.logger });
  const sockets: net.Socket[] = [];
  try {
    for (let i = 0; i < LIMIT; i++) sockets.push((await connectAndWrite(server.server.port, PREFACE)).socket);
    // The test's own client connects only on its first call: the held connections take every slot.
    const extra = net.connect(server.server.port, '127.0.0.1');
    extra.on('error', () => undefined); // reset by the server, maybe before 'connect'
    await closedAfter(extra, performance.now(), 2_000, 'the connection past the limit');
    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.families.get('svc_peer_connections_refused_total')!.samples[0]!.value, 1);
    assert.ok(logs.lines().some((line) => line.level === 'warn' && /connection refused \(reset\): 127\.0\.0\.1 already has 3 open connections \(maxConnectionsPerPeer\)/.test(String(line.msg))), logs.text());
    assert.ok(sockets.every((socket) => !socket.destroyed), 'the connections within the limit stay open');

    // One closes: its slot is free for the next connection (the test client's).
    const freed = sockets.pop()!;
    await new Promise<void>((resolve) => { freed.once('close', () => resolve()); freed.destroy(); });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await server.client.call('ListSchemas', {});
    assert.ok(Array.isArray(answer.schemas));
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.close();
  }
});

test('trusted proxies are not limited: every client behind one shares its address', async () => {
  const server = await startTestServer({ maxConnectionsPerPeer: LIMIT, trustedProxies: ['127.0.0.1'] });
  const sockets: net.Socket[] = [];
  try {
    for (let i = 0; i < LIMIT + 2; i++) sockets.push((await connectAndWrite(server.server.port, PREFACE)).socket);
    const answer = await server.client.call('ListSchemas', {});
    assert.ok(Array.isArray(answer.schemas));
    assert.ok(sockets.every((socket) => !socket.destroyed));
  } finally {
    for (const socket of sockets) socket.destroy();
    await server.close();
  }
});

test('svc serve takes --max-connections-per-peer (SVC_MAX_CONNECTIONS_PER_PEER) and refuses a value that is no count', async () => {
  const server = await spawnServerProcess({ storage: 'memory', args: ['--max-connections-per-peer', String(LIMIT)] });
  const sockets: net.Socket[] = [];
  try {
    for (let i = 0; i < LIMIT; i++) sockets.push((await connectAndWrite(server.port, PREFACE)).socket);
    const extra = net.connect(server.port, '127.0.0.1');
    extra.on('error', () => undefined);
    await closedAfter(extra, performance.now(), 2_000, 'the connection past the flag\'s limit');
  } finally {
    for (const socket of sockets) socket.destroy();
    assert.equal(await server.stop(), 0);
  }
  const refused = await runSvc(['serve', '--max-connections-per-peer', 'many', '--port', '0', '--metrics-port=-1', '--storage', 'memory']);
  assert.equal(refused.code, 2, 'a usage error');
  assert.match(refused.stderr + refused.stdout, /--max-connections-per-peer/);
});

test('under a low open-file limit the default is a quarter of it: one address cannot take every descriptor (ulimit -n 256: 64)', async () => {
  const serve = `ulimit -n 256 && exec "${process.execPath}" bin/svc.js serve --host 127.0.0.1 --port 0 --metrics-port=-1 --storage memory`;
  const child = spawn('bash', ['-c', serve], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info' } });
  try {
    const listening = await new Promise<{ maxConnectionsPerPeer?: number }>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error('the server did not start within 20 s')), 20_000);
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        const line = buffered.split('\n').find((text) => text.includes('svc server listening'));
        if (line !== undefined) {
          clearTimeout(guard);
          resolve(JSON.parse(line) as { maxConnectionsPerPeer?: number });
        }
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    });
    assert.equal(listening.maxConnectionsPerPeer, 64);
  } finally {
    child.kill('SIGTERM');
  }
});
