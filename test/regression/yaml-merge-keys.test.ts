/**
 * Regression (review C): YAML merge keys (`<<: *base`) were read as a key named "<<". In a schema
 * it was ignored with a FIELD_IGNORED warning and the merged keywords were lost (a valid id was
 * refused as an unexpected property, a required one not enforced); under `responses` the document
 * was refused. They are merged now, as js-yaml and PyYAML merge them, and merged aliases still
 * count against maxYamlAliases.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SourceDocument } from '../../src/cli/reports/source-document';
import { LIMITS } from '../../src/shared/limits';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { assertInvalid, assertValid, request, response, textContract } from '../helpers/validation-contracts';

const SCHEMA_MERGE = `openapi: 3.0.3
info: {title: merge, version: "1.0.0"}
components:
  schemas:
    Base: &base
      type: object
      required: [id]
      properties:
        id: {type: integer}
paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                <<: *base
                additionalProperties: false
`;

const RESPONSES_MERGE = `openapi: 3.0.3
info: {title: merge, version: "1.0.0"}
x-common: &common
  '404': {description: not found}
  '500': {description: error}
paths:
  /a:
    get:
      responses:
        <<: *common
        '200': {description: ok}
`;

describe('regression: YAML merge keys', () => {
  const get = request('GET', '/a');
  const json = (body: unknown) => response(200, { headers: { 'content-type': 'application/json' }, body });

  it('merges a schema fragment: its keywords apply beside the local ones', async () => {
    const loaded = await loadSchema(SCHEMA_MERGE);
    assert.deepEqual(loaded.warnings, []);
    const { contract } = await textContract(SCHEMA_MERGE);
    assertValid(contract.validateInteraction({ request: get, response: json({ id: 1 }) }));
    assertInvalid(contract.validateInteraction({ request: get, response: json({}) }), 'response_invalid', 'response body: property "id" is required');
    assertInvalid(contract.validateInteraction({ request: get, response: json({ id: 1, more: true }) }), 'response_invalid', 'response body: unexpected property "more"');
  });

  it('merges shared responses into an operation\'s responses', async () => {
    const loaded = await loadSchema(RESPONSES_MERGE);
    const responses = (loaded.document.paths!['/a']!.get as { responses: object }).responses;
    assert.deepEqual(Object.keys(responses).sort(), ['200', '404', '500']);
    const { contract } = await textContract(RESPONSES_MERGE);
    assertValid(contract.validateInteraction({ request: get, response: response(404) }));
  });

  it('a local key wins over the merged one', async () => {
    const text = SCHEMA_MERGE.replace('additionalProperties: false', 'additionalProperties: false\n                properties: {id: {type: string}}');
    const { contract } = await textContract(text);
    assertValid(contract.validateInteraction({ request: get, response: json({ id: 'x' }) }));
    assertInvalid(contract.validateInteraction({ request: get, response: json({ id: 1 }) }), 'response_invalid', 'response body /id: must be string');
  });

  it('compare reports read the text as intake does', async () => {
    const loaded = await loadSchema(RESPONSES_MERGE);
    assert.deepEqual(new SourceDocument(RESPONSES_MERGE).value, loaded.document);
  });

  it('a bomb of merge keys is refused by its expansion, measured before it is built', async () => {
    const lines = ['openapi: 3.0.0', 'info: {title: bomb, version: 1.0.0}', 'paths: {}', 'x-l0: &l0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}'];
    for (let level = 1; level < 12; level++) {
      lines.push(`x-l${level}: &l${level}`);
      for (let key = 0; key < 10; key++) lines.push(`  k${key}: {<<: *l${level - 1}}`);
    }
    await assert.rejects(loadSchema(lines.join('\n')), { message: `Invalid schema: YAML aliases expand the document to more than ${LIMITS.maxYamlExpandedChars} characters (maxYamlExpandedChars)` });
  });
});
