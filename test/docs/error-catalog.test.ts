/**
 * docs/errors.md documents the error catalog exactly: one row per ErrorCode, no row for a code that
 * no longer exists, and the gRPC status each row names is the one the server maps the code to.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ErrorCode, SvcError } from '../../src/shared/errors';
import { grpcStatusOf, statusName } from '../../src/main/grpc-status';
import { REPO_ROOT } from '../helpers/paths';

const PAGE = path.join(REPO_ROOT, 'docs', 'errors.md');
const SECTION = '## The codes';

/** `| \`CODE\` | \`STATUS\` | when | what to do |` rows of the page's code table. */
function documentedCodes(): Map<string, string> {
  const markdown = fs.readFileSync(PAGE, 'utf8');
  const start = markdown.indexOf(SECTION);
  assert.ok(start >= 0, `docs/errors.md has no "${SECTION}" section`);
  const end = markdown.indexOf('\n## ', start + SECTION.length);
  const rows = new Map<string, string>();
  for (const line of markdown.slice(start, end < 0 ? undefined : end).split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code === undefined) continue;
    assert.ok(!rows.has(code), `${code} is listed twice`);
    assert.ok(cells.length === 4 && cells[2]!.length > 0 && cells[3]!.length > 0, `the row of ${code} needs a status, when it happens and what to do`);
    rows.set(code, /^`([A-Z_]+)`$/.exec(cells[1]!)?.[1] ?? cells[1]!);
  }
  return rows;
}

test('docs/errors.md lists every code of the error catalog, and no other', () => {
  const documented = [...documentedCodes().keys()].sort();
  const catalog = Object.values(ErrorCode).sort();
  assert.deepEqual(
    { missingFromPage: catalog.filter((code) => !documented.includes(code)), notInCatalog: documented.filter((code) => !catalog.includes(code as ErrorCode)) },
    { missingFromPage: [], notInCatalog: [] },
  );
});

test('docs/errors.md names the gRPC status the server maps each code to', () => {
  for (const [code, status] of documentedCodes()) {
    if (!(Object.values(ErrorCode) as string[]).includes(code)) continue; // reported by the test above
    assert.equal(status, statusName(grpcStatusOf(new SvcError(code as ErrorCode, 'documented'))), `the status of ${code}`);
  }
});
