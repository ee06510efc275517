/**
 * postgres: the shared registry. Registrations/s and ValidateInteraction calls/s on SQLite (one
 * replica, the baseline) and on PostgreSQL with one and with three replicas on one database, same
 * client load spread round-robin; then CanIDeploy p95 with 1,000 consumers in 10 environments on
 * both stores. Validation never touches the database on its hot path, so the goal is PostgreSQL at
 * ≥ 0.95× SQLite for validation. On 2 cores three replicas cannot scale; what matters there is that
 * every acknowledged write is stored (checked after each run). Skipped, with a line saying why,
 * when no PostgreSQL server binaries are installed.
 */
import fs from 'node:fs';
import { measureAsyncRate, machineNote, percentile, ratioRow, type BenchRow, type BenchSuite, type Progress } from './harness';
import { POSTGRES_SKIP_REASON, startPostgresCluster } from '../test/helpers/postgres';
import { createTestClient, makeTempDir, spawnServerProcess, type ServerProcess, type TestClient } from '../test/helpers/server';

const VALIDATION_CONCURRENCY = 32;
const REGISTRATION_CONCURRENCY = 8;
const MEASURE_MS = 3_000;
const WARMUP_MS = 500;
const CONSUMERS = 1_000;
const ENVIRONMENTS = 10;
const CAN_I_DEPLOY_CALLS = 200;
const GOAL_VALIDATION_RATIO = 0.95;

interface Deployment {
  name: string;
  processes: ServerProcess[];
  clients: TestClient[];
  stop(): Promise<void>;
}

