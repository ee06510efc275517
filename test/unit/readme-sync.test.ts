/** docs/validation.md shows the validation message catalogue verbatim (the catalogue is tested against the engine). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';

test('docs/validation.md contains src/shared/validation/MESSAGES.md verbatim', () => {
  const page = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'validation.md'), 'utf8');
  const catalogue = fs.readFileSync(path.join(REPO_ROOT, 'src/shared/validation/MESSAGES.md'), 'utf8').trimEnd();
  assert.ok(page.includes(catalogue), 'copy src/shared/validation/MESSAGES.md into docs/validation.md (section "Validation messages")');
});
