/** Spec "Consumer impact rules" 3: which changes touch which endpoints. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changesRelevantToEndpoints, isChangeRelevantToEndpoint, normalizePathTemplate } from '../../src/shared/compare';

test('a change on the same path and method is relevant; another method or path is not', () => {
  const change = { path: '/users/{id}', method: 'DELETE' };
  assert.equal(isChangeRelevantToEndpoint(change, { method: 'DELETE', path: '/users/{id}' }), true);
  assert.equal(isChangeRelevantToEndpoint(change, { method: 'GET', path: '/users/{id}' }), false);
  assert.equal(isChangeRelevantToEndpoint(change, { method: 'DELETE', path: '/users' }), false);
});

test('path templates match regardless of parameter names, methods regardless of case', () => {
  const change = { path: '/users/{id}/posts/{postId}', method: 'GET' };
  assert.equal(isChangeRelevantToEndpoint(change, { method: 'get', path: '/users/{userId}/posts/{post}' }), true);
  assert.equal(isChangeRelevantToEndpoint(change, { method: 'GET', path: '/users/{id}/posts' }), false);
  assert.equal(normalizePathTemplate('/a/{x}/b/{y}'), '/a/{}/b/{}');
});

test('an empty change path applies to every endpoint; an empty method to every method', () => {
  assert.equal(isChangeRelevantToEndpoint({ path: '', method: '' }, { method: 'PATCH', path: '/anything' }), true);
  assert.equal(isChangeRelevantToEndpoint({ path: '', method: 'POST' }, { method: 'POST', path: '/x' }), true);
  assert.equal(isChangeRelevantToEndpoint({ path: '', method: 'POST' }, { method: 'GET', path: '/x' }), false);
  assert.equal(isChangeRelevantToEndpoint({ path: '/x', method: '' }, { method: 'PUT', path: '/x' }), true);
});

test('changesRelevantToEndpoints keeps the relevant changes in their order', () => {
  const changes = [
    { path: '', method: '', id: 0 },
    { path: '/a', method: 'GET', id: 1 },
    { path: '/b/{id}', method: 'PUT', id: 2 },
    { path: '/c', method: 'GET', id: 3 },
  ];
  const relevant = changesRelevantToEndpoints(changes, [{ method: 'PUT', path: '/b/{bId}' }, { method: 'GET', path: '/a' }]);
  assert.deepEqual(relevant.map((change) => change.id), [0, 1, 2]);
  assert.deepEqual(changesRelevantToEndpoints(changes.slice(1), []), []);
});
