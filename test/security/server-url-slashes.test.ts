/**
 * A registered document's server URLs become the path prefixes a request may carry. Their trailing
 * slashes were cut by `/\/+$/`, which is tried again from every slash of a run: a server URL of
 * 100,000 slashes was registered at once, and then took each worker's compile of the document 4 s
 * (300,000 would have run every first call past validationMaxMs). They are cut in one pass now.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { CompiledContract } from '../../src/shared/validation';
import { withoutTrailingSlashes } from '../../src/shared/text';

const documentWithServer = (url: string) => ({
  openapi: '3.0.3',
  info: { title: 'servers', version: '1.0.0' },
  servers: [{ url }],
  paths: { '/p': { get: { responses: { 200: { description: 'ok' } } } } },
});

const get = (path: string) => ({ request: { method: 'GET', path, headers: {}, body: '' }, response: { statusCode: 200, headers: {}, body: '' } });

test('a server URL of 100,000 slashes compiles promptly', () => {
  const started = performance.now();
  const contract = new CompiledContract(documentWithServer(`https://api.example/${'/'.repeat(100_000)}v1`) as never);
  assert.deepEqual(contract.validateInteraction(get('/p')).errors, []);
  const ms = performance.now() - started;
  assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
});

test('trailing slashes of a server URL are not part of its prefix', () => {
  const contract = new CompiledContract(documentWithServer('https://api.example/v1///') as never);
  assert.deepEqual(contract.validateInteraction(get('/v1/p')).errors, []);
  assert.deepEqual(contract.validateInteraction(get('/p')).errors, []);
  for (const [text, trimmed] of [['', ''], ['/', ''], ['///', ''], ['/a', '/a'], ['/a//', '/a'], ['a/b/', 'a/b']]) {
    assert.equal(withoutTrailingSlashes(text!), trimmed, JSON.stringify(text));
  }
});
