/**
 * The listening connection dropped without a word on the way (a NAT or load balancer's idle timeout:
 * packets vanish, no reset comes): the replica notices and listens again. Before, nothing ever
 * failed on that connection, and every change reached the replica by the periodic re-read alone
 * (each one 18-30 s late on a real server, for as long as it ran).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import type { SchemaVersionWrite } from '../../src/main/storage/storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { within } from './replica-set';

function version(contentHash: string): SchemaVersionWrite {
  return {
    schemaId: 'users', version: '1.0.0', content: '{}', contentHash, documentJson: '{}', openapiVersion: '3.0.0', endpointCount: 1,
    ownership: { owner: '', team: '', contactEmail: '', readOnly: false }, registeredAt: 1, updatedAt: 1, intakeRevision: 1,
  };
}

/** Forwards to PostgreSQL; `silence()` makes the listening connection's bytes vanish both ways, its sockets left open. */
function startProxy(port: number): Promise<{ port: number; silence(): boolean; listening(): boolean; close(): void }> {
  const pairs = new Set<{ inbound: net.Socket; outbound: net.Socket; listening: boolean; silent: boolean }>();
  const server = net.createServer((inbound) => {
    const pair = { inbound, outbound: net.connect(port, '127.0.0.1'), listening: false, silent: false };
    pairs.add(pair);
    inbound.on('data', (data: Buffer) => {
      if (data.includes('LISTEN ')) pair.listening = true;
      if (!pair.silent) pair.outbound.write(data);
    });
    pair.outbound.on('data', (data: Buffer) => {
      if (!pair.silent) inbound.write(data);
    });
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      pair.outbound.destroy();
    };
    for (const socket of [inbound, pair.outbound]) socket.on('error', end).on('close', end);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: (server.address() as net.AddressInfo).port,
    silence() {
      const listener = [...pairs].find((pair) => pair.listening);
      if (listener) listener.silent = true;
      return listener !== undefined;
    },
    /** Whether a connection that was not silenced has sent LISTEN. */
    listening() {
      return [...pairs].some((pair) => pair.listening && !pair.silent);
    },
    close() {
      for (const pair of pairs) {
        pair.inbound.destroy();
        pair.outbound.destroy();
      }
      server.close();
    },
  })));
}

describe('listening connection dropped silently', { skip: POSTGRES_SKIP_REASON }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.destroy());

  it('the replica listens again, and changes reach it without waiting for the periodic re-read', async () => {
    const databaseUrl = await cluster.createDatabase('silent');
    const proxy = await startProxy(cluster.port);
    const writer = await PostgresStorage.open({ databaseUrl });
    // No periodic re-read within the test: only the listener can bring the change.
    const follower = await PostgresStorage.open({
      databaseUrl: databaseUrl.replace(`:${cluster.port}/`, `:${proxy.port}/`),
      resyncIntervalMs: 600_000, listenerHeartbeatMs: 200, statementTimeoutMs: 300,
    });
    const hashes: string[] = [];
    try {
      follower.changes.subscribe((change) => {
        if (change.type === 'schema-version') hashes.push(change.summary.contentHash);
        if (change.type === 'resync') hashes.push(...change.summaries.map((summary) => summary.contentHash));
      });
      await writer.saveSchemaVersion(version('a'.repeat(64)));
      await within(2_000, async () => hashes.includes('a'.repeat(64)));
      assert.equal(proxy.silence(), true);
      await writer.saveSchemaVersion(version('b'.repeat(64)));
      // The heartbeat goes unanswered for 1.3 s (query_timeout), the listener connects again and re-reads.
      await within(5_000, async () => hashes.includes('b'.repeat(64)));
      // The loss's own re-read (through the pool) may bring b before the new connection listens.
      await within(5_000, async () => proxy.listening());
      await writer.saveSchemaVersion(version('c'.repeat(64)));
      await within(2_000, async () => hashes.includes('c'.repeat(64)));
    } finally {
      await Promise.all([writer.close(), follower.close()]);
      proxy.close();
    }
  });
});
