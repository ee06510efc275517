/** Every case of test/fixtures/compat through the engine: both documents loaded as the registry loads them. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BREAKING_CHANGE_TYPES, compareDocuments } from '../../src/shared/compare';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { changeKeys, loadCompatCorpus } from '../helpers/compat-corpus';

const corpus = loadCompatCorpus();
/** Documents as loaded by the cases, for the cross-case test at the end. */
const loaded: Array<{ oldDocument: OpenApiDocument; newDocument: OpenApiDocument }> = [];

describe('compat corpus through compareDocuments', () => {
  for (const compatCase of corpus) {
    test(`${compatCase.name}: ${compatCase.rule}`, async () => {
      const [oldSchema, newSchema] = await Promise.all([loadSchema(compatCase.oldText), loadSchema(compatCase.newText)]);
      loaded.push({ oldDocument: oldSchema.document, newDocument: newSchema.document });
      const changes = compareDocuments(oldSchema.document, newSchema.document);

      assert.deepEqual(changeKeys(changes), changeKeys(compatCase.changes));
      compatCase.changes.forEach((expected, index) => {
        if (expected.where) assert.ok(changes[index]!.description.includes(expected.where), `change ${index}: "${changes[index]!.description}" should contain "${expected.where}"`);
      });
      for (const change of changes) {
        assert.match(change.description, /\(at #[^)]*\)$/, 'every description ends with the JSON pointer of the change');
        assert.ok(change.oldValue !== '' || change.newValue !== '', 'every change carries an old or a new value');
      }
      assert.deepEqual(compareDocuments(oldSchema.document, newSchema.document), changes, 'the same documents give the same list');
    });
  }
});

describe('compat corpus coverage', () => {
  test('holds at least 40 cases, every change type, and OpenAPI 2.0, 3.0 and 3.1 documents', () => {
    assert.ok(corpus.length >= 40, `${corpus.length} cases`);
    const types = new Set(corpus.flatMap((compatCase) => compatCase.changes.map((change) => change.type)));
    for (const type of BREAKING_CHANGE_TYPES) assert.ok(types.has(type), `no case expects ${type}`);
    const versions = new Set(corpus.map((compatCase) => /^\s*["']?(swagger|openapi)["']?\s*:\s*["']?(\d\.\d)/m.exec(compatCase.oldText)?.slice(1).join(' ')));
    for (const version of ['swagger 2.0', 'openapi 3.0', 'openapi 3.1']) assert.ok(versions.has(version), `no ${version} case`);
    assert.ok(corpus.filter((compatCase) => compatCase.changes.length === 0).length >= 15, 'the non-breaking list is covered');
  });
});

describe('compat corpus, across cases', () => {
  test('the old document of every case compares with the new document of every case without error', () => {
    assert.equal(loaded.length, corpus.length);
    let compared = 0;
    for (const { oldDocument } of loaded) {
      for (const { newDocument } of loaded) {
        assert.ok(Array.isArray(compareDocuments(oldDocument, newDocument)));
        compared += 1;
      }
    }
    assert.equal(compared, corpus.length ** 2);
  });
});
