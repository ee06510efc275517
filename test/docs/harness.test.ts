/**
 * The documentation harness itself: a page that shows the wrong output, hides a failing exit code,
 * runs an unknown program or holds an unmarked block of another language fails; markers and the
 * `...` wildcard work. Only `echo` and the `npx` guard run here, so no server is needed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, it } from 'node:test';
import { linesMatch, makeWorkDir, normalise, runBlock, type ExampleContext } from './block-runner';
import { consoleCommands, fencedBlocks, headingAnchors, markdownLinks } from './markdown-blocks';

const workDir = makeWorkDir();
after(() => fs.rmSync(workDir, { recursive: true, force: true }));
const context: ExampleContext = { address: '127.0.0.1:1', metricsAddress: '127.0.0.1:2', workDir, clientCommands: [] };

/** The only block of a page made of `lines`. */
function block(...lines: string[]) {
  const blocks = fencedBlocks(lines.join('\n'));
  assert.equal(blocks.length, 1);
  return blocks[0]!;
}

describe('reading a page', () => {
  it('finds fenced blocks with their language, indentation removed, and the marker before them', () => {
    const blocks = fencedBlocks([
      'Intro', '', '<!-- not run: needs docker -->', '', '```sh', 'docker run svc', '```',
      '- a list item:', '', '  ```json', '  { "a": 1 }', '  ```',
      '<!-- file: docs/examples/users-api.yaml -->', '~~~yaml', 'a: 1', '~~~', '````', '```', '````',
    ].join('\n'));
    assert.deepEqual(blocks.map(({ language, content, line, marker }) => ({ language, content, line, marker })), [
      { language: 'sh', content: 'docker run svc\n', line: 5, marker: { kind: 'not-run', reason: 'needs docker' } },
      { language: 'json', content: '{ "a": 1 }\n', line: 10, marker: undefined },
      { language: 'yaml', content: 'a: 1\n', line: 14, marker: { kind: 'file', path: 'docs/examples/users-api.yaml' } },
      { language: '', content: '```\n', line: 17, marker: undefined },
    ]);
    assert.throws(() => fencedBlocks('```sh\nnever closed\n'), /never closed/);
  });

  it('splits a console block into commands (with continuation lines) and their output', () => {
    assert.deepEqual(consoleCommands('$ svc a \\\n    --b c\nout 1\nout 2\n$ echo $?\n0\n'), [
      { command: 'svc a \\\n    --b c', expectedOutput: ['out 1', 'out 2'] },
      { command: 'echo $?', expectedOutput: ['0'] },
    ]);
    assert.throws(() => consoleCommands('output first\n$ svc\n'), /must start with a "\$ " command/);
  });

  it('finds links outside code and the anchors of headings', () => {
    const page = '# A title\n\nSee [x](other.md#a-title) and `[not](a-link.md)`.\n```text\n[no](link.md)\n```\n## Limits (`src/x.ts`)\n## A title\n';
    assert.deepEqual(markdownLinks(page), [{ target: 'other.md#a-title', line: 3 }]);
    assert.deepEqual([...headingAnchors(page)], ['a-title', 'limits-srcxts', 'a-title-1']);
  });
});

describe('running a block', () => {
  it('passes a console block whose output matches, `...` standing for any lines', async () => {
    await runBlock(block('```console', '$ echo one; echo two; echo three', 'one', '...', '$ echo done', 'done', '```'), context);
  });

  it('fails a console block whose output differs, showing both', async () => {
    await assert.rejects(runBlock(block('```console', '$ echo hello', 'goodbye', '```'), context), /printed:\nhello\n\nbut the page shows:\ngoodbye/);
  });

  it('fails a command that exits non-zero unless `$ echo $?` shows the code', async () => {
    // bash refuses the arithmetic: exit 1, its message on stderr.
    await assert.rejects(runBlock(block('```console', '$ echo $((1/0))', '...', '```'), context), /exited 1: a command that fails must be followed by `\$ echo \$\?`/);
    await runBlock(block('```console', '$ echo $((1/0))', '...', '$ echo $?', '1', '```'), context);
  });

  it('refuses programs other than svc, npx svc and echo, and background processes, until the block is marked', async () => {
    await assert.rejects(runBlock(block('```console', '$ docker build .', '```'), context), /runs `docker`.*<!-- not run: reason -->/);
    await assert.rejects(runBlock(block('```sh', 'echo ok && curl http://localhost:9551/metrics', '```'), context), /runs `curl`/);
    await assert.rejects(runBlock(block('```sh', 'npx svc serve &', '```'), context), /in the background/);
    await runBlock(block('```sh', "echo 'a; b && c' # a comment", 'FOO=bar echo ok', '```'), context);
  });

  it('refuses blocks without a language or in a language it cannot run, and checks data blocks parse', async () => {
    await assert.rejects(runBlock(block('```', 'something', '```'), context), /names no language/);
    await assert.rejects(runBlock(block('```python', 'print(1)', '```'), context), /"python" block cannot be run/);
    await assert.rejects(runBlock(block('```json', '{ "a": }', '```'), context), /does not parse/);
    await runBlock(block('```yaml', 'a: [1, 2]', '```'), context);
    await runBlock(block('```text', 'anything at all', '```'), context);
  });

  it('fails a js block that throws', async () => {
    await assert.rejects(runBlock(block('```js', "throw new Error('broken example');", '```'), context), /broken example/);
    await runBlock(block('```js', "const assert = require('node:assert/strict');", 'assert.equal(await Promise.resolve(2), 2);', '```'), context);
  });
});

describe('comparing output', () => {
  it('normalises the server address, loopback ports, times and hashes', () => {
    assert.deepEqual(
      normalise('at 127.0.0.1:4711 and 127.0.0.1:5000\nBuilt: 2026-11-21T05:08:27.821Z  \nHash: 5f0c1d2e3f4a5b6c7d8e\nCommit: f2fa…\n\n', '127.0.0.1:4711'),
      ['at localhost:9550 and 127.0.0.1:<port>', 'Built: <time>', 'Hash: <hash>', 'Commit: <hash>'],
    );
  });

  it('matches `...` lazily and nowhere else', () => {
    assert.ok(linesMatch(['a', '...', 'd'], ['a', 'b', 'c', 'd']));
    assert.ok(linesMatch(['a', '...'], ['a']));
    assert.ok(!linesMatch(['a', 'd'], ['a', 'b', 'd']));
    assert.ok(!linesMatch(['a', '...', 'e'], ['a', 'b', 'd']));
  });
});
