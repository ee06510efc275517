/**
 * The AJV instance of one compiled contract: draft-07 for OpenAPI 3.0 (whose schema objects
 * `schema-transform.ts` rewrites into plain JSON Schema), 2020-12 for OpenAPI 3.1. Patterns run
 * through RE2; formats are ajv-formats plus OpenAPI's own; three keywords of ours keep hostile
 * bodies from costing more than their size (see below), and `multipleOf` is ours too.
 */
import Ajv, { _, str, type KeywordCxt, type Options, type SchemaValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import N from 'ajv/dist/compile/names';
import { FORMAT_CHECKS } from './format-checks';
import { ajvRegExp } from '../regex';
import { firstDuplicate } from './unique-items';

export type SchemaDialect = '3.0' | '3.1';
export type AjvInstance = Ajv | Ajv2020;

/**
 * A property that must not appear: readOnly in requests, writeOnly in responses, or any property
 * `additionalProperties: false` does not allow. Its value names why (`read-only`, `write-only`,
 * `unexpected`).
 */
export const FORBIDDEN_KEYWORD = 'x-svc-forbidden';

/**
 * Wraps the schema applied to each element of a loop (`items`, `additionalProperties`...). With
 * `allErrors`, AJV records every failing element: a 10 MiB array of wrong items made 5 million
 * error objects (5.6 s, 850 MB), and errors of `$ref`'d item schemas are joined with `concat`, so
 * the cost is quadratic. The wrapper leaves the loop at the first failing element once the
 * function holds more errors than listed; the element failed, so the verdict stays the same.
 */
export const ERROR_CAP_KEYWORD = 'x-svc-error-cap';

/**
 * `uniqueItems` with hashing. AJV compares object items (and items whose type it cannot see
 * through a `$ref`) pairwise: 20,000 small objects took 30 s.
 */
export const UNIQUE_ITEMS_KEYWORD = 'x-svc-unique-items';

/**
 * `multipleOf` holds when value / multipleOf is an integer (JSON Schema Validation §6.2.1). AJV tests
 * the double quotient for an exact integer, and 0.3 / 0.1 is 2.9999999999999996: a price of 19.99 was
 * "not a multiple of 0.01". The quotient's rounding error is at most a few units of 2^-52 relative to
 * its size (each operand's and the division's half unit); a tolerance of 1e-15 of the quotient takes
 * it in and nothing more: 1e-12 of it let 1000000000001 pass as a multiple of 2, and a floor of 1e-12
 * let 1e-13 pass as a multiple of 1. AJV's own `multipleOfPrecision` is absolute, so it would refuse
 * 1234567.89 in steps of 0.01 (off by 1.5e-8).
 */
const MULTIPLE_OF_TOLERANCE = 1e-15;

/** The test the `multipleOf` keyword below compiles, for code that checks values without AJV (the fixture generator). */
export function isMultipleOf(value: number, step: number): boolean {
  if (step <= 0) return false;
  const quotient = value / step;
  return !(Math.abs(Math.round(quotient) - quotient) > MULTIPLE_OF_TOLERANCE * Math.abs(quotient));
}

const AJV_OPTIONS: Options = {
  strict: false,
  allErrors: true,
  // Documents are checked at registration; the meta-schema pass would only cost time here.
  validateSchema: false,
  addUsedSchema: false,
  // Messages are worded by schema-errors.ts.
  messages: false,
  // `required: ["toString"]` must not be met by Object.prototype.
  ownProperties: true,
  logger: false,
  code: { regExp: ajvRegExp, optimize: false },
  inlineRefs: false,
};

/** `maxErrors`: errors a validation function may hold before loops stop at their next failing element. */
export function createAjv(dialect: SchemaDialect, maxErrors: number): AjvInstance {
  const ajv = dialect === '3.1' ? new Ajv2020(AJV_OPTIONS) : new Ajv(AJV_OPTIONS);
  for (const [name, check] of FORMAT_CHECKS) {
    ajv.addFormat(name, check.type === 'number' ? { type: 'number', validate: check.validate } : { type: 'string', validate: check.validate });
  }
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({
    keyword: 'multipleOf',
    type: 'number',
    schemaType: 'number',
    error: { message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`, params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}` },
    code(cxt) {
      const { gen, data, schema, schemaCode } = cxt;
      // A step that is not positive holds for no value (the keyword requires one above 0).
      if ((schema as number) <= 0) {
        cxt.fail();
        return;
      }
      const quotient = gen.let('quotient');
      cxt.fail(_`(${quotient} = ${data} / ${schemaCode}, Math.abs(Math.round(${quotient}) - ${quotient}) > ${MULTIPLE_OF_TOLERANCE} * Math.abs(${quotient}))`);
    },
  });
  ajv.addKeyword({
    keyword: FORBIDDEN_KEYWORD,
    schemaType: 'string',
    error: { message: 'must not be present', params: ({ schema }) => _`{access: ${schema as string}}` },
    code(cxt) {
      cxt.fail();
    },
  });
  ajv.addKeyword({
    keyword: ERROR_CAP_KEYWORD,
    schemaType: ['object', 'boolean'],
    code(cxt: KeywordCxt) {
      const valid = cxt.gen.name('valid');
      const element = cxt.subschema({ keyword: ERROR_CAP_KEYWORD }, valid);
      cxt.mergeEvaluated(element);
      cxt.gen.if(_`!${valid} && ${N.errors} > ${maxErrors}`, () => cxt.gen.break());
    },
  });
  const uniqueItems: SchemaValidateFunction = (enabled: boolean, data: unknown[]) => {
    if (!enabled) return true;
    const duplicate = firstDuplicate(data);
    if (duplicate === undefined) return true;
    uniqueItems.errors = [{ keyword: 'uniqueItems', params: { i: duplicate[1], j: duplicate[0] } }];
    return false;
  };
  ajv.addKeyword({ keyword: UNIQUE_ITEMS_KEYWORD, type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
  return ajv;
}

/** Whether `format` is known to the instance; unknown formats are dropped (OpenAPI formats are open-ended). */
export function hasFormat(ajv: AjvInstance, format: string): boolean {
  return Object.prototype.hasOwnProperty.call(ajv.formats, format);
}
