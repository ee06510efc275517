/**
 * The registry archive's environments and deployment history (`svc export` / `svc import`): a history
 * is appended to only where the store's is the start of the archive's, in the archive's order; a
 * store whose history went another way is left alone and the import says so; archives of format
 * version 1 (before environments and deployments were exported) still import.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { exportRegistry, importRegistry } from '../../src/main/storage/registry-archive';
import type { DeploymentRecord } from '../../src/main/storage/storage';

const deployment = (environment: string, version: string, recordedAt: number): DeploymentRecord => ({
  schemaId: 'users', environment, consumerId: '', version, action: 'deployed', schemaVersion: '', recordedAt, recordedBy: 'ci',
});

async function archiveOf(storage: MemoryStorage): Promise<string> {
  let text = '';
  for await (const line of exportRegistry(storage)) text += line;
  return text;
}

test('a history is continued where the store has its start, in the archive order', async () => {
  const source = new MemoryStorage();
  await source.createEnvironment({ name: 'canary', description: 'one region', origin: 'created', createdAt: 1, createdBy: 'ci' });
  const history = [deployment('prod', '1.0.0', 10), deployment('canary', '1.0.0', 11), deployment('prod', '1.1.0', 12)];
  for (const record of history) await source.appendDeployment(record);
  const archive = await archiveOf(source);

  const target = new MemoryStorage();
  await target.appendDeployment(history[0]!); // the start of prod's history, imported before
  const report = await importRegistry(target, Readable.from([archive]));
  assert.deepEqual(report.problems, []);
  assert.deepEqual(report.environments, { created: 1, updated: 0, unchanged: 0 });
  assert.deepEqual(report.deployments, { created: 2, updated: 0, unchanged: 1 });
  assert.deepEqual(await target.listDeployments({}, 10), await source.listDeployments({}, 10));
  assert.deepEqual((await target.currentDeployments({ environment: 'prod' })).map((d) => d.version), ['1.1.0']);

  const again = await importRegistry(target, Readable.from([archive]));
  assert.deepEqual(again.deployments, { created: 0, updated: 0, unchanged: 3 });
  assert.equal((await target.listDeployments({}, 10)).length, 3);
});

test('a store whose history went another way is left alone, and the import names it', async () => {
  const source = new MemoryStorage();
  await source.appendDeployment(deployment('prod', '1.0.0', 10));
  const target = new MemoryStorage();
  await target.appendDeployment(deployment('prod', '2.0.0', 20));
  const report = await importRegistry(target, Readable.from([await archiveOf(source)]));
  assert.equal(report.problemCount, 1);
  assert.match(report.problems[0]!, /^line \d+: the deployment history of users in prod differs from the store's \(entries stored: 1, in the archive: 1\); not merged$/);
  assert.deepEqual((await target.listDeployments({}, 10)).map((d) => d.version), ['2.0.0']);
});

test('an archive of format version 1 still imports', async () => {
  const header = { type: 'header', format: 'svc-registry', formatVersion: 1, exportedAt: '2026-01-01T00:00:00.000Z' };
  const report = await importRegistry(new MemoryStorage(), Readable.from([`${JSON.stringify(header)}\n`]));
  assert.equal(report.problemCount, 0);
  await assert.rejects(
    importRegistry(new MemoryStorage(), Readable.from([`${JSON.stringify({ ...header, formatVersion: 3 })}\n`])),
    /not an svc-registry archive of format version 1 or 2 \(got svc-registry 3\)/,
  );
});
