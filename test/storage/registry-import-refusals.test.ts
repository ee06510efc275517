/**
 * What `svc import` refuses, and that a refused archive writes nothing: other content for a stored
 * version when versions are immutable; a registration or deployment naming a schema version or an
 * environment that neither the archive nor the store holds; an archive edited or damaged anywhere
 * (the end line's sha256 covers every line, not only the schemas' text).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import { importRegistry } from '../../src/main/storage/registry-import';
import type { ConsumerRecord, DeploymentRecord } from '../../src/main/storage/storage';
import { archiveOf, storeSchemaVersion } from '../helpers/registry-archive';

const consumer = (environment: string, schemaVersion = '1.0.0'): ConsumerRecord => ({
  consumerId: 'web', consumerVersion: '3.1.0', schemaId: 'users', schemaVersion, environment, registeredAt: 5, lastValidatedAt: 5,
  usedEndpoints: [{ method: 'GET', path: '/ping', usedFields: [] }],
});
const deployment = (environment: string, action: 'deployed' | 'undeployed', recordedAt: number): DeploymentRecord => ({
  schemaId: 'users', environment, consumerId: '', version: action === 'deployed' ? '1.0.0' : '', action, schemaVersion: '', recordedAt, recordedBy: 'ci',
});
const importText = (storage: MemoryStorage, text: string, options = {}) => importRegistry(storage, () => Readable.from([text]), options);

/** Everything a store holds that an archive carries. */
async function contents(storage: MemoryStorage): Promise<unknown> {
  return [await storage.loadSchemaIndex(), await storage.listConsumers({}), await storage.listEnvironments(), await storage.listDeployments({}, 100)];
}

test('with immutable versions, other content for a stored version is refused and nothing is written', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0', { title: 'Changed' });
  await storeSchemaVersion(source, 'orders', '1.0.0');
  const archive = await archiveOf(source);
  const target = new MemoryStorage();
  await storeSchemaVersion(target, 'users', '1.0.0');
  const before = await contents(target);

  const refused = await importText(target, archive, { immutableVersions: true });
  assert.equal(refused.problemCount, 1);
  assert.match(refused.problems[0]!, /^line 3: schema users version 1\.0\.0 is stored with other content \(hash [0-9a-f]{12}, in the archive [0-9a-f]{12}\) and versions are immutable \(--immutable-versions\); it cannot be replaced$/);
  assert.deepEqual(await contents(target), before, 'orders 1.0.0 was not written either');

  // Without immutable versions a version may be registered again with other content, and so imported.
  const replaced = await importText(target, archive);
  assert.deepEqual([replaced.problems, replaced.schemas], [[], { created: 1, updated: 1, unchanged: 0 }]);
});

test('a registration or deployment naming what neither the archive nor the store holds is refused', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.createEnvironment({ name: 'canary', description: '', origin: 'created', createdAt: 1, createdBy: 'ci' });
  await source.saveConsumer(consumer('canary'));
  await source.appendDeployment(deployment('canary', 'deployed', 10));
  const lines = (await archiveOf(source)).split('\n').filter((line) => line !== '');
  assert.deepEqual(lines.map((line) => JSON.parse(line).type), ['header', 'schema', 'consumer', 'environment', 'deployment', 'end']);

  // Archives cut down by hand, their end line counted again and written as format version 3 (no sha256), so only the references are judged.
  const without = (type: string) => {
    const kept = lines.filter((line) => JSON.parse(line).type !== type).map((line) => JSON.parse(line));
    const end = kept.at(-1);
    end.lines[type] = 0;
    kept[0].formatVersion = 3;
    delete end.sha256;
    return `${kept.map((line) => JSON.stringify(line)).join('\n')}\n`;
  };
  const target = new MemoryStorage();
  const noSchema = await importText(target, without('schema'));
  assert.deepEqual(noSchema.problems, [
    'line 2: consumer web of users in canary names users version 1.0.0, which neither the archive nor the store holds',
    'line 4: the deployment of users 1.0.0 to canary names users version 1.0.0, which neither the archive nor the store holds',
  ]);
  const noEnvironment = await importText(target, without('environment'));
  assert.deepEqual(noEnvironment.problems, [
    'line 3: consumer web of users in canary: environment canary is neither in the archive nor stored',
    'line 4: users 1.0.0 is recorded as deployed to canary, an environment neither in the archive nor stored',
  ]);
  assert.deepEqual(await contents(target), [[], [], [], []]);

  // What the store holds counts: the same cut archives import into a store that has the schema and the environment.
  await storeSchemaVersion(target, 'users', '1.0.0');
  await target.createEnvironment({ name: 'canary', description: '', origin: 'created', createdAt: 1, createdBy: 'ci' });
  assert.deepEqual((await importText(target, without('schema'))).problems, []);
  assert.deepEqual((await importText(new MemoryStorage(), without('consumer'))).problems, []);
});

