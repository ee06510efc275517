import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliFixture, lines, runSvc, runSvcInProcess } from './run-svc';

const V1 = cliFixture('users-v1.yaml');
const V1_1 = cliFixture('users-v1.1.yaml');
const V2 = cliFixture('users-v2.json');

test('compare (child process): breaking changes print the spec text shape and exit 1', async () => {
  const { code, stdout, stderr } = await runSvc(['compare', '--old', V1, '--new', V2]);
  assert.equal(code, 1, stderr);
  assert.equal(stderr, '');
  const out = lines(stdout);
  assert.equal(out[0], 'Found 4 breaking changes');
  const changeLines = out.filter((line) => line.startsWith('['));
  assert.equal(changeLines.length, 4);
  for (const type of ['ENDPOINT_REMOVED', 'REQUIRED_FIELD_ADDED', 'TYPE_CHANGED']) {
    assert.ok(changeLines.some((line) => line.startsWith(`[${type}] `)), `${type} in ${stdout}`);
  }
  // Every change line is followed by an Old: or New: context line.
  out.forEach((line, i) => {
    if (line.startsWith('[')) assert.match(out[i + 1]!, /^ {2}(Old|New): /);
  });
  assert.ok(out.includes('  Old: DELETE /users/{id}'));
  assert.doesNotMatch(stdout, /\x1b\[/, 'no colour codes when stdout is not a terminal');
});

test('compare (child process): compatible versions exit 0 with a zero count line', async () => {
  const { code, stdout, stderr } = await runSvc(['compare', '--old', V1, '--new', V1_1]);
  assert.equal(code, 0, stderr);
  assert.equal(lines(stdout).length, 1);
  assert.match(stdout, /^Found 0 breaking changes/);
});

test('compare --json: compatible flag and snake_case changes; exit code still 1 when breaking', async () => {
  const { code, stdout } = await runSvc(['compare', '--old', V1, '--new', V2, '--json']);
  assert.equal(code, 1);
  const report = JSON.parse(stdout);
  assert.equal(report.compatible, false);
  assert.equal(report.breaking_changes.length, 4);
  const removed = report.breaking_changes.find((change: { type: string }) => change.type === 'ENDPOINT_REMOVED');
  assert.deepEqual(
    { method: removed.method, path: removed.path, old_value: removed.old_value },
    { method: 'DELETE', path: '/users/{id}', old_value: 'DELETE /users/{id}' },
  );
  assert.deepEqual(Object.keys(removed).sort(), ['description', 'method', 'new_value', 'old_value', 'path', 'type']);
});

test('compare --format github: one ::error annotation per change, escaped, pointing at the new file', async () => {
  const { code, stdout } = await runSvcInProcess(['compare', '--old', V1, '--new', V2, '--format', 'github']);
  assert.equal(code, 1);
  const annotations = lines(stdout).filter((line) => line.startsWith('::'));
  assert.equal(annotations.length, 4);
  for (const annotation of annotations) {
    assert.match(annotation, /^::error file=[^,]*users-v2\.json,line=\d+,title=[A-Z_]+ [A-Z]+ \/[^:]*::.+/);
    // The title is a property: its own colons and commas must be escaped.
    const title = /title=(.*?)::/.exec(annotation)![1]!;
    assert.doesNotMatch(title, /[,:]/);
  }
  assert.equal(lines(stdout).at(-1), 'Found 4 breaking changes (0 warnings)');

  const compatible = await runSvcInProcess(['compare', '--old', V1, '--new', V1_1, '--format', 'github']);
  assert.equal(compatible.code, 0);
  assert.match(compatible.stdout, /^::notice /);
});

test('compare --format markdown: a table row per change, pipes escaped', async () => {
  const { code, stdout } = await runSvcInProcess(['compare', '--old', V1, '--new', V2, '--format', 'markdown']);
  assert.equal(code, 1);
  assert.match(stdout, /^### Found 4 breaking changes/);
  const rows = lines(stdout).filter((line) => line.startsWith('| error '));
  assert.equal(rows.length, 4);
  assert.ok(rows.some((row) => row.includes('`endpoint-removed`') && row.includes('`DELETE /users/{id}`')));
  for (const row of rows) assert.equal(row.split(/(?<!\\)\|/).length, 8, row);

  const compatible = await runSvcInProcess(['compare', '--old', V1, '--new', V1_1, '--format', 'markdown']);
  assert.equal(compatible.code, 0);
  assert.match(compatible.stdout, /^### No breaking changes/);
});

test('compare: a schema that cannot be read is a one-line error naming it, exit 1', async () => {
  const { code, stdout, stderr } = await runSvc(['compare', '--old', V1, '--new', cliFixture('missing.yaml')]);
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(lines(stderr).length, 1);
  assert.match(stderr, /^svc compare: cannot read schema file ".*missing\.yaml": no such file$/m);

  const invalid = await runSvcInProcess(['compare', '--old', V1, '--new', cliFixture('interaction-valid.json')]);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /^svc compare: .*interaction-valid\.json: Invalid schema: /);
});

test('compare: an old schema that is not valid is a one-line error too, not a crash while the new one is read', async () => {
  // The old side failed while the new side was still being read: Node ended the command on an unhandled rejection.
  for (const newSchema of [V2, cliFixture('missing.yaml')]) {
    const { code, stdout, stderr } = await runSvc(['compare', '--old', cliFixture('interaction-valid.json'), '--new', newSchema]);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(lines(stderr).length, 1, stderr);
    assert.match(stderr, /^svc compare: (.*interaction-valid\.json: Invalid schema: |cannot read schema file ".*missing\.yaml")/);
  }
});

test('compare: usage errors are one line on stderr with exit code 2', async () => {
  const missing = await runSvc(['compare', '--old', V1]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr, 'svc compare: give --old and --new (two files or URLs), or --schema (two registered versions) (see "svc compare --help")\n');

  const format = await runSvcInProcess(['compare', '--old', V1, '--new', V2, '--format', 'xml']);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--format must be one of text, json, yaml, markdown, html, junit, github \(got "xml"\)/);

  const contradiction = await runSvcInProcess(['compare', '--old', V1, '--new', V2, '--json', '--format', 'markdown']);
  assert.equal(contradiction.code, 2);
  assert.equal(lines(contradiction.stderr).length, 1);
});
