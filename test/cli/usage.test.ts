import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, runSvc, runSvcInProcess } from './run-svc';

const COMMANDS = ['validate', 'compare', 'generate', 'can-i-deploy', 'wait', 'register-schema', 'register-consumer', 'serve', 'version',
  'schemas list', 'schemas get', 'endpoints', 'consumers list', 'consumers deregister', 'mock'];
const ESCAPE = /\x1b\[/;

test('every command has --help and -h: a description and an example, plain text, exit 0', async () => {
  for (const command of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      const { code, stdout, stderr } = await runSvcInProcess([...command.split(' '), flag]);
      assert.equal(code, 0, `${command} ${flag}: ${stderr}`);
      assert.equal(stderr, '');
      assert.doesNotMatch(stdout, ESCAPE, `${command} ${flag} has colour codes`);
      assert.match(stdout, /\S/);
      assert.match(stdout, /\nExamples\n/, `${command} ${flag} shows examples`);
      assert.match(stdout, new RegExp(`\\n {2}\\$ svc ${command}\\b`), `${command} ${flag} example runs the command`);
    }
  }
});

test('--help lines up every option description in one column, values named after their option', async () => {
  for (const command of COMMANDS) {
    const { stdout } = await runSvcInProcess([...command.split(' '), '--help']);
    const block = /\nOptions\n\n([\s\S]*?)\n(?:\n|$)/.exec(stdout)?.[1];
    if (block === undefined) continue; // a command without options
    const rows = block.split('\n').map((row) => /^ {2}(\S+(?: \S+)*) {4,}\S/.exec(row));
    assert.ok(rows.every((row) => row !== null), `${command}: every option row is a definition and a description\n${block}`);
    const columns = new Set(rows.map((row) => row![0].length - 1));
    assert.equal(columns.size, 1, `${command}: descriptions start in one column\n${block}`);
    assert.doesNotMatch(block, / #\d/, `${command}: option values are named`);
  }
});

test('help (child process): plain text when stdout is not a terminal, listing every command', async () => {
  const { code, stdout, stderr } = await runSvc(['--help']);
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stdout, ESCAPE);
  for (const command of COMMANDS) assert.match(stdout, new RegExp(`\\n {2}svc ${command}\\b`), command);

  const validate = await runSvc(['validate', '-h']);
  assert.equal(validate.code, 0);
  assert.doesNotMatch(validate.stdout, ESCAPE);
  assert.match(validate.stdout, /^Validate one HTTP interaction/);
});

test('an unknown flag is a one-line usage error on stderr for every command (exit 2, no stack trace)', async () => {
  for (const command of COMMANDS) {
    const { code, stdout, stderr } = await runSvcInProcess([...command.split(' '), '--no-such-flag']);
    assert.equal(code, 2, command);
    assert.equal(stdout, '', command);
    assert.equal(stderr, `svc ${command}: Unsupported option name ("--no-such-flag") (see "svc ${command} --help")\n`);
  }
});

test('unknown commands and usage errors in a child process: one line on stderr, exit 2', async () => {
  const unknown = await runSvc(['deploy-everything']);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, '');
  assert.equal(unknown.stderr, 'svc: unknown command "deploy-everything" (see "svc --help" for the list of commands)\n');

  const flag = await runSvc(['generate', '--schema', 'x.yaml', '--bogus']);
  assert.equal(flag.code, 2);
  assert.equal(flag.stdout, '');
  assert.equal(lines(flag.stderr).length, 1);
  assert.doesNotMatch(flag.stderr, /\n\s+at /, 'no stack trace');

  const missingValue = await runSvcInProcess(['wait', '--server']);
  assert.equal(missingValue.code, 2);
  assert.equal(missingValue.stderr, 'svc wait: Not enough arguments to option --server (see "svc wait --help")\n');
});

test('version (child process): three lines, filled at build time', async () => {
  const { code, stdout, stderr } = await runSvc(['version']);
  assert.equal(code, 0, stderr);
  const [name, commit, built, ...rest] = lines(stdout);
  assert.match(name!, /^svc version \d+\.\d+\.\d+/);
  assert.match(commit!, /^Commit: \S+$/);
  assert.match(built!, /^Built: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  assert.deepEqual(rest, []);
  assert.equal((await runSvcInProcess(['--version'])).stdout, stdout);
});

test('help names option values after their option and lists required options in the usage line (bug 5)', async () => {
  for (const command of COMMANDS) {
    const { stdout } = await runSvcInProcess([...command.split(' '), '--help']);
    assert.doesNotMatch(stdout, /#\d/, `${command} --help shows a numbered placeholder`);
  }
  const canIDeploy = await runSvcInProcess(['can-i-deploy', '--help']);
  // --version is optional since --file (a candidate document) may stand in for it.
  assert.match(canIDeploy.stdout, /\n\$ svc can-i-deploy --schema <schema> --env <env> \[options\]\n/);
  assert.match(canIDeploy.stdout, /\n {2}--schema <schema> {2,}Schema id\n/);
  const registerSchema = await runSvcInProcess(['register-schema', '--help']);
  assert.match(registerSchema.stdout, /\n\$ svc register-schema <schema-id> <schema-file> \[options\]\n/);
  const overview = await runSvcInProcess(['--help']);
  assert.match(overview.stdout, /\n {2}svc compare \[options\]\n/);
  assert.doesNotMatch(overview.stdout, /#\d/);
});

test('svc with no command prints the help on stderr and exits 2 (bug 5); a parse error under --json is JSON on stdout', async () => {
  const { code, stdout, stderr } = await runSvc([]);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /\$ svc <command>/);
  assert.match(stderr, /svc: no command given \(see "svc --help"\)\n$/);

  const json = await runSvcInProcess(['can-i-deploy', '--json']);
  assert.equal(json.code, 2);
  assert.equal(JSON.parse(json.stdout).error.code, 'USAGE_ERROR');
});