test('the history of a deleted environment, where nothing is deployed any more, still imports', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.createEnvironment({ name: 'gone', description: '', origin: 'created', createdAt: 1, createdBy: 'ops' });
  await source.appendDeployment(deployment('gone', 'deployed', 10));
  await source.appendDeployment(deployment('gone', 'undeployed', 11));
  assert.deepEqual(await source.deleteEnvironment('gone'), { outcome: 'deleted' }, 'a deleted environment keeps its history');
  const target = new MemoryStorage();
  const report = await importText(target, await archiveOf(source));
  assert.deepEqual([report.problems, report.deployments], [[], { created: 2, updated: 0, unchanged: 0 }]);
});

test('registrations of a format version 1 archive make their environments known, as the store upgrade does', async () => {
  const header = { type: 'header', format: 'svc-registry', formatVersion: 1, exportedAt: '2025-01-01T00:00:00.000Z' };
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  const schemaLine = (await archiveOf(source)).split('\n')[1]!;
  const text = [JSON.stringify(header), schemaLine, JSON.stringify({ type: 'consumer', ...consumer('qa') })].join('\n');
  const target = new MemoryStorage();
  const report = await importText(target, text, { now: () => 42 });
  assert.deepEqual([report.problems, report.environments], [[], { created: 1, updated: 0, unchanged: 0 }]);
  assert.deepEqual(await target.listEnvironments(), [{ name: 'qa', description: '', origin: 'existing-registrations', createdAt: 42, createdBy: '' }]);
});

test('an archive edited anywhere is refused by the sha256 of its end line, and nothing is written', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.saveConsumer(consumer('prod'));
  const archive = await archiveOf(source);
  const edits: Array<[string, string]> = [
    ['"readOnly":false', '"readOnly":true'],
    ['"consumerVersion":"3.1.0"', '"consumerVersion":"9.9.9"'],
    ['"usedFields":[]', '"usedFields":["email"]'],
  ];
  for (const [from, to] of edits) {
    assert.ok(archive.includes(from));
    const target = new MemoryStorage();
    const report = await importText(target, archive.replace(from, to));
    assert.equal(report.problemCount, 1, to);
    assert.match(report.problems[0]!, /^line 4: the lines do not match the sha256 of the end line \([0-9a-f]{12}, read [0-9a-f]{12}\): the archive was edited or damaged after it was exported$/);
    assert.deepEqual(await contents(target), [[], [], [], []], to);
  }
  // Line ends turned into CRLF (a checkout on Windows) are no edit.
  const crlf = await importText(new MemoryStorage(), archive.replaceAll('\n', '\r\n'));
  assert.deepEqual([crlf.problems, crlf.schemas.created, crlf.consumers.created], [[], 1, 1]);
});

test('a bad line anywhere writes nothing of the good ones', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.saveConsumer(consumer('prod'));
  const lines = (await archiveOf(source)).split('\n');
  lines.splice(2, 0, '{"type":"consumer"}');
  const target = new MemoryStorage();
  const report = await importText(target, lines.join('\n'));
  assert.deepEqual(report.problems.slice(0, 1), ['line 3: consumer line: consumerId must be a string']);
  assert.deepEqual(await contents(target), [[], [], [], []]);
});

test('a header line does not switch the end line\'s checks off: a second one, one after the end line, or one edited down', async () => {
  const source = new MemoryStorage();
  await storeSchemaVersion(source, 'users', '1.0.0');
  await source.saveConsumer(consumer('prod'));
  const lines = (await archiveOf(source)).replace('"consumerVersion":"3.1.0"', '"consumerVersion":"9.9.9"').split('\n').filter((line) => line !== '');
  const header = (formatVersion: number) => JSON.stringify({ ...JSON.parse(lines[0]!), formatVersion });
  const cases: Array<[string, string[], RegExp]> = [
    ['a second header', [lines[0]!, lines[1]!, header(2), ...lines.slice(2)], /^line 3: a second header line: the archive was joined to another, or edited$/],
    ['a header after the end line', [...lines, header(1)], /^line 5: a line after the end line: the archive was joined to another, or edited$/],
    ...[3, 2, 1].map((version): [string, string[], RegExp] => [`the header edited down to ${version}, the end line kept`, [header(version), ...lines.slice(1)], /^line 4: the lines do not match the sha256 of the end line/]),
  ];
  for (const [name, edited, problem] of cases) {
    const target = new MemoryStorage();
    const report = await importText(target, `${edited.join('\n')}\n`);
    assert.ok(report.problems.some((text) => problem.test(text)), `${name}: ${report.problems.join(' | ')}`);
    assert.deepEqual(await contents(target), [[], [], [], []], name);
  }
});
