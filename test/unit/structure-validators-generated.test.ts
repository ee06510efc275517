/**
 * The official OpenAPI schemas' validators are compiled ahead of time (src/shared/openapi/structure-schemas.ts)
 * and committed: a change of the schemas, of svc's adjustments to them or of AJV must come with
 * regenerated code (`npm run generate`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { STRUCTURE_VALIDATOR_MODULES, structureValidatorModules } from '../../src/shared/openapi/structure-schemas';
import validate30 from '../../src/shared/openapi/generated/openapi-3.0-structure';
import { REPO_ROOT } from '../helpers/paths';

test('the committed structure validators are what the generator writes', () => {
  const modules = structureValidatorModules();
  for (const [version, file] of Object.entries(STRUCTURE_VALIDATOR_MODULES)) {
    const committed = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    assert.ok(committed === modules[version as keyof typeof modules], `${file} is out of date: run npm run generate`);
  }
});

test('the precompiled 3.0 validator finds duplicate parameters by hashing, with the message AJV gives', () => {
  const validate = validate30 as typeof validate30 & { errors?: Array<{ message?: string; params: unknown }> | null };
  const parameters = Array.from({ length: 20_000 }, (_, i) => ({ name: `p${i}`, in: 'query', schema: { type: 'string' } }));
  parameters.push({ ...parameters[7]! });
  const document = { openapi: '3.0.3', info: { title: 't', version: '1' }, paths: { '/x': { get: { parameters, responses: { 200: { description: 'ok' } } } } } };
  assert.equal(validate(document), false);
  assert.deepEqual(validate.errors?.map((error) => [error.message, error.params]),
    [['must NOT have duplicate items (items ## 7 and 20000 are identical)', { i: 20000, j: 7 }]]);
  parameters.pop();
  assert.equal(validate(document), true);
});

test('intake checks 3.0 and 3.1 documents without loading AJV: nothing is compiled on the thread', () => {
  // A process of its own: this one has loaded AJV already.
  const loaded = execFileSync(process.execPath, ['-e', `
    const { assertValidOpenApiStructure } = require(${JSON.stringify(path.join(__dirname, '../../src/shared/openapi/structure-check.js'))});
    for (const openapi of ['3.0.3', '3.1.0']) assertValidOpenApiStructure({ openapi, info: { title: 't', version: '1' }, paths: {} });
    process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((file) => /node_modules[\\/]ajv/.test(file))));
  `], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(loaded), []);
});
