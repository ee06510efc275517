/**
 * Regression: the registration safety walk skipped keys such as `default`, `enum` and `x-…` as
 * literal data even where they are names: a property called `default`, the `default` response.
 * A pattern RE2 cannot run hid there and every later validation of the operation failed. Such a
 * pattern now registers (issue 15) and must be reported: the walk still reaches it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSchema } from '../../src/shared/openapi/load-document';

const LOOKAHEAD = '^(?=a)a$';

function documentWith(operation: object, schemas: object = {}): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'names', version: '1.0.0' },
    paths: { '/x': { post: operation } },
    components: { schemas },
  });
}

const bodyWith = (schema: object) => ({
  requestBody: { content: { 'application/json': { schema } } },
  responses: { 200: { description: 'ok' } },
});

describe('regression: names that look like literal keys', () => {
  const reviewed: Array<[string, string]> = [
    ['a property named "default"', documentWith(bodyWith({ type: 'object', properties: { default: { type: 'string', pattern: LOOKAHEAD } } }))],
    ['a property named "x-tag"', documentWith(bodyWith({ type: 'object', properties: { 'x-tag': { type: 'string', pattern: LOOKAHEAD } } }))],
    ['the "default" response', documentWith({ responses: { default: { description: 'error', content: { 'application/json': { schema: { type: 'string', pattern: LOOKAHEAD } } } } } })],
    ['a component schema named "enum"', documentWith({ responses: { 200: { description: 'ok' } } }, { enum: { type: 'string', pattern: LOOKAHEAD } })],
  ];
  for (const [name, text] of reviewed) {
    it(`checks the pattern under ${name}`, async () => {
      const { warnings } = await loadSchema(text);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!.code, /^PATTERN_(NOT_ENFORCED|ECMA_ENGINE)$/);
      assert.match(warnings[0]!.message, /^pattern "\^\(\?=a\)a\$" is /);
    });
  }

  it('still ignores a "pattern" key inside example data and accepts valid names', async () => {
    const loaded = await loadSchema(documentWith({
      ...bodyWith({ type: 'object', properties: { default: { type: 'string', pattern: '^[a-z]+$' } }, example: { pattern: LOOKAHEAD } }),
    }));
    assert.equal(loaded.endpointCount, 1);
    assert.deepEqual(loaded.warnings, []);
  });
});
