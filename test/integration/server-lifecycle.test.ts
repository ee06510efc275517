/** Health service, server reflection, UNIMPLEMENTED answers and graceful shutdown of `svc serve`. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { minimalDocument } from '../helpers/documents';
import { checkHealth } from '../helpers/health';
import { REPO_ROOT } from '../helpers/paths';
import { createTestClient, spawnServerProcess, startTestServer, type TestServer } from '../helpers/server';

function listServicesByReflection(address: string): Promise<string[]> {
  const protoFile = path.join(REPO_ROOT, 'node_modules/@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto');
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(protoFile, { keepCase: true })) as any;
  const client = new pkg.grpc.reflection.v1.ServerReflection(address, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    const call = client.ServerReflectionInfo();
    call.on('data', (response: any) => {
      resolve(response.list_services_response.service.map((s: { name: string }) => s.name).sort());
      call.end();
    });
    call.on('error', reject);
    call.on('end', () => client.close());
    call.write({ list_services: '' });
  });
}

function healthClient(address: string): any {
  const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String })) as any;
  return new pkg.grpc.health.v1.Health(address, grpc.credentials.createInsecure());
}

describe('server lifecycle', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());

  it('reports SERVING for the server and for svc.ContractValidator', async () => {
    assert.equal(await checkHealth(t.address), 'SERVING');
    assert.equal(await checkHealth(t.address, 'svc.ContractValidator'), 'SERVING');
  });

  it('serves reflection so grpcurl needs no proto file', async () => {
    const services = await listServicesByReflection(t.address);
    assert.ok(services.includes('svc.ContractValidator'), services.join(','));
    assert.ok(services.includes('grpc.health.v1.Health'), services.join(','));
  });

  it('closes idempotently and reports NOT_SERVING to health watchers while closing', async () => {
    const own = await startTestServer();
    const statuses = await new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      const client = healthClient(own.address);
      const watch = client.Watch({ service: '' });
      watch.on('data', (update: { status: string }) => {
        seen.push(update.status);
        if (update.status === 'SERVING') void own.server.close();
        if (update.status === 'NOT_SERVING') {
          watch.cancel();
          client.close();
          resolve(seen);
        }
      });
      watch.on('error', () => resolve(seen));
    });
    assert.deepEqual(statuses, ['SERVING', 'NOT_SERVING']);
    const closing = own.server.close();
    const again = own.server.close();
    assert.equal(closing, again);
    await closing;
    own.client.close();
  });
});

describe('svc serve process', () => {
  it('finishes in-flight calls on SIGTERM, then exits 0', async () => {
    const server = await spawnServerProcess({ storage: 'memory' });
    const client = createTestClient(server.address);
    // A large document keeps the registration busy while the signal arrives.
    const bigPaths: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) bigPaths[`/r${i}/{id}`] = { get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { 200: { description: 'ok' } } } };
    const inFlight = client.call('RegisterSchema', { schema_id: 'big', schema_content: minimalDocument('1.0.0', bigPaths) });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const exit = server.stop('SIGTERM');
    const response = await inFlight;
    assert.equal(response.success, true, response.message);
    assert.equal(await exit, 0);
    client.close();
    assert.ok(server.output.some((line) => line.includes('"msg":"svc server stopped"')));
  });

  it('a second stop signal answers the calls still in flight UNAVAILABLE at once, and the stop still ends in order (exit 0)', async () => {
    const server = await spawnServerProcess({ storage: 'memory' });
    const client = createTestClient(server.address);
    // A validation stream left open: a graceful stop waits for it (shutdownGraceMs, 10 s).
    const stream = (client.raw as unknown as { ValidateInteractionStream(): grpc.ClientDuplexStream<object, object> }).ValidateInteractionStream();
    const streamEnded = new Promise<void>((resolve) => {
      stream.on('error', () => resolve());
      stream.on('end', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Before, the second signal ended the process at once, by the signal: no flush, no store closed.
    const exit = server.stop('SIGTERM');
    assert.equal(await exit, 0);
    await streamEnded;
    assert.ok(Date.now() - started < 5_000, `stopped after ${Date.now() - started} ms; the grace period is 10 s`);
    assert.ok(server.output.some((line) => line.includes('stop asked again: calls in flight answered UNAVAILABLE now')));
    assert.ok(server.output.some((line) => line.includes('"operation":"ValidateInteractionStream"') && line.includes('"code":"UNAVAILABLE"') && line.includes('shutting down')), server.output.join('\n'));
    assert.ok(server.output.some((line) => line.includes('"msg":"svc server stopped"')));
    client.close();
  });

  it('takes SVC_STORAGE and LOG_LEVEL from the environment and logs JSON lines', async () => {
    const server = await spawnServerProcess({ env: { SVC_STORAGE: 'memory', LOG_LEVEL: 'debug' } });
    try {
      const line = JSON.parse(server.output.find((l) => l.includes('svc server listening'))!);
      assert.equal(line.level, 'info');
      assert.equal(typeof line.ts, 'number');
      assert.equal(line.caller, 'server');
      assert.equal(line.storage, 'memory');
      assert.equal(await checkHealth(server.address), 'SERVING');
    } finally {
      assert.equal(await server.stop('SIGINT'), 0);
    }
  });
});

describe('a start that fails', () => {
  it('releases the gRPC port it had bound and rejects with the cause', async () => {
    const net = await import('node:net');
    const listenOn = (port: number) => new Promise<import('node:net').Server>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
    const taken = await listenOn(0);
    const takenPort = (taken.address() as import('node:net').AddressInfo).port;
    const probe = await listenOn(0);
    const grpcPort = (probe.address() as import('node:net').AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    try {
      await assert.rejects(startTestServer({ port: grpcPort, metricsPort: takenPort }), /EADDRINUSE/);
      const again = await listenOn(grpcPort); // fails with EADDRINUSE if the gRPC server still holds it
      await new Promise((resolve) => again.close(resolve));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
