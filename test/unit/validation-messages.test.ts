/**
 * The message catalogue: every shape the engine can produce is documented in docs/validation.md
 * ("Validation messages"), and the list of violations is capped and clipped as documented.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import type { CompiledContract } from '../../src/shared/validation';
import { validationMessages } from '../../src/shared/validation/messages';
import { schemaErrorMessage } from '../../src/shared/validation/schema-errors';
import { REPO_ROOT } from '../helpers/paths';
import { assertInvalid, fixtureContract, request } from '../helpers/validation-contracts';

const page = readFileSync(path.join(REPO_ROOT, 'docs/validation.md'), 'utf8');
const catalogue = page.slice(page.indexOf('### Validation messages'), page.indexOf('## The streaming RPC'));
const violationsSection = catalogue.slice(catalogue.indexOf('#### Schema violations'), catalogue.indexOf('#### When the list is full'));

/** Code spans with some literal text (a span that is only a placeholder would match anything). */
function codeSpans(markdown: string): string[] {
  return [...markdown.matchAll(/`([^`]+)`/g)]
    .map((match) => match[1]!)
    .filter((span) => span.replace(/<[^>]+>|\[[^\]]*\]/g, '').trim().length >= 3);
}

/** `<placeholder>` matches any text; `[optional part]` may be absent. */
function shapeToRegExp(shape: string): RegExp {
  const escaped = shape.replace(/[.*+?^${}()|\\]/g, '\\$&');
  const withOptional = escaped.replace(/\[([^\]]*)\]/g, '(?:$1)?');
  return new RegExp(`^${withOptional.replace(/<[^>]+>/g, '.+?')}$`);
}

function documented(message: string, shapes: readonly string[]): boolean {
  return shapes.some((shape) => shapeToRegExp(shape).test(message));
}

/** One sample per message builder; the test fails when a builder is added without a sample (and a shape). */
const BUILDER_SAMPLES: Record<keyof typeof validationMessages, string> = {
  invalidMethod: validationMessages.invalidMethod('FETCH', 120),
  pathNotAbsolute: validationMessages.pathNotAbsolute('pets', 120),
  pathTooLong: validationMessages.pathTooLong(9000, 8192),
  invalidStatusCode: validationMessages.invalidStatusCode(0),
  pathNotFound: validationMessages.pathNotFound('/nothing', 120),
  methodNotDefined: validationMessages.methodNotDefined('PATCH', '/pets/{id}', ['DELETE', 'GET']),
  selectorNotMatched: validationMessages.selectorNotMatched('GET', '/', ['/#Action=DescribeStacks', '/#Action=DeleteStack'], 120),
  schemaNotCompiled: validationMessages.schemaNotCompiled('request body', 'POST /pets', 'it reaches more than 10 schema objects (maxCompileSchemaNodes)'),
  parameterRequired: validationMessages.parameterRequired('parameter "q" in query'),
  notAValid: validationMessages.notAValid('parameter "limit" in query', 'abc', 'integer', 120),
  notValidJson: validationMessages.notValidJson('parameter "where" in query', '{x', 120),
  valueTooDeep: validationMessages.valueTooDeep('request body field "tree"', 256),
  bodyRequired: validationMessages.bodyRequired('request'),
  bodyTooLarge: validationMessages.bodyTooLarge('request', 50 * 1024 * 1024, 10 * 1024 * 1024),
  bodyTooDeep: validationMessages.bodyTooDeep('response', 256),
  bodyNotForm: validationMessages.bodyNotForm('request', 'multipart/form-data', 'the content type names no boundary'),
  bodyNotJson: validationMessages.bodyNotJson('request', 'Unexpected end of JSON input'),
  contentTypeMissing: validationMessages.contentTypeMissing('request', 'multipart/form-data'),
  contentTypeNotAllowed: validationMessages.contentTypeNotAllowed('response', 'text/html', 'application/json', 120),
  schemaRecursion: validationMessages.schemaRecursion('request body'),
  statusNotDefined: validationMessages.statusNotDefined(418, 'GET /pets/{id}'),
  notListed: validationMessages.notListed(7, 'maxErrorBytes = 64 KiB'),
};

const KEYWORD_ERRORS: Array<Pick<ErrorObject, 'keyword' | 'params'>> = [
  { keyword: 'type', params: { type: 'string,null' } },
  { keyword: 'required', params: { missingProperty: 'email' } },
  { keyword: 'additionalProperties', params: { additionalProperty: 'foo' } },
  { keyword: 'unevaluatedProperties', params: { unevaluatedProperty: 'foo' } },
  { keyword: 'x-svc-forbidden', params: { access: 'read-only' } },
  { keyword: 'x-svc-forbidden', params: { access: 'write-only' } },
  { keyword: 'x-svc-forbidden', params: { access: 'unexpected' } },
  { keyword: 'enum', params: { allowedValues: ['a', 'b', null] } },
  { keyword: 'const', params: { allowedValue: 'order' } },
  { keyword: 'minimum', params: { comparison: '>=', limit: 0 } },
  { keyword: 'exclusiveMaximum', params: { comparison: '<', limit: 100 } },
  { keyword: 'multipleOf', params: { multipleOf: 5 } },
  { keyword: 'minLength', params: { limit: 2 } },
  { keyword: 'maxLength', params: { limit: 1 } },
  { keyword: 'minItems', params: { limit: 1 } },
  { keyword: 'maxItems', params: { limit: 3 } },
  { keyword: 'items', params: { limit: 2 } },
  { keyword: 'additionalItems', params: { limit: 2 } },
  { keyword: 'unevaluatedItems', params: { len: 2 } },
  { keyword: 'minProperties', params: { limit: 1 } },
  { keyword: 'maxProperties', params: { limit: 4 } },
  { keyword: 'pattern', params: { pattern: '^[a-z]+$' } },
  { keyword: 'format', params: { format: 'uuid' } },
  { keyword: 'uniqueItems', params: { i: 4, j: 1 } },
  { keyword: 'oneOf', params: { passingSchemas: null } },
  { keyword: 'oneOf', params: { passingSchemas: [0, 1] } },
  { keyword: 'anyOf', params: {} },
  { keyword: 'not', params: {} },
  { keyword: 'dependentRequired', params: { property: 'discount', missingProperty: 'reason' } },
  { keyword: 'propertyNames', params: { propertyName: 'Bad Name' } },
  { keyword: 'contains', params: { minContains: 1 } },
  { keyword: 'contains', params: { minContains: 1, maxContains: 3 } },
  { keyword: 'false schema', params: {} },
  { keyword: 'somethingNew', params: {} },
];

describe('message catalogue (docs/validation.md)', () => {
  const shapes = codeSpans(catalogue);
  const violations = codeSpans(violationsSection);

  for (const [builder, sample] of Object.entries(BUILDER_SAMPLES)) {
    it(`documents the shape of ${builder}: ${sample}`, () => {
      assert.ok(documented(sample, shapes), `no shape in docs/validation.md matches: ${sample}`);
    });
  }

  it('documents the wording of every schema keyword', () => {
    for (const error of KEYWORD_ERRORS) {
      const message = schemaErrorMessage('response body', { ...error, instancePath: '/user/name', schemaPath: '#' }, undefined, { maxQuotedValueChars: 120, maxPointerChars: 200 });
      assert.ok(message !== undefined && documented(message, shapes), `not documented: ${message}`);
      const violation = message.slice(message.indexOf(': ') + 2);
      assert.ok(documented(violation, violations), `violation not in the table: ${violation}`);
    }
  });

  it('does not match messages it does not document', () => {
    assert.equal(documented('request body exploded', shapes), false);
    assert.equal(documented('should be purple', violations), false);
  });

  it('documents the cap summary and the spec shapes verbatim', () => {
    assert.ok(documented('… and at least 3 more violations not listed (limit maxErrors = 3)', shapes));
    assert.ok(documented('parameter "limit" in query: value "abc" is not a valid integer', shapes));
    assert.ok(catalogue.includes('`response body: property "<name>" is required`'));
  });
});

describe('violation lists', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json', { maxErrors: 3 });
  });

  it('keeps at most maxErrors entries, the last one counting what was left out', () => {
    const body = { items: [{ price: -1 }, { price: -2 }], customer: {} };
    assertInvalid(
      contract.validateInteraction({ request: request('POST', '/orders', { body }) }),
      'request_invalid',
      'request body /items/0: property "sku" is required',
      'request body /items/0/price: must be >= 0',
      '… and at least 3 more violations not listed (limit maxErrors = 3)',
    );
  });

  it('clips long values in messages', () => {
    const code = 'A'.repeat(500);
    const outcome = contract.validateInteraction({
      request: request('GET', `/pets?code=${code}`, { headers: { 'X-Request-Id': '6f1c0c5e-8a4b-4a8e-9a3e-1f2d3c4b5a69' } }),
    });
    assertInvalid(outcome, 'request_invalid', `parameter "code" in query: value "${'A'.repeat(120)}…" must match pattern "^[A-Z]{3}$"`);
  });

  it('escapes quotes and control characters in quoted values', () => {
    const outcome = contract.validateInteraction({ request: request('GET', '/pets/%22%0A') });
    assertInvalid(outcome, 'request_invalid', 'parameter "petId" in path: value "\\"\\n" is not a valid integer');
  });
});
