/**
 * INTAKE_REVISION names the way intake reads a text. Versions stored under a lower one are read
 * again from their text on first use (schema-registry `documentSource`), which is right only if
 * every change in reading raises it. This test pins what intake makes of the test documents at the
 * current revision; a change that makes any of them read otherwise fails here until the revision is
 * raised and the pins are written again (the failure prints them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { INTAKE_REVISION, intakeSchema } from '../../src/shared/openapi/schema-intake';
import { errorMessage } from '../../src/shared/errors';
import { REPO_ROOT } from '../helpers/paths';

const PINS_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'intake', 'revision-pins.json');
/**
 * The documents read: every JSON and YAML file of the test fixtures (Swagger 2.0, OpenAPI 3.0 and
 * 3.1, lenient and refused, the compatibility corpus's edge cases), about 1 MB together.
 */
const FIXTURES = 'test/fixtures';

interface Pins {
  revision: number;
  /** By path from the repository root: 16 hex digits of the engine document's SHA-256, or `refused: <why>`. */
  documents: Record<string, string>;
}

async function readingOf(file: string): Promise<string> {
  try {
    const { documentJson } = await intakeSchema(fs.readFileSync(path.join(REPO_ROOT, file)));
    return createHash('sha256').update(documentJson).digest('hex').slice(0, 16);
  } catch (error) {
    return `refused: ${errorMessage(error).slice(0, 120)}`;
  }
}

function documentFiles(): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, FIXTURES), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(json|ya?ml)$/.test(name))
    .map((name) => path.posix.join(FIXTURES, name.split(path.sep).join('/')))
    .filter((file) => path.join(REPO_ROOT, file) !== PINS_FILE)
    .sort();
}

test('intake reads the pinned documents as it did at the current INTAKE_REVISION', async () => {
  const pins = JSON.parse(fs.readFileSync(PINS_FILE, 'utf8')) as Pins;
  const now: Pins = { revision: INTAKE_REVISION, documents: {} };
  for (const file of documentFiles()) now.documents[file] = await readingOf(file);
  const changed = Object.keys(pins.documents).filter((file) => now.documents[file] !== pins.documents[file]);
  const rewrite = `write ${path.relative(REPO_ROOT, PINS_FILE)} as:\n${JSON.stringify(now, null, 2)}`;
  assert.ok(Object.keys(pins.documents).length >= 300, 'the pins cover the test documents');
  if (pins.revision === INTAKE_REVISION) {
    assert.deepEqual(changed, [], `intake reads these documents otherwise than at revision ${pins.revision}: raise INTAKE_REVISION `
      + `(src/shared/openapi/schema-intake.ts), so that versions stored before are read again, and ${rewrite}`);
  } else {
    assert.ok(pins.revision < INTAKE_REVISION, `the pins are of revision ${pins.revision}, later than INTAKE_REVISION ${INTAKE_REVISION}`);
    assert.fail(`INTAKE_REVISION was raised to ${INTAKE_REVISION}: ${rewrite}`);
  }
});
