/**
 * Every example of the README and of the reference pages in docs/ runs (see markdown-blocks.ts for
 * the convention): each page against a fresh server, its blocks in the order a reader meets them, so
 * that a page may register a schema in one block and use it in the next. Relative links must lead
 * to a file, and to a heading of it when they name one.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { REPO_ROOT } from '../helpers/paths';
import { startTestServer, type TestServer } from '../helpers/server';
import { CONSOLE_LANGUAGES, DOCUMENTED_ADDRESS, JS_LANGUAGES, SCRIPT_LANGUAGES, clientCommandPaths, makeWorkDir, runBlock } from './block-runner';
import { EXAMPLE_PROGRAMS } from './example-files';
import { fencedBlocks, headingAnchors, markdownLinks, type FencedBlock } from './markdown-blocks';

/** Pages of docs/ kept by their own authors and checked by their own tests. */
const PAGES_CHECKED_ELSEWHERE: ReadonlySet<string> = new Set(['docs/cli.md', 'docs/real-world-documents.md', 'docs/replicas.md']);
/** Pages run at once (each with its own server); the examples themselves are child processes. */
const PAGE_CONCURRENCY = 2;

const pages = ['README.md', ...fs.readdirSync(path.join(REPO_ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
  .filter((page) => !PAGES_CHECKED_ELSEWHERE.has(page))
  .sort()];

let clientCommands: string[];
before(() => {
  clientCommands = clientCommandPaths();
});

describe('documentation examples', { concurrency: PAGE_CONCURRENCY }, () => {
  for (const page of pages) {
    it(`${page}: every example runs as shown`, async (t) => {
      const blocks = fencedBlocks(fs.readFileSync(path.join(REPO_ROOT, page), 'utf8'));
      let server: TestServer | undefined;
      const workDir = makeWorkDir();
      t.after(async () => {
        await server?.close();
        fs.rmSync(workDir, { recursive: true, force: true });
      });
      for (const block of blocks) {
        await t.test(`line ${block.line}: ${describeBlock(block)}`, async () => {
          if (block.marker?.kind === 'not-run') {
            assert.ok(block.marker.reason.length >= 5, 'a <!-- not run: reason --> marker must say why');
            return;
          }
          if (block.marker?.kind === 'file') {
            assertShowsFile(block, block.marker.path);
            return;
          }
          if (needsServer(block)) server ??= await startTestServer({ workerThreads: 1 });
          await runBlock(block, {
            address: server?.address ?? DOCUMENTED_ADDRESS,
            metricsAddress: `127.0.0.1:${server?.server.metricsPort ?? 0}`,
            workDir,
            clientCommands,
          });
        });
      }
    });
  }
});

describe('documentation links', () => {
  for (const page of [...pages, ...PAGES_CHECKED_ELSEWHERE].filter((name) => fs.existsSync(path.join(REPO_ROOT, name)))) {
    it(`${page}: every relative link leads to a file and heading that exist`, () => {
      const markdown = fs.readFileSync(path.join(REPO_ROOT, page), 'utf8');
      const broken: string[] = [];
      for (const { target, line } of markdownLinks(markdown)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? path.join(REPO_ROOT, page) : path.resolve(REPO_ROOT, path.dirname(page), decodeURI(file));
        if (!fs.existsSync(resolved)) {
          broken.push(`line ${line}: ${target} (no such file)`);
        } else if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`line ${line}: ${target} (no such heading)`);
        }
      }
      assert.deepEqual(broken, []);
    });
  }
});

function describeBlock(block: FencedBlock): string {
  const how = block.marker?.kind === 'not-run' ? 'not run'
    : block.marker?.kind === 'file' ? `shows ${block.marker.path}`
      : needsServer(block) ? 'runs' : block.language === 'text' ? 'shown as is' : 'parses';
  return `${block.language || 'no language'} block, ${how}`;
}

function needsServer(block: FencedBlock): boolean {
  return CONSOLE_LANGUAGES.has(block.language) || SCRIPT_LANGUAGES.has(block.language) || JS_LANGUAGES.has(block.language);
}

/** The block is the file, verbatim; a program among them must be one that a test runs. */
function assertShowsFile(block: FencedBlock, file: string): void {
  const filePath = path.join(REPO_ROOT, file);
  assert.ok(fs.existsSync(filePath), `${file} does not exist`);
  assert.equal(block.content, fs.readFileSync(filePath, 'utf8'), `the block is not ${file} verbatim`);
  if (needsServer(block)) assert.ok(EXAMPLE_PROGRAMS[file], `${file} is shown but no test runs it (see test/docs/example-files.ts)`);
}
