/**
 * What is read of the stored samples: replay asks the store for one consumer's newest valid samples,
 * at most as many as it replays (the store bounds the read, every backend alike), and the usage
 * registry learns the stored shapes at start without reading a single body (reading all of them
 * once took 6.6 s and 1.7 GB for 25,000 samples).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { UsageRegistry } from '../../src/main/evidence/usage-registry';
import type { InteractionSampleRecord, Storage } from '../../src/main/storage/storage';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { SqliteStorage } from '../../src/main/storage/sqlite-storage';
import { PostgresStorage } from '../../src/main/storage/postgres/postgres-storage';
import { POSTGRES_SKIP_REASON, startPostgresCluster, type PostgresCluster } from '../helpers/postgres';
import { makeTempDir } from '../helpers/server';
import { DEFAULT_RECORDING_LIMITS } from '../../src/main/evidence/recording-limits';

const LIMITS = { samplesPerKey: 20, maxFieldsPerKey: 500, maxSampleBytesTotal: DEFAULT_RECORDING_LIMITS.maxSampleBytesTotal };

function sample(consumerId: string, index: number, valid = true): InteractionSampleRecord {
  return {
    consumerId, schemaId: 'users', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
    shape: `shape-${index}`, schemaVersion: '1.0.0', valid, recordedAt: 1_700_000_000 + index,
    interactionJson: `{"request":{"method":"GET","path":"/users/${index}"},"response":{"status_code":200,"body":"{}"}}`,
  };
}

/** web: shapes 0–9, odd ones invalid; app: shapes 0–2. */
async function seed(storage: Storage): Promise<void> {
  const samples = [...Array.from({ length: 10 }, (_, i) => sample('web', i, i % 2 === 0)), ...Array.from({ length: 3 }, (_, i) => sample('app', i))];
  await storage.addUsage([], samples, LIMITS);
}

interface Backend {
  name: string;
  open(): Promise<Storage>;
  close(): Promise<void>;
  skip?: string | false;
}

function backends(): Backend[] {
  let dir = '';
  let cluster: PostgresCluster | undefined;
  return [
    { name: 'memory', open: async () => new MemoryStorage(), close: async () => {} },
    {
      name: 'sqlite',
      open: async () => new SqliteStorage((dir = makeTempDir('svc-samples-'))),
      close: async () => fs.rmSync(dir, { recursive: true, force: true }),
    },
    {
      name: 'postgres',
      skip: POSTGRES_SKIP_REASON,
      open: async () => {
        cluster = await startPostgresCluster();
        return new PostgresStorage({ databaseUrl: await cluster.createDatabase('samples') });
      },
      close: async () => cluster?.destroy(),
    },
  ];
}

for (const backend of backends()) {
  describe(`sample reads: ${backend.name}`, { skip: backend.skip }, () => {
    let storage: Storage;
    before(async () => {
      storage = await backend.open();
      await seed(storage);
    });
    after(async () => {
      await storage.close();
      await backend.close();
    });

    it('lists one consumer\'s newest valid samples, no more than the limit', async () => {
      const read = await storage.listSamples({ schemaId: 'users', environment: 'prod', consumerId: 'web' }, { validOnly: true, limit: 3 });
      assert.deepEqual(read.map((s) => s.shape), ['shape-8', 'shape-6', 'shape-4']);
      assert.deepEqual(read[0], sample('web', 8));
    });

    it('lists as before without options', async () => {
      const read = await storage.listSamples({ consumerId: 'web' });
      assert.deepEqual(read.map((s) => s.shape), Array.from({ length: 10 }, (_, i) => `shape-${9 - i}`));
      assert.equal((await storage.listSamples({}, { limit: 2 })).length, 2);
    });

    it('lists every sample\'s key and shape without its body', async () => {
      const shapes = await storage.listSampleShapes();
      assert.equal(shapes.length, 13);
      const { interactionJson: _body, schemaVersion: _v, valid: _valid, recordedAt: _at, ...key } = sample('app', 1);
      assert.deepEqual(shapes.find((s) => s.consumerId === 'app' && s.shape === 'shape-1'), key);
      assert.ok(shapes.every((s) => !('interactionJson' in s)));
    });
  });
}

describe('usage registry start', () => {
  it('learns the stored shapes without reading a sample body', async () => {
    const storage = new MemoryStorage();
    await seed(storage);
    const bodyReads: unknown[] = [];
    const spy = new Proxy(storage, {
      get(target, name) {
        const value = Reflect.get(target, name, target);
        if (name === 'listSamples') return (...args: unknown[]) => (bodyReads.push(args), value.apply(target, args));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // Retention long enough to keep the 2023 samples.
    const registry = await UsageRegistry.open(spy, { limits: { flushIntervalMs: 60_000, retentionMs: 100 * 365 * 86_400_000 } });
    try {
      assert.deepEqual(bodyReads, [], 'no sample was read at start');
      // A stored shape is known: seen again, it is not written again (its recordedAt stays).
      const stored = sample('app', 2);
      const { consumerId, schemaId, schemaVersion, environment, method, path, status, valid, shape, interactionJson } = stored;
      registry.observe({
        consumerId, schemaId, schemaVersion, environment, method, path, status, valid, shape, usedFields: [], receivedFields: [], interactionJson,
      }, 1_800_000_000_000);
      await registry.flush();
      const [kept] = await storage.listSamples({ consumerId: 'app' }, { limit: 1 });
      assert.equal(kept!.recordedAt, stored.recordedAt);
    } finally {
      await registry.close();
    }
  });
});

describe('usage registry sample size', () => {
  it('holds a sample to maxSampleBytes in UTF-8 bytes, as the stores count them, not in characters', async () => {
    const storage = new MemoryStorage();
    const registry = await UsageRegistry.open(storage, { limits: { flushIntervalMs: 60_000, maxSampleBytes: 1_000 } });
    try {
      const observe = (shape: string, text: string) => registry.observe({
        consumerId: 'app', schemaId: 'users', schemaVersion: '1.0.0', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
        valid: true, shape, usedFields: [], receivedFields: [], interactionJson: JSON.stringify({ note: text }),
      });
      // 400 characters of three bytes each: 1,211 bytes of JSON in 411 characters.
      assert.equal(observe('wide', '€'.repeat(400)), 'sample_bytes');
      assert.equal(observe('narrow', 'e'.repeat(400)), undefined);
    } finally {
      await registry.close();
    }
  });
});

describe('usage registry after another replica purges', () => {
  it('samples a shape again once its sample was removed behind its back, at its next purge or retention sweep', async () => {
    const storage = new MemoryStorage();
    const registry = await UsageRegistry.open(storage, { limits: { flushIntervalMs: 60_000 } });
    const observe = () => registry.observe({
      consumerId: 'app', schemaId: 'users', schemaVersion: '1.0.0', environment: 'prod', method: 'GET', path: '/users/{id}', status: 200,
      valid: true, shape: 'shape-1', usedFields: ['id'], receivedFields: [], interactionJson: '{"request":{},"response":{}}',
    });
    try {
      observe();
      await registry.flush();
      // Another replica's purge, on the shared store: this registry does not hear of it.
      await storage.deleteUsage({ consumerId: 'app' });
      observe();
      await registry.flush();
      assert.deepEqual(await storage.listSamples({}), [], 'the shape is still remembered as stored');
      // Its own sweep (here a purge of nothing) reads the stored shapes again.
      await registry.purge({ consumerId: 'nobody' });
      observe();
      await registry.flush();
      assert.deepEqual((await storage.listSamples({})).map((sample) => sample.shape), ['shape-1']);
    } finally {
      await registry.close();
    }
  });
});
