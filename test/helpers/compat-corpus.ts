/**
 * The breaking-change corpus (test/fixtures/compat/): one folder per case with `old.*`, `new.*`
 * (YAML or JSON) and `expected.json` listing the expected changes in the engine's order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fixturePath } from './paths';

export interface ExpectedChange {
  type: string;
  path: string;
  method: string;
  /** Text the change's description must contain (a location, a JSON pointer...). */
  where?: string;
}

export interface CompatCase {
  name: string;
  rule: string;
  oldText: string;
  newText: string;
  changes: ExpectedChange[];
}

export const COMPAT_CORPUS_DIR = fixturePath('compat');

export function loadCompatCorpus(): CompatCase[] {
  return fs
    .readdirSync(COMPAT_CORPUS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map(loadCompatCase);
}

export function loadCompatCase(name: string): CompatCase {
  const dir = path.join(COMPAT_CORPUS_DIR, name);
  const files = fs.readdirSync(dir);
  const read = (stem: string) => {
    const file = files.find((candidate) => /^(.+)\.(ya?ml|json)$/.exec(candidate)?.[1] === stem);
    if (!file) throw new Error(`compat case ${name}: no ${stem}.yaml or ${stem}.json`);
    return fs.readFileSync(path.join(dir, file), 'utf8');
  };
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { rule: string; changes: ExpectedChange[] };
  return { name, rule: expected.rule, oldText: read('old'), newText: read('new'), changes: expected.changes };
}

/** The fields a case fixes, for deepEqual against what the engine or the server returned. */
export function changeKeys(changes: ReadonlyArray<{ type: string; path: string; method: string }>): Array<{ type: string; path: string; method: string }> {
  return changes.map(({ type, path: changePath, method }) => ({ type, path: changePath, method }));
}
