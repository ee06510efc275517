/**
 * pool-scaling: validated interactions per second through the worker pool (in-process, no gRPC)
 * with 1, 2, 4 … workers up to the machine's cores, for a large-body workload where validation
 * dominates: a GET /users answer listing 2,000 users (about 130 KB).
 * Goal: throughput grows with workers at ≥ 0.7× linear while cores last.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSchema } from '../src/shared/openapi/load-document';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { ValidationOperation } from '../src/shared/pool-protocol/batches';
import { ValidationPool } from '../src/main/validation-pool';
import { REPO_ROOT, machineNote, measureAsyncRate, ratioRow, type BenchRow, type BenchSuite } from './harness';

const USERS = 2_000;
const IN_FLIGHT_PER_WORKER = 8;
const MEASURE_MS = 3_000;
const WARMUP_MS = 1_000;
const LINEAR_SHARE_GOAL = 0.7;

export const poolScalingSuite: BenchSuite = {
  name: 'pool-scaling',
  description: `interactions/s through the worker pool with 1, 2, 4 … workers (GET /users with ${USERS} users)`,
  async run(progress) {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'schemas', 'users-3.0.json'), 'utf8');
    const documentJson = JSON.stringify((await loadSchema(text)).document);
    const users = Array.from({ length: USERS }, (_, i) => ({ id: i, email: `user${i}@example.com`, name: `User number ${i}` }));
    const message = contractValidatorDefinition().ValidateInteraction.requestSerialize({
      schema_id: 'users',
      request: { method: 'GET', path: '/users?limit=100', headers: {}, body: '' },
      response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(users) },
    } as never);
    const contract = { schemaId: 'users', version: '1.0.0', hash: 'users-bench' };

    const rows: BenchRow[] = [];
    let single = 0;
    for (const threads of workerCounts(os.availableParallelism())) {
      progress(`${threads} worker${threads > 1 ? 's' : ''}`);
      const pool = new ValidationPool({ threads, loadContract: async (ref) => ({ ref, documentJson }) });
      await pool.start();
      try {
        const call = async () => {
          const answer = await pool.validate({ operation: ValidationOperation.INTERACTION, message, contract });
          if (!answer.valid) throw new Error('the bench interaction did not validate');
        };
        await measureAsyncRate(call, threads * IN_FLIGHT_PER_WORKER, WARMUP_MS);
        const rate = await measureAsyncRate(call, threads * IN_FLIGHT_PER_WORKER, MEASURE_MS);
        if (threads === 1) {
          single = rate;
          rows.push({ name: '1 worker', value: rate, unit: 'interactions/s' });
        } else {
          rows.push(ratioRow(`${threads} workers (speed-up vs 1)`, rate, 'interactions/s', { name: '1 worker', value: single }, round(threads * LINEAR_SHARE_GOAL)));
        }
      } finally {
        await pool.close();
      }
    }
    return {
      suite: 'pool-scaling',
      rows,
      notes: [
        machineNote(),
        `${(message.length / 1024).toFixed(0)} KB per message, ${IN_FLIGHT_PER_WORKER} calls in flight per worker; the main thread (batching, copies) shares the cores with the workers`,
      ],
    };
  },
};

/**
 * 1, 2, 4 … below the core count, then one less than the cores (a core left to the main thread,
 * which batches and copies) and the core count itself: 1, 2, 4, 8, 15, 16 on 16 cores.
 */
function workerCounts(cores: number): number[] {
  const counts: number[] = [];
  for (let n = 1; n < cores; n *= 2) counts.push(n);
  if (cores - 1 > counts[counts.length - 1]!) counts.push(cores - 1);
  counts.push(cores);
  return counts;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
