/**
 * Regression (review C): a `$ref` inside example data or a vendor extension was taken for a
 * reference, and the document refused: an API that returns JSON Schemas (`example: {$ref: …}`),
 * and Azure's descriptions, nearly every operation of which has
 * `x-ms-examples: {<name>: {$ref: ./examples/<name>.json}}`. Data is text now (one reading of
 * it: openapi/document-walk.ts), while Example Objects that are references, and references under
 * names that look like data keys, are still checked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';

function document(operation: object, extra: object = {}, openapi = '3.0.3'): string {
  return JSON.stringify({ openapi, info: { title: 'data', version: '1.0.0' }, paths: { '/x': { get: operation } }, ...extra });
}

const responding = (media: object) => ({ responses: { 200: { description: 'ok', content: { 'application/json': media } } } });

async function refusal(text: string): Promise<string> {
  try {
    await loadSchema(text);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('the document registered');
}

describe('regression: $ref inside data', () => {
  const external = { $ref: 'http://example.com/other.json#/definitions/x' };
  const dangling = { $ref: '#/definitions/Thing' };
  const registered: Array<[string, string]> = [
    ['a schema\'s example', document(responding({ schema: { type: 'object', example: dangling } }))],
    ['a media type\'s example', document(responding({ schema: { type: 'object' }, example: external }))],
    ['a default', document(responding({ schema: { type: 'object', default: external } }))],
    ['an enum value', document(responding({ schema: { type: 'object', enum: [dangling] } }))],
    ['a 3.1 const and examples', document(responding({ schema: { type: 'object', const: external, examples: [dangling] } }), {}, '3.1.0')],
    ['an Example Object\'s value', document(responding({ schema: { type: 'object' }, examples: { one: { value: external } } }))],
    ['a component Example\'s value', document(
      responding({ schema: { type: 'object' }, examples: { one: { $ref: '#/components/examples/One' } } }),
      { components: { examples: { One: { summary: 'one', value: dangling } } } },
    )],
    ['an operation\'s x-ms-examples', document({ 'x-ms-examples': { 'List things': { $ref: './examples/ListThings.json' } }, responses: { 200: { description: 'ok' } } })],
    ['a Swagger 2.0 response\'s examples and x-ms-examples', JSON.stringify({
      swagger: '2.0', info: { title: 'data', version: '1.0.0' },
      paths: { '/x': { get: {
        'x-ms-examples': { 'List things': { $ref: './examples/ListThings.json' } },
        responses: { 200: { description: 'ok', schema: { type: 'object', example: dangling }, examples: { 'application/json': external } } },
      } } },
    })],
  ];
  for (const [where, text] of registered) {
    it(`registers a $ref in ${where}`, async () => {
      const loaded = await loadSchema(text);
      assert.equal(loaded.endpointCount, 1);
      assert.deepEqual(loaded.warnings, []);
    });
  }

  it('an $id inside an example is text: it names no schema resource', async () => {
    const text = document(responding({
      schema: { $ref: 'https://example.com/thing' },
      example: { $id: 'https://example.com/thing', type: 'string' },
    }), {}, '3.1.0');
    assert.match(await refusal(text), /^Invalid schema: external \$ref "https:\/\/example.com\/thing" at \/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema is not allowed/);
  });

  it('still checks Example Objects that are references', async () => {
    const examples = (ref: string) => document(responding({ schema: { type: 'object' }, examples: { one: { $ref: ref } } }), {
      components: { examples: { One: { value: {} } } },
    });
    assert.equal((await loadSchema(examples('#/components/examples/One'))).endpointCount, 1);
    assert.match(await refusal(examples('#/components/examples/Two')), /^Invalid schema: \$ref "#\/components\/examples\/Two" at \/paths\/~1x\/get\/responses\/200\/content\/application~1json\/examples\/one does not resolve/);
    assert.match(await refusal(examples('./examples/one.json')), /^Invalid schema: external \$ref "\.\/examples\/one\.json" at \/paths\/~1x\/get\/responses\/200\/content\/application~1json\/examples\/one is not allowed/);
  });

  it('checks what a $ref names inside data as it checks the rest: x-… sections, examples', async () => {
    // These registered, and every call then failed: "$ref \"https://…\" is not a local reference".
    const ok = (schema: object) => responding({ schema });
    const shared = document(ok({ $ref: '#/x-shared/Thing' }), { 'x-shared': { Thing: { type: 'object', properties: { a: external } } } });
    assert.match(await refusal(shared), /^Invalid schema: external \$ref "http:\/\/example\.com\/other\.json#\/definitions\/x" at \/x-shared\/Thing\/properties\/a is not allowed/);
    const dangles = document(ok({ $ref: '#/x-shared/Thing' }), { 'x-shared': { Thing: { type: 'object', properties: { a: dangling } } } });
    assert.match(await refusal(dangles), /^Invalid schema: \$ref "#\/definitions\/Thing" at \/x-shared\/Thing\/properties\/a does not resolve/);
    const intoExample = document(ok({ $ref: '#/components/schemas/S/example' }), { components: { schemas: { S: { type: 'object', example: { properties: { a: external } } } } } });
    assert.match(await refusal(intoExample), /^Invalid schema: external \$ref .* at \/components\/schemas\/S\/example\/properties\/a is not allowed/);
    // A reference into an extension that holds a sound schema registers, and validates by it.
    const sound = document(ok({ $ref: '#/x-shared/Thing' }), { 'x-shared': { Thing: { type: 'object', required: ['a'] } } });
    assert.equal((await loadSchema(sound)).endpointCount, 1);
  });

  it('still checks references under names that look like data keys', async () => {
    const property = document(responding({ schema: { type: 'object', properties: { example: dangling, default: { type: 'string' } } } }));
    assert.match(await refusal(property), /^Invalid schema: \$ref "#\/definitions\/Thing" at \/paths\/~1x\/get\/responses\/200\/content\/application~1json\/schema\/properties\/example does not resolve/);
    const defaultResponse = document({ responses: { default: { $ref: 'other.yaml#/responses/Error' } } });
    assert.match(await refusal(defaultResponse), /^Invalid schema: external \$ref "other\.yaml#\/responses\/Error" at \/paths\/~1x\/get\/responses\/default is not allowed/);
    // Security schemes, server variables and the like are named by their authors too.
    const scheme = document({ responses: { 204: { description: 'none' } } }, { components: { securitySchemes: { default: external } } });
    assert.match(await refusal(scheme), /^Invalid schema: external \$ref "http:\/\/example\.com\/other\.json#\/definitions\/x" at \/components\/securitySchemes\/default is not allowed/);
    const swaggerScheme = JSON.stringify({ swagger: '2.0', info: { title: 'data', version: '1.0.0' }, paths: {}, securityDefinitions: { enum: dangling } });
    // Checked after the conversion to 3.0, where the scheme is a security scheme of the components.
    assert.match(await refusal(swaggerScheme), /^Invalid schema: \$ref "#\/components\/schemas\/Thing" at \/components\/securitySchemes\/enum does not resolve/);
  });
});