export const postgresSuite: BenchSuite = {
  name: 'postgres',
  description: 'registrations/s and validations/s on SQLite vs PostgreSQL (1 and 3 replicas), CanIDeploy p95 with 1,000 consumers',
  async run(progress) {
    if (POSTGRES_SKIP_REASON) return { suite: 'postgres', rows: [], notes: [`skipped: ${POSTGRES_SKIP_REASON}`] };
    const cluster = await startPostgresCluster();
    const dataDir = makeTempDir('svc-bench-sqlite-');
    try {
      const sqlite = await deploy('sqlite, 1 replica', 1, { storage: 'sqlite', dataDir });
      const sqliteFigures = await measure(sqlite, progress);
      const sqliteP95 = await canIDeployP95(sqlite, progress);
      await sqlite.stop();

      const pgOne = await deploy('postgres, 1 replica', 1, { storage: 'postgres', args: ['--database-url', await cluster.createDatabase('bench_one')] });
      const pgOneFigures = await measure(pgOne, progress);
      const pgP95 = await canIDeployP95(pgOne, progress);
      await pgOne.stop();

      const threeUrl = await cluster.createDatabase('bench_three');
      const pgThree = await deploy('postgres, 3 replicas', 3, { storage: 'postgres', args: ['--database-url', threeUrl, '--worker-threads', '1'] });
      const pgThreeFigures = await measure(pgThree, progress);
      await pgThree.stop();

      const rows: BenchRow[] = [
        ratioRow('validations/s, postgres 1 replica', pgOneFigures.validations, 'calls/s', { name: 'sqlite 1 replica', value: sqliteFigures.validations }, GOAL_VALIDATION_RATIO),
        ratioRow('validations/s, postgres 3 replicas', pgThreeFigures.validations, 'calls/s', { name: 'postgres 1 replica', value: pgOneFigures.validations }),
        ratioRow('registrations/s, postgres 1 replica', pgOneFigures.registrations, 'calls/s', { name: 'sqlite 1 replica', value: sqliteFigures.registrations }),
        ratioRow('registrations/s, postgres 3 replicas', pgThreeFigures.registrations, 'calls/s', { name: 'postgres 1 replica', value: pgOneFigures.registrations }),
        ratioRow(`CanIDeploy p95, ${CONSUMERS} consumers in ${ENVIRONMENTS} environments, postgres`, pgP95, 'ms', { name: 'sqlite', value: sqliteP95 }),
      ];
      return {
        suite: 'postgres',
        rows,
        notes: [
          `${machineNote()}; client, servers and PostgreSQL share these cores (one replica: default worker threads; three: one each)`,
          `validation: ${VALIDATION_CONCURRENCY} calls in flight; registrations: ${REGISTRATION_CONCURRENCY} in flight, a new version each; ${MEASURE_MS / 1000} s each`,
          'every acknowledged registration was read back from another replica after each run',
          'PostgreSQL runs with fsync=off here (a throw-away cluster): registration figures are an upper bound',
        ],
      };
    } finally {
      await cluster.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

async function deploy(name: string, count: number, options: Parameters<typeof spawnServerProcess>[0]): Promise<Deployment> {
  const processes = await Promise.all(Array.from({ length: count }, () => spawnServerProcess(options)));
  const clients = processes.map((process) => createTestClient(process.address));
  return {
    name,
    processes,
    clients,
    async stop() {
      for (const client of clients) client.close();
      await Promise.all(processes.map((process) => process.stop()));
    },
  };
}

async function measure(deployment: Deployment, progress: Progress): Promise<{ validations: number; registrations: number }> {
  const { clients } = deployment;
  const first = await clients[0]!.call('RegisterSchema', { schema_id: 'users', schema_content: usersDocument('1.0.0') });
  if (!first.success) throw new Error(first.message);
  const interaction = {
    schema_id: 'users',
    request: { method: 'GET', path: '/users/7', headers: {}, body: '' },
    response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' },
  };
  const validate = async (i: number) => {
    const result = await clients[i % clients.length]!.call('ValidateInteraction', interaction);
    if (!result.valid) throw new Error(`unexpected invalid result: ${result.errors.join('; ')}`);
  };
  progress(`${deployment.name}: validations`);
  await measureAsyncRate(validate, VALIDATION_CONCURRENCY, WARMUP_MS);
  const validations = await measureAsyncRate(validate, VALIDATION_CONCURRENCY, MEASURE_MS);

  progress(`${deployment.name}: registrations`);
  const acknowledged: string[] = [];
  const register = async (i: number) => {
    const version = `2.0.${i}`;
    const answer = await clients[i % clients.length]!.call('RegisterSchema', { schema_id: 'bench', schema_content: usersDocument(version) });
    if (!answer.success) throw new Error(answer.message);
    acknowledged.push(version);
  };
  const registrations = await measureAsyncRate(register, REGISTRATION_CONCURRENCY, MEASURE_MS, 100_000);
  const reader = clients[clients.length - 1]!;
  for (const version of acknowledged) {
    const stored = await reader.call('GetSchema', { schema_id: 'bench', schema_version: version });
    if (!stored.found) throw new Error(`${deployment.name}: acknowledged version ${version} is missing`);
  }
  return { validations, registrations };
}

/** Registers 1,000 consumers over 10 environments, then times CanIDeploy one call at a time. */
async function canIDeployP95(deployment: Deployment, progress: Progress): Promise<number> {
  const client = deployment.clients[0]!;
  progress(`${deployment.name}: ${CONSUMERS} consumers, then ${CAN_I_DEPLOY_CALLS} CanIDeploy calls`);
  await client.call('RegisterSchema', { schema_id: 'deployed', schema_content: usersDocument('1.0.0') });
  await client.call('RegisterSchema', { schema_id: 'deployed', schema_content: usersDocument('1.1.0') });
  for (let environment = 0; environment < ENVIRONMENTS; environment++) {
    const created = await client.call('CreateEnvironment', { name: `env-${environment}`, description: 'bench' });
    if (!created.success) throw new Error(created.message);
  }
  await measureAsyncRate(async (i) => {
    const answer = await client.call('RegisterConsumer', {
      consumer_id: `consumer-${i}`, consumer_version: '1.0.0', schema_id: 'deployed', schema_version: '1.0.0',
      environment: `env-${i % ENVIRONMENTS}`, used_endpoints: [{ method: 'GET', path: '/users/{id}', used_fields: ['email'] }],
    });
    if (!answer.success) throw new Error(answer.message);
  }, 8, 120_000, CONSUMERS);
  const latencies: number[] = [];
  for (let i = 0; i < CAN_I_DEPLOY_CALLS; i++) {
    const started = performance.now();
    const verdict = await client.call('CanIDeploy', { schema_id: 'deployed', new_version: '1.1.0', environment: `env-${i % ENVIRONMENTS}` });
    latencies.push(performance.now() - started);
    if (verdict.affected_consumers.length !== CONSUMERS / ENVIRONMENTS) throw new Error(`CanIDeploy saw ${verdict.affected_consumers.length} consumers`);
  }
  return percentile(latencies.sort((a, b) => a - b), 0.95);
}

function usersDocument(version: string): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Users', version },
    paths: {
      '/users/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: { description: 'a user', content: { 'application/json': { schema: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } } } } } },
        },
      },
    },
  });
}
