/**
 * Regression: unique YAML map keys are checked by svc (one Set per map), not by the yaml package;
 * the same keys must be refused and the same kept. Two `.nan` keys are not equal in the yaml
 * package's check (NaN !== NaN), so such a map parsed before, and was refused after.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSchemaText } from '../../src/shared/openapi/parse-text';

describe('regression: YAML duplicate keys', () => {
  it('keeps a map of two NaN keys, as the yaml package did', () => {
    assert.deepEqual(parseSchemaText('.nan: 1\n.NaN: 2\n'), { NaN: 2 });
  });

  it('still refuses a repeated key, naming where', () => {
    assert.throws(() => parseSchemaText('a: 1\nb: 2\na: 3\n'), /Map keys must be unique at line 3, column 1/);
  });
});
