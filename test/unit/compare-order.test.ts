/** The documented order of compareDocuments' output, and the shape of each change. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareDocuments } from '../../src/shared/compare';
import { loadSchema } from '../../src/shared/openapi/load-document';

const OLD = {
  openapi: '3.0.3',
  info: { title: 'Order', version: '1.0.0' },
  paths: {
    '/b': {
      post: {
        parameters: [{ name: 'z', in: 'query', schema: { type: 'string', enum: ['x', 'y'] } }],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'number' } } } } } },
        responses: {
          '201': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, at: { type: 'string' } } } } } },
          '200': { description: 'ok' },
        },
      },
      get: { responses: { '200': { description: 'ok' } } },
    },
    '/a': { delete: { responses: { '204': { description: 'gone' } } }, get: { responses: { '200': { description: 'ok' } } } },
  },
};

const NEW = {
  openapi: '3.0.3',
  info: { title: 'Order', version: '2.0.0' },
  paths: {
    '/b': {
      post: {
        parameters: [
          { name: 'z', in: 'query', schema: { type: 'string', enum: ['x'] } },
          { name: 'a', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'h', in: 'header', required: true, schema: { type: 'string' } },
        ],
        requestBody: { content: { 'application/json': { schema: { type: 'object', required: ['m'], properties: { n: { type: 'string' }, m: { type: 'string' } } } } } },
        responses: { '201': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
      },
    },
    '/a': { get: { responses: { '200': { description: 'ok' } } } },
  },
};

test('changes come by path, method order, then parameters, request body, responses, then field', async () => {
  const [oldSchema, newSchema] = await Promise.all([loadSchema(JSON.stringify(OLD)), loadSchema(JSON.stringify(NEW))]);
  const changes = compareDocuments(oldSchema.document, newSchema.document);
  assert.deepEqual(
    changes.map((change) => `${change.path} ${change.method} ${change.type} ${/: (.*) \(at /.exec(change.description)![1]}`),
    [
      '/a DELETE ENDPOINT_REMOVED endpoint was removed',
      '/b GET ENDPOINT_REMOVED endpoint was removed',
      '/b POST REQUIRED_PARAMETER_ADDED header parameter "h" was added as required',
      '/b POST REQUIRED_PARAMETER_ADDED query parameter "a" was added as required',
      '/b POST ENUM_VALUE_REMOVED query parameter "z" no longer accepts "y"',
      '/b POST REQUIRED_FIELD_ADDED request body (application/json) field "m" was added as required',
      '/b POST TYPE_CHANGED request body (application/json) field "n" changed type from number to string',
      '/b POST RESPONSE_SCHEMA_CHANGED response 200 was removed',
      '/b POST RESPONSE_SCHEMA_CHANGED response 201 (application/json) field "at" was removed',
      '/b POST RESPONSE_SCHEMA_CHANGED response 201 (application/json) field "id" is no longer required',
    ],
  );
});

test('each change carries old and new values for context', async () => {
  const [oldSchema, newSchema] = await Promise.all([loadSchema(JSON.stringify(OLD)), loadSchema(JSON.stringify(NEW))]);
  const byDescription = new Map(compareDocuments(oldSchema.document, newSchema.document).map((change) => [change.description, change]));
  const find = (fragment: string) => [...byDescription.values()].find((change) => change.description.includes(fragment))!;
  assert.deepEqual([find('endpoint was removed').oldValue, find('endpoint was removed').newValue], ['DELETE /a', '']);
  assert.deepEqual([find('"n" changed type').oldValue, find('"n" changed type').newValue], ['number', 'string']);
  assert.deepEqual([find('no longer accepts').oldValue, find('no longer accepts').newValue], ['["x","y"]', '["x"]']);
  assert.deepEqual([find('"m" was added').oldValue, find('"m" was added').newValue], ['absent', 'required']);
  assert.deepEqual([find('"id" is no longer required').oldValue, find('"id" is no longer required').newValue], ['required', 'optional']);
});

test('identical documents give no changes', async () => {
  const schema = await loadSchema(JSON.stringify(OLD));
  assert.deepEqual(compareDocuments(schema.document, schema.document), []);
  assert.deepEqual(compareDocuments(schema.document, structuredClone(schema.document)), []);
});
