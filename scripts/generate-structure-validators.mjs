#!/usr/bin/env node
// Writes the precompiled validators of the official OpenAPI schemas (src/shared/openapi/structure-schemas.ts)
// to src/shared/openapi/generated (committed). Needs the build (dist/) for the module that compiles them.
// With --check, fails when the committed files differ from what would be written, so a change of the
// schemas, of their adjustments or of AJV cannot land without regenerated code.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const { STRUCTURE_VALIDATOR_MODULES, structureValidatorModules } = require(join(root, 'dist/src/shared/openapi/structure-schemas.js'));
const check = process.argv.includes('--check');

const modules = structureValidatorModules();
const differing = [];
for (const [version, file] of Object.entries(STRUCTURE_VALIDATOR_MODULES)) {
  const path = join(root, file);
  if (check) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== modules[version]) differing.push(file);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, modules[version]);
  }
}
if (differing.length > 0) {
  console.error(`the precompiled OpenAPI structure validators are out of date (${differing.join(', ')}); run: npm run generate`);
  process.exit(1);
}
console.log(check ? 'precompiled OpenAPI structure validators are up to date' : 'wrote the precompiled OpenAPI structure validators');
