/**
 * Field-level impact (src/main/evidence/field-level-impact.ts) on the changes the engine really
 * reports: a change to a reusable schema is reported once, under one of the paths that reach it,
 * yet it reaches every used field that reads that field of the schema; map keys match any key.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDocuments, type BreakingChangeRecord } from '../../src/shared/compare';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { splitByUsedFields } from '../../src/main/evidence/field-level-impact';

function answering(schema: object, schemas: object, version: string): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title: 'impact', version },
    paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  } as OpenApiDocument;
}

function changesBetween(schema: object, oldSchemas: object, newSchemas: object): BreakingChangeRecord[] {
  const changes = compareDocuments(answering(schema, oldSchemas, '1.0.0'), answering(schema, newSchemas, '2.0.0'));
  assert.equal(changes.length, 1, JSON.stringify(changes));
  return changes;
}

function reachedBy(changes: readonly BreakingChangeRecord[], used: string[]): boolean {
  return splitByUsedFields(changes, () => used).reached.length === changes.length;
}

test('a field removed from a schema two properties share reaches a consumer of either path', () => {
  const user = (fields: string[]) => ({ type: 'object', properties: Object.fromEntries(fields.map((name) => [name, { type: 'string' }])) });
  const schema = { type: 'object', properties: { owner: { $ref: '#/components/schemas/User' }, author: { $ref: '#/components/schemas/User' } } };
  const changes = changesBetween(schema, { User: user(['login', 'id']) }, { User: user(['id']) });
  assert.equal(reachedBy(changes, ['owner.login']), true);
  assert.equal(reachedBy(changes, ['author.login']), true);
  assert.equal(reachedBy(changes, ['owner.id', 'author.id']), false, 'fields the change does not touch stay set aside');
});

test('a field removed from a recursive schema reaches a consumer of a deeper level', () => {
  const node = (fields: string[]) => ({
    type: 'object',
    properties: { ...Object.fromEntries(fields.map((name) => [name, { type: 'string' }])), children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
  });
  const changes = changesBetween({ $ref: '#/components/schemas/Node' }, { Node: node(['id', 'name']) }, { Node: node(['id']) });
  assert.equal(reachedBy(changes, ['children[].children[].name']), true);
  assert.equal(reachedBy(changes, ['children[].id']), false);
});

test('a change inside a map reaches a used field that names a real key', () => {
  const labels = (fields: string[]) => ({
    type: 'object',
    properties: { labels: { type: 'object', additionalProperties: { type: 'object', properties: Object.fromEntries(fields.map((name) => [name, { type: 'string' }])) } } },
  });
  const mapChanges = compareDocuments(answering(labels(['m', 'n']), {}, '1.0.0'), answering(labels(['n']), {}, '2.0.0'));
  assert.equal(mapChanges.length, 1, JSON.stringify(mapChanges));
  assert.equal(reachedBy(mapChanges, ['labels.en.m']), true);
  assert.equal(reachedBy(mapChanges, ['labels.en.n']), false);
});
