/**
 * Fixtures are deterministic, so they can be committed and diffed: the same request gives the
 * same fixture, without Math.random or the clock, and editing one property leaves the others alone.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { generateFixture } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { listOperations } from '../../src/shared/openapi/operations';
import { fixturePath } from '../helpers/paths';

async function load(name: string): Promise<OpenApiDocument> {
  return (await loadSchema(fs.readFileSync(fixturePath('fixture-corpus', ...name.split('/')), 'utf8'))).document;
}

describe('fixture determinism', () => {
  it('gives the same fixture for the same request, also from a fresh copy of the document', async () => {
    for (const name of ['hard/composition-3.0.yaml', 'hard/types-3.1.yaml', 'readme-oas-examples/3.0/petstore.json']) {
      const document = await load(name);
      const copy = structuredClone(document);
      for (const { method, path } of listOperations(document)) {
        for (const useExamples of [false, true]) {
          const spec = { method, path, useExamples };
          assert.deepEqual(generateFixture(copy, spec), generateFixture(document, spec), `${name} ${method} ${path}`);
        }
      }
    }
  });

  it('uses neither Math.random nor the clock', async (t) => {
    const document = await load('hard/strings-3.0.yaml');
    const expected = generateFixture(document, { method: 'POST', path: '/formats' });
    t.mock.method(Math, 'random', () => assert.fail('Math.random was called'));
    t.mock.method(Date, 'now', () => assert.fail('Date.now was called'));
    assert.deepEqual(generateFixture(document, { method: 'POST', path: '/formats' }), expected);
  });

  it('varies with the seed, and keeps the request when only the status changes', async () => {
    const document = await load('readme-oas-examples/3.0/petstore.json');
    const spec = { method: 'POST', path: '/store/order' };
    assert.notDeepEqual(generateFixture(document, { ...spec, seed: 'other' }), generateFixture(document, spec));
    const ok = generateFixture(document, { ...spec, statusCode: 200 });
    const invalid = generateFixture(document, { ...spec, statusCode: 400 });
    assert.deepEqual(invalid.request, ok.request);
    assert.notDeepEqual(invalid.response, ok.response);
  });

  it('seeds each value by its location: adding a property changes no other value', () => {
    const documentWith = (properties: Record<string, unknown>) =>
      ({
        openapi: '3.0.3',
        info: { title: 't', version: '1' },
        paths: {
          '/x': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { type: 'object', properties } } } } } } },
        },
      }) as unknown as OpenApiDocument;
    const before = { id: { type: 'integer' }, name: { type: 'string' }, at: { type: 'string', format: 'date-time' } };
    const after = { id: before.id, added: { type: 'string', format: 'uuid' }, name: before.name, at: before.at };
    const first = JSON.parse(generateFixture(documentWith(before), { method: 'GET', path: '/x' }).response.body);
    const second = JSON.parse(generateFixture(documentWith(after), { method: 'GET', path: '/x' }).response.body);
    const { added, ...rest } = second;
    assert.equal(typeof added, 'string');
    assert.deepEqual(rest, first);
  });
});
