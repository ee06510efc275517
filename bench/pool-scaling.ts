/**
 * pool-scaling: validated interactions per second through the worker pool (in-process, no gRPC)
 * with 1, 2, 4 … workers up to the machine's cores, for a large-body workload where validation
 * dominates: a GET /users answer listing 2,000 users (about 130 KB).
 * Goal: throughput grows with workers at ≥ 0.7× linear while cores last.
 *
 * Each count runs ROUNDS measurements and reports their median (one 3 s round of one worker varied
 * by a quarter between runs on a 16-core machine). The notes give the main thread's busy share at
 * each count, which shows whether batching and copying on it, rather than the workers, set the rate,
 * and the machine's physical cores, since worker counts past them share cores with their siblings.
 * The rate per worker is listed too: one worker idles while its answer travels back and its next
 * batch comes (a batch of these calls is full by bytes long before it is by count, and only a full
 * batch is sent behind a running one), so two workers run more than twice as fast as one, and a
 * speed-up against one worker flatters the larger counts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSchema } from '../src/shared/openapi/load-document';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { ValidationOperation } from '../src/shared/pool-protocol/batches';
import { ValidationPool } from '../src/main/validation-pool';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT, machineNote, measureAsyncRate, median, ratioRow, type BenchRow, type BenchSuite } from './harness';

const USERS = 2_000;
const IN_FLIGHT_PER_WORKER = 8;
const MEASURE_MS = 3_000;
const ROUNDS = 3;
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
    const mainBusy: string[] = [];
    const perWorker: string[] = [];
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
        const rates: number[] = [];
        const utilisationBefore = performance.eventLoopUtilization();
        for (let round = 0; round < ROUNDS; round++) rates.push(await measureAsyncRate(call, threads * IN_FLIGHT_PER_WORKER, MEASURE_MS));
        mainBusy.push(`${threads}: ${Math.round(performance.eventLoopUtilization(utilisationBefore).utilization * 100)} %`);
        const rate = median(rates);
        perWorker.push(`${threads}: ${Math.round(rate / threads)}`);
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
        `${machineNote()}; ${physicalCoresNote()}`,
        `${(message.length / 1024).toFixed(0)} KB per message, ${IN_FLIGHT_PER_WORKER} calls in flight per worker, median of ${ROUNDS} rounds of ${MEASURE_MS / 1000} s; the main thread (batching, copies) shares the cores with the workers`,
        `interactions/s per worker, by worker count: ${perWorker.join(', ')}`,
        `main thread busy (event-loop utilisation) by worker count: ${mainBusy.join(', ')}`,
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

/** Physical cores as Linux's CPU topology lists them (hyper-threads share one), when it is readable. */
function physicalCoresNote(): string {
  const cpuRoot = '/sys/devices/system/cpu';
  try {
    const cores = new Set<string>();
    for (const entry of fs.readdirSync(cpuRoot)) {
      if (!/^cpu\d+$/.test(entry)) continue;
      const topology = path.join(cpuRoot, entry, 'topology');
      const pkg = fs.readFileSync(path.join(topology, 'physical_package_id'), 'utf8').trim();
      cores.add(`${pkg}:${fs.readFileSync(path.join(topology, 'core_id'), 'utf8').trim()}`);
    }
    return cores.size > 0 ? `${cores.size} physical cores (CPU topology)` : 'physical cores not listed';
  } catch {
    return 'physical cores not listed';
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
