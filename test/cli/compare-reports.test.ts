/**
 * `svc compare` reports: one snapshot per format of the same fixed pair (orders 1.0.0 → 2.0.0, every
 * severity present), committed under test/fixtures/cli/compare-snapshots/. Regenerate after a
 * deliberate change with UPDATE_SNAPSHOTS=1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { REPO_ROOT } from '../helpers/paths';
import { cliFixture, lines, runSvcInProcess as runSvc, type SvcResult } from './run-svc';

// In process (fast), from the repository root, so report paths are the same wherever the suite runs.
process.chdir(REPO_ROOT);

const OLD = 'test/fixtures/cli/orders-v1.yaml';
const NEW = 'test/fixtures/cli/orders-v2.yaml';
const FORMATS = ['text', 'json', 'yaml', 'markdown', 'html', 'junit', 'github'];
const EXTENSIONS: Record<string, string> = { text: 'txt', json: 'json', yaml: 'yaml', markdown: 'md', html: 'html', junit: 'xml', github: 'txt' };

test('compare --changelog: every format matches its committed snapshot, exit 1 (breaking changes)', async () => {
  const results: SvcResult[] = [];
  for (const format of FORMATS) results.push(await runSvc(['compare', '--old', OLD, '--new', NEW, '--changelog', '--format', format]));
  FORMATS.forEach((format, index) => {
    const { code, stdout, stderr } = results[index]!;
    assert.equal(code, 1, `${format}: ${stderr}`);
    assert.equal(stderr, '');
    const snapshot = cliFixture(`compare-snapshots/orders.${format}.${EXTENSIONS[format]}`);
    if (process.env.UPDATE_SNAPSHOTS === '1') fs.writeFileSync(snapshot, stdout);
    assert.equal(stdout, fs.readFileSync(snapshot, 'utf8'), `${format} output differs from ${snapshot}`);
  });
});

test('compare: every change has a stable rule id and a severity; JSON keeps the spec fields', async () => {
  const { stdout } = await runSvc(['compare', '--old', OLD, '--new', NEW, '--changelog', '--json']);
  const report = JSON.parse(stdout);
  assert.equal(report.compatible, false);
  assert.equal(report.passed, false);
  assert.deepEqual(report.breaking_changes.map((change: { type: string }) => change.type), ['REQUIRED_PARAMETER_ADDED', 'ENDPOINT_REMOVED']);
  const ids = report.changes.map((change: { id: string; severity: string }) => `${change.severity} ${change.id}`);
  for (const expected of ['error endpoint-removed', 'error required-parameter-added', 'warning request-max-length-tightened',
    'warning response-enum-value-added', 'warning endpoint-deprecated', 'info endpoint-added', 'info request-optional-property-added', 'info response-property-added']) {
    assert.ok(ids.includes(expected), `${expected} in ${ids.join(', ')}`);
  }
  assert.deepEqual(report.summary, { error: 2, warning: 4, info: 4, ignored: 0 });
});

test('compare: without --changelog the info changes are left out; --fail-on warning fails on warnings alone', async () => {
  const plain = await runSvc(['compare', '--old', OLD, '--new', NEW, '--json']);
  assert.ok(JSON.parse(plain.stdout).changes.every((change: { severity: string }) => change.severity !== 'info'));

  // Only the non-breaking paths: warnings remain, no error.
  const args = ['compare', '--old', OLD, '--new', NEW, '--include-path', '/orders', '--include-path', '/orders/*'];
  const warningsOnly = await runSvc([...args, '--ignore', cliFixture('ignore-accepted.yaml')]);
  assert.equal(warningsOnly.code, 0, warningsOnly.stdout);
  assert.match(lines(warningsOnly.stdout)[0]!, /^Found 0 breaking changes: the new schema is compatible \(4 warnings, 1 ignored\)$/);
  const strict = await runSvc([...args, '--ignore', cliFixture('ignore-accepted.yaml'), '--fail-on', 'warning']);
  assert.equal(strict.code, 1);
});

test('compare --exclude-path drops matching paths; a change to every endpoint is never filtered', async () => {
  const { stdout } = await runSvc(['compare', '--old', OLD, '--new', NEW, '--exclude-path', '/internal/**', '--json']);
  const paths = JSON.parse(stdout).changes.map((change: { path: string }) => change.path);
  assert.ok(!paths.includes('/internal/metrics'));
  assert.ok(paths.includes('/orders/{id}'));
  const bad = await runSvc(['compare', '--old', OLD, '--new', NEW, '--exclude-path', 'internal']);
  assert.equal(bad.code, 2);
});

test('compare --ignore: an expired entry fails loudly, naming the entry; a malformed file is an error', async () => {
  const expired = await runSvc(['compare', '--old', OLD, '--new', NEW, '--ignore', cliFixture('ignore-expired.yaml'), '--json']);
  assert.equal(expired.code, 1);
  assert.match(expired.stderr, /expired entry: endpoint-removed \/orders\/\{id\} \(expired 2020-01-31\)/);
  assert.equal(JSON.parse(expired.stdout).error.code, 'INVALID_ARGUMENT');

  const malformed = await runSvc(['compare', '--old', OLD, '--new', NEW, '--ignore', cliFixture('orders-v1.yaml')]);
  assert.equal(malformed.code, 1);
  assert.match(malformed.stderr, /must hold a list of entries/);
});

test('compare, Swagger 2.0 input: locations point into the document as written, with its line numbers', async () => {
  const dir = 'test/fixtures/compat/swagger2-response-property-removed';
  const { code, stdout } = await runSvc(['compare', '--old', `${dir}/old.yaml`, '--new', `${dir}/new.yaml`, '--format', 'github']);
  assert.equal(code, 1);
  const [annotation] = lines(stdout);
  assert.match(annotation!, /^::error file=test\/fixtures\/compat\/swagger2-response-property-removed\/new\.yaml,line=\d+,title=RESPONSE_SCHEMA_CHANGED GET \/pets\/\{petId\}::/);
  assert.match(annotation!, /\(at #\/definitions\/Pet\/properties\/name\)/);
  assert.doesNotMatch(annotation!, /#\/components\//);

  const enumDir = 'test/fixtures/compat/swagger2-parameter-enum-value-removed';
  const json = JSON.parse((await runSvc(['compare', '--old', `${enumDir}/old.yaml`, '--new', `${enumDir}/new.yaml`, '--json'])).stdout);
  assert.equal(json.changes[0].location.pointer, '#/paths/~1pets/parameters/0');
  assert.equal(json.locations, 'pointers into the Swagger 2.0 document as written');
});
