/**
 * The registry archive's environments and deployment history (`svc export` / `svc import`): a history
 * is appended to only where the store's is the start of the archive's, in the archive's order; a
 * store whose history went another way is left alone and the import says so; archives of format
 * version 1 (before environments and deployments were exported) still import; an archive of format
 * version 3 on ends with a line counting the others, so one cut short is named, and nothing of it is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { importRegistry } from '../../src/main/storage/registry-import';
import type { DeploymentRecord } from '../../src/main/storage/storage';
import { archiveOf, storeSchemaVersion } from '../helpers/registry-archive';

const deployment = (environment: string, version: string, recordedAt: number): DeploymentRecord => ({
  schemaId: 'users', environment, consumerId: '', version, action: 'deployed', schemaVersion: '', recordedAt, recordedBy: 'ci',
});

/** A store holding the users versions its deployments name. */
async function usersStore(): Promise<MemoryStorage> {
  const storage = new MemoryStorage();
  for (const version of ['1.0.0', '1.1.0', '2.0.0']) await storeSchemaVersion(storage, 'users', version);
  return storage;
}

test('a history is continued where the store has its start, in the archive order', async () => {
  const source = await usersStore();
  await source.createEnvironment({ name: 'canary', description: 'one region', origin: 'created', createdAt: 1, createdBy: 'ci' });
  const history = [deployment('prod', '1.0.0', 10), deployment('canary', '1.0.0', 11), deployment('prod', '1.1.0', 12)];
  for (const record of history) await source.appendDeployment(record);
  const archive = await archiveOf(source);

  const target = new MemoryStorage();
  await target.appendDeployment(history[0]!); // the start of prod's history, imported before
  const report = await importRegistry(target, () => Readable.from([archive]));
  assert.deepEqual(report.problems, []);
  assert.deepEqual(report.environments, { created: 1, updated: 0, unchanged: 0 });
  assert.deepEqual(report.deployments, { created: 2, updated: 0, unchanged: 1 });
  assert.deepEqual(await target.listDeployments({}, 10), await source.listDeployments({}, 10));
  assert.deepEqual((await target.currentDeployments({ environment: 'prod' })).map((d) => d.version), ['1.1.0']);

  const again = await importRegistry(target, () => Readable.from([archive]));
  assert.deepEqual(again.deployments, { created: 0, updated: 0, unchanged: 3 });
  assert.equal((await target.listDeployments({}, 10)).length, 3);
});

test('a store whose history went another way is left alone, and the import names it', async () => {
  const source = await usersStore();
  await source.appendDeployment(deployment('prod', '1.0.0', 10));
  const target = new MemoryStorage();
  await target.appendDeployment(deployment('prod', '2.0.0', 20));
  const archive = await archiveOf(source);
  const report = await importRegistry(target, () => Readable.from([archive]));
  assert.equal(report.problemCount, 1);
  assert.match(report.problems[0]!, /^line \d+: the deployment history of users in prod differs from the store's \(entries stored: 1, in the archive: 1\); it cannot be continued$/);
  assert.deepEqual((await target.listDeployments({}, 10)).map((d) => d.version), ['2.0.0']);
});

test('archives of format versions 1 and 2 (without an end line) still import', async () => {
  const header = { type: 'header', format: 'svc-registry', formatVersion: 1, exportedAt: '2026-01-01T00:00:00.000Z' };
  for (const formatVersion of [1, 2]) {
    const report = await importRegistry(new MemoryStorage(), () => Readable.from([`${JSON.stringify({ ...header, formatVersion })}\n`]));
    assert.equal(report.problemCount, 0);
  }
  await assert.rejects(
    importRegistry(new MemoryStorage(), () => Readable.from([`${JSON.stringify({ ...header, formatVersion: 5 })}\n`])),
    /not an svc-registry archive of format version 1 or 2 or 3 or 4 \(got svc-registry 5\)/,
  );
});

test('an archive cut at a line\'s end, or with lines added after its end line, is named as such', async () => {
  const source = await usersStore();
  await source.createEnvironment({ name: 'canary', description: 'one region', origin: 'created', createdAt: 1, createdBy: 'ci' });
  for (const record of [deployment('prod', '1.0.0', 10), deployment('prod', '1.1.0', 12)]) await source.appendDeployment(record);
  const lines = (await archiveOf(source)).split('\n').filter((line) => line !== '');
  const { sha256, ...end } = JSON.parse(lines.at(-1)!) as { sha256: string };
  assert.deepEqual(end, { type: 'end', lines: { schema: 3, consumer: 0, environment: 1, deployment: 2 } });
  assert.match(sha256, /^[0-9a-f]{64}$/);

  const whole = await importRegistry(new MemoryStorage(), () => Readable.from([`${lines.join('\n')}\n`]));
  assert.deepEqual(whole.problems, []);
  // Before, a file cut here imported the environment and one entry, and said nothing: exit 0.
  const cutStore = new MemoryStorage();
  const cut = await importRegistry(cutStore, () => Readable.from([`${lines.slice(0, -2).join('\n')}\n`]));
  assert.equal(cut.problemCount, 1);
  assert.match(cut.problems[0]!, /^line 6: the archive ends before its end line: it was cut short \(read 3 schema, 0 consumer, 1 environment, 1 deployment line\(s\)\)$/);
  assert.deepEqual([await cutStore.loadSchemaIndex(), await cutStore.listEnvironments(), await cutStore.listDeployments({}, 10)], [[], [], []], 'nothing of a cut archive is written');
  const recounted = [...lines.slice(0, -2), lines.at(-1)!];
  const short = await importRegistry(new MemoryStorage(), () => Readable.from([`${recounted.join('\n')}\n`]));
  assert.match(short.problems[0]!, /the archive's end line counts 3 schema, 0 consumer, 1 environment, 2 deployment line\(s\), but 3 schema, 0 consumer, 1 environment, 1 deployment were read/);
  const joined = await importRegistry(new MemoryStorage(), () => Readable.from([`${[...lines, lines[1]].join('\n')}\n`]));
  assert.match(joined.problems[0]!, /a line after the end line/);
});

test('a registration in a created environment imports into an empty store, whose archive lists the environment after it', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.createEnvironment({ name: 'canary', description: 'one region', origin: 'created', createdAt: 1, createdBy: 'ci' });
  await source.saveConsumer({
    consumerId: 'web', consumerVersion: '2.0.0', schemaId: 'users', schemaVersion: '1.0.0', environment: 'canary',
    registeredAt: 1, lastValidatedAt: 2, usedEndpoints: [{ method: 'GET', path: '/users', usedFields: ['id'] }],
  });
  await source.appendDeployment(deployment('canary', '1.0.0', 10));
  const archive = await archiveOf(source);
  const types = archive.split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { type: string }).type);
  assert.ok(types.indexOf('consumer') < types.indexOf('environment'), 'format versions 1 to 3 list consumers first');

  const target = new MemoryStorage();
  const report = await importRegistry(target, () => Readable.from([archive]));
  assert.deepEqual(report.problems, []);
  assert.deepEqual([report.environments.created, report.consumers.created, report.deployments.created], [1, 1, 1]);
  assert.deepEqual(await target.listConsumers({}), await source.listConsumers({}));
});

