/**
 * Regression (review C): YAML reads `swagger: 2.0` unquoted as the number 2, and the document was
 * refused as 'unsupported swagger version "2"'; `openapi: 3.0` unquoted (the number 3) as having
 * no "openapi" field at all. The number 2 can only mean Swagger 2.0 and is read so; an `openapi`
 * number cannot be read back (3.0 is 3, 3.10 is 3.1), so it is refused with a message saying to
 * quote it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSwagger2Document } from '../../src/shared/compare/swagger2-locations';
import { loadSchema } from '../../src/shared/openapi/load-document';

const withVersion = (line: string) => `${line}\ninfo: {title: versions, version: "1.0.0"}\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n`;

describe('regression: version fields written unquoted in YAML', () => {
  for (const line of ['swagger: 2.0', 'swagger: 2', "swagger: '2.0'"]) {
    it(`reads ${line} as Swagger 2.0`, async () => {
      const loaded = await loadSchema(withVersion(line));
      assert.equal(loaded.sourceFormat, 'swagger-2.0');
      assert.equal(loaded.openapiVersion, '3.0.0');
      assert.equal(loaded.endpointCount, 1);
    });
  }

  it('maps report locations back to an unquoted Swagger 2.0 text', () => {
    assert.equal(isSwagger2Document({ swagger: 2 }), true);
    assert.equal(isSwagger2Document({ swagger: '2.0' }), true);
    assert.equal(isSwagger2Document({ openapi: '3.0.3' }), false);
  });

  for (const [line, number] of [['openapi: 3.0', '3'], ['openapi: 3.1', '3.1'], ['openapi: 3.10', '3.1']] as const) {
    it(`refuses ${line}, saying to quote it`, async () => {
      await assert.rejects(loadSchema(withVersion(line)), {
        message: `Invalid schema: "openapi" is the number ${number}, not a version string: unquoted in YAML, openapi: 3.0 reads as 3 and 3.10 as 3.1; write the version in quotes (openapi: "3.0.3")`,
      });
    });
  }

  it('still refuses other swagger versions', async () => {
    await assert.rejects(loadSchema(withVersion('swagger: 1.2')), { message: 'Invalid schema: unsupported swagger version "1.2" (supported: 2.0, 3.0.x, 3.1.x)' });
  });
});
