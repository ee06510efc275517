/**
 * Several `svc serve --storage postgres` processes of the built CLI on one throw-away database,
 * each with a client: what the replica tests share.
 */
import { spawnServerProcess, createTestClient, type ServerProcess, type TestClient } from '../helpers/server';
import { startPostgresCluster, type PostgresCluster } from '../helpers/postgres';

export interface Replica {
  process: ServerProcess;
  client: TestClient;
}

export interface ReplicaSet {
  cluster: PostgresCluster;
  databaseUrl: string;
  replicas: Replica[];
  close(): Promise<void>;
}

/** Starts the cluster, then `count` replicas at once (their migrations race under the advisory lock). */
export async function startReplicaSet(count: number, database = 'registry'): Promise<ReplicaSet> {
  const cluster = await startPostgresCluster();
  const replicas: Replica[] = [];
  try {
    const databaseUrl = await cluster.createDatabase(database);
    const processes = await Promise.all(Array.from({ length: count }, () => startReplica(databaseUrl)));
    for (const process of processes) replicas.push({ process, client: createTestClient(process.address) });
    return {
      cluster,
      databaseUrl,
      replicas,
      async close() {
        for (const replica of replicas) replica.client.close();
        await Promise.all(replicas.map((replica) => replica.process.stop()));
        await cluster.destroy();
      },
    };
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
}

/** One worker thread each: three replicas share two cores in these tests. */
export function startReplica(databaseUrl: string): Promise<ServerProcess> {
  return spawnServerProcess({ storage: 'postgres', args: ['--database-url', databaseUrl, '--worker-threads', '1'] });
}

/** Polls `check` until it returns true, at most `timeoutMs`; resolves with the milliseconds it took. */
export async function within(timeoutMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (let attempt = 0; attempt < 1_000; attempt++) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not true within ${timeoutMs} ms`);
}

/** A small contract: GET /users/{id} answering a user with a required email. */
export function usersDocument(version: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Users', version },
    paths: {
      '/users/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            200: {
              description: 'a user',
              content: { 'application/json': { schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } } } },
            },
          },
        },
      },
      ...extra,
    },
  });
}

export const USER_INTERACTION = Object.freeze({
  request: { method: 'GET', path: '/users/7', headers: {}, body: '' },
  response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' },
});
