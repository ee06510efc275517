/** includePaths / excludePaths patterns: `*` within a segment, `**` across segments, literal otherwise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePathPatterns } from '@svc/client/internal';

function matcher(...patterns: string[]) {
  const predicate = compilePathPatterns('options.includePaths', patterns);
  assert.ok(predicate);
  return predicate;
}

test('"*" matches within one segment only', () => {
  const matches = matcher('/users/*');
  assert.equal(matches('/users/42'), true);
  assert.equal(matches('/users/42/'), true);
  assert.equal(matches('/users/42/posts'), false);
  assert.equal(matches('/users'), false);
  assert.equal(matcher('/files/*.json')('/files/a.json'), true);
  assert.equal(matcher('/files/*.json')('/files/a.yaml'), false);
});

test('"**" matches any number of segments, none included', () => {
  const matches = matcher('/api/**');
  for (const path of ['/api', '/api/', '/api/v1', '/api/v1/users/42']) assert.equal(matches(path), true, path);
  assert.equal(matches('/apiv2'), false);
  assert.equal(matches('/other/api/x'), false);
  const anywhere = matcher('/**/health');
  assert.equal(anywhere('/health'), true);
  assert.equal(anywhere('/internal/k8s/health'), true);
  assert.equal(anywhere('/healthz'), false);
});

test('everything else is literal, regular-expression characters included', () => {
  const matches = matcher('/v1.0/(legacy)/users+');
  assert.equal(matches('/v1.0/(legacy)/users+'), true);
  assert.equal(matches('/v1x0/(legacy)/users+'), false);
  assert.equal(matches('/v1.0/legacy/userss'), false);
});

test('several patterns: any may match; no patterns given means no filter', () => {
  const matches = matcher('/health', '/metrics/**');
  assert.equal(matches('/health'), true);
  assert.equal(matches('/metrics/jvm'), true);
  assert.equal(matches('/users'), false);
  assert.equal(compilePathPatterns('options.excludePaths', undefined), undefined);
});

test('a pattern that is not a path is refused naming the option and index', () => {
  assert.throws(() => compilePathPatterns('options.excludePaths', ['/ok', 'health']), /options\.excludePaths\[1\] must be a path pattern/);
  assert.throws(() => compilePathPatterns('options.includePaths', '/x' as never), /options\.includePaths must be an array/);
});
