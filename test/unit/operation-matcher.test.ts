/**
 * The operation a recorded interaction belongs to. Matching checked every route: against a version
 * of 20,000 operations of 20 segments that cost 5 ms of main thread per interaction (300 ms a turn of
 * 64), and a recording stream held another caller's ValidateInteraction about a second (p50 980 ms).
 * Routes are now indexed by method, segment count and position; the choice is the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OperationMatcher, type DocumentedOperation } from '../../src/main/evidence/operation-matcher';

/** The matching as it was: the first route, most literal segments first, whose every segment matches. */
function linearMatch(operations: readonly DocumentedOperation[], method: string, path: string): DocumentedOperation | undefined {
  const split = (p: string) => p.replace(/\/+$/, '').split('/').slice(1);
  const segments = split(path.split('?')[0]!);
  const routes = operations.map((operation) => ({ operation, segments: split(operation.path) }))
    .map((route) => ({ ...route, literals: route.segments.filter((segment) => !segment.includes('{')).length }))
    .sort((a, b) => b.literals - a.literals);
  return routes.find((route) => route.operation.method === method.toUpperCase() && route.segments.length === segments.length
    && route.segments.every((segment, i) => (segment.includes('{') ? segments[i] !== '' : segment === segments[i])))?.operation;
}

test('the operation chosen is the most literal one that matches, then the first in the document', () => {
  const operations: DocumentedOperation[] = [
    { method: 'GET', path: '/users/{id}', operationId: 'byId', statuses: ['200'] },
    { method: 'GET', path: '/users/me', operationId: 'me', statuses: ['200'] },
    { method: 'GET', path: '/{a}/b/c', operationId: 'twoLiterals', statuses: ['200'] },
    { method: 'GET', path: '/x/{b}/{c}', operationId: 'oneLiteral', statuses: ['200'] },
    { method: 'POST', path: '/users', operationId: 'create', statuses: ['201'] },
    { method: 'GET', path: '/', operationId: 'root', statuses: ['200'] },
    { method: 'GET', path: '/v1/{name}:verb', operationId: 'verb', statuses: ['200'] },
  ];
  const matcher = new OperationMatcher(operations);
  const chosen = (method: string, path: string) => matcher.match(method, path)?.operationId;
  assert.equal(chosen('GET', '/users/me'), 'me');
  assert.equal(chosen('get', '/users/7?expand=1'), 'byId');
  assert.equal(chosen('GET', '/users/'), undefined);
  assert.equal(chosen('GET', '/x/b/c'), 'twoLiterals');
  assert.equal(chosen('GET', '/x/y/z'), 'oneLiteral');
  assert.equal(chosen('POST', '/users/'), 'create');
  assert.equal(chosen('DELETE', '/users'), undefined);
  assert.equal(chosen('GET', '/'), 'root');
  assert.equal(chosen('GET', '/v1/anything'), 'verb');
});

test('the index chooses as checking every route does, for mixed templates and paths', () => {
  // A small alphabet of segments, so that paths and templates meet often; routes past 32 cross a word.
  const pieces = ['a', 'b', '{p}', '{q}:x', ''];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const operations: DocumentedOperation[] = Array.from({ length: 300 }, (_, i) => ({
    method: ['GET', 'POST'][next(2)]!,
    path: `/${Array.from({ length: 1 + next(4) }, () => pieces[next(pieces.length)]).join('/')}`,
    operationId: `op${i}`,
    statuses: ['200'],
  }));
  const matcher = new OperationMatcher(operations);
  let matched = 0;
  for (let i = 0; i < 2_000; i++) {
    const method = ['GET', 'post', 'PUT'][next(3)]!;
    const path = `/${Array.from({ length: 1 + next(4) }, () => ['a', 'b', 'c', ''][next(4)]).join('/')}${next(3) === 0 ? '?q=1' : ''}`;
    const expected = linearMatch(operations, method, path);
    assert.equal(matcher.match(method, path), expected, `${method} ${path}`);
    if (expected) matched++;
  }
  assert.ok(matched > 500, `only ${matched} paths matched an operation`);
});

test('four turns of interactions against 20,000 operations of 20 segments cost milliseconds', () => {
  const prefix = '/a'.repeat(19);
  const operations = Array.from({ length: 20_000 }, (_, i) => ({ method: 'GET', path: `${prefix}/x${i}`, operationId: `op${i}`, statuses: ['200'] }));
  const matcher = new OperationMatcher(operations);
  for (let i = 0; i < 64; i++) matcher.match('GET', `${prefix}/nope`); // compiled by the engine first
  const started = performance.now();
  for (let i = 0; i < 256; i++) assert.equal(matcher.match('GET', `${prefix}/nope`), undefined);
  assert.equal(matcher.match('GET', `${prefix}/x19999`)?.operationId, 'op19999');
  const ms = performance.now() - started;
  // About 15 ms measured on the 2-core test machine; 700 ms when every route was checked.
  assert.ok(ms < 150, `256 matches took ${Math.round(ms)} ms`);
});

test('literal segments longer than any recorded path are indexed at once and match nothing', () => {
  // One length over 16 Ki characters, told apart at the end: V8 hashes such strings by their length alone.
  const long = 'a'.repeat(17_000);
  const operations = Array.from({ length: 1_500 }, (_, i) => ({ method: 'GET', path: `/${long}${String(i).padStart(4, '0')}`, operationId: `op${i}`, statuses: ['200'] }));
  const started = performance.now();
  const matcher = new OperationMatcher([...operations, { method: 'GET', path: '/{any}', operationId: 'any', statuses: ['200'] }]);
  const ms = performance.now() - started;
  // About 20 ms measured on the 2-core test machine; 1.9 s when each segment was a key.
  assert.ok(ms < 500, `indexing took ${Math.round(ms)} ms`);
  assert.equal(matcher.match('GET', '/x')?.operationId, 'any');
});
