/**
 * GitHub Enterprise's REST description (about 1,000 operations, 11 MB) through the engine, checked
 * against an independent count: the endpoints one version has and the other lacks. Skipped when the
 * bench corpora (.cache/corpora, installed by `npm run bench`) are absent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareDocuments, normalizePathTemplate } from '../../src/shared/compare';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { listOperations } from '../../src/shared/openapi/operations';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { REPO_ROOT } from '../helpers/paths';

const GENERATED = path.join(REPO_ROOT, '.cache/corpora/node_modules/@octokit/openapi/generated');
const available = fs.existsSync(path.join(GENERATED, 'ghes-3.17.json')) && fs.existsSync(path.join(GENERATED, 'ghes-3.18.json'));

async function load(version: string): Promise<OpenApiDocument> {
  return (await loadSchema(fs.readFileSync(path.join(GENERATED, `ghes-${version}.json`), 'utf8'))).document;
}

function endpointsOnlyIn(document: OpenApiDocument, other: OpenApiDocument): string[] {
  const key = (entry: { method: string; path: string }) => `${entry.method} ${normalizePathTemplate(entry.path)}`;
  const otherKeys = new Set(listOperations(other).map(key));
  return listOperations(document).filter((entry) => !otherKeys.has(key(entry))).map((entry) => `${entry.method} ${entry.path}`);
}

test('ghes 3.17 ↔ 3.18: removed endpoints match the operations one version lacks; a version against itself has no changes', { skip: !available && 'bench corpora not installed' }, async () => {
  const [v17, v18] = [await load('3.17'), await load('3.18')];

  const forward = compareDocuments(v17, v18);
  const removedForward = forward.filter((change) => change.type === 'ENDPOINT_REMOVED').map((change) => `${change.method} ${change.path}`);
  assert.deepEqual(removedForward.sort(), endpointsOnlyIn(v17, v18).sort());

  const backward = compareDocuments(v18, v17);
  const removedBackward = backward.filter((change) => change.type === 'ENDPOINT_REMOVED').map((change) => `${change.method} ${change.path}`);
  const expected = endpointsOnlyIn(v18, v17);
  assert.ok(expected.length > 0, '3.18 adds endpoints, so going back removes some');
  assert.deepEqual(removedBackward.sort(), expected.sort());
  for (const change of backward) assert.match(change.description, /\(at #\/[^)]+\)$/);

  assert.deepEqual(compareDocuments(v18, v18), []);
});
