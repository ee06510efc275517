/**
 * AJV errors → the engine's message family. AJV's own texts are switched off (`messages: false`);
 * every keyword gets one wording here, located by the JSON pointer of the failing value.
 */
import type { ErrorObject } from 'ajv';
import { unescapePointerToken } from '../json';
import { clip } from '../text';
import { located, quote, shortPointer } from './messages';
import { FORBIDDEN_KEYWORD } from './ajv-instance';
import type { ContractOptions } from './options';

/** How much of the data a message quotes: values and property names, and JSON pointers. */
export type QuoteLimits = Pick<ContractOptions, 'maxQuotedValueChars' | 'maxPointerChars'>;

const MAX_LISTED_VALUES = 10;

/**
 * The message for one AJV error, or undefined for errors that only repeat others
 * (`if` says "must match then", whose own errors are already listed).
 * `written` holds the texts the validated value was read from, in its shape (parameters and
 * headers): their messages quote the failing value as received; undefined quotes none (bodies).
 * Pointers and property names come from the data's own keys, so they are shortened like values
 * (`limits`).
 */
export function schemaErrorMessage(
  place: string,
  error: ErrorObject,
  written: unknown,
  limits: QuoteLimits,
): string | undefined {
  const { keyword, instancePath } = error;
  if (keyword === 'if') return undefined;
  if (keyword === FORBIDDEN_KEYWORD) {
    const slash = instancePath.lastIndexOf('/');
    const name = clip(unescapePointerToken(instancePath.slice(slash + 1)), limits.maxQuotedValueChars);
    const access = String(error.params.access);
    const text = access === 'unexpected' ? `unexpected property "${name}"` : `property "${name}" is ${access}`;
    return located(place, shortPointer(instancePath.slice(0, slash), limits.maxPointerChars), text);
  }
  const text = keywordText(error, limits.maxQuotedValueChars);
  const pointer = shortPointer(instancePath, limits.maxPointerChars);
  if (written !== undefined) {
    const value = valueAt(written, instancePath);
    if (value !== undefined) return located(place, pointer, `value ${quote(value, limits.maxQuotedValueChars)} ${text}`);
  }
  return located(place, pointer, text);
}

/** Keywords whose failure is worded whole: the errors of their subschema on each candidate say nothing. */
const WHOLE_FAILURE_KEYWORDS = new Set(['contains', 'propertyNames']);

/**
 * The errors worth wording. `contains` fails when no item matches its subschema, and AJV also lists
 * every item's mismatch ("/ct/0: must be integer") though no item had to match; `propertyNames`
 * lists the name's mismatch as the object's ("/pn: must have at most 3 characters"). Those errors
 * come right before the keyword's own, under its schema path: the transform wraps the subschema so
 * that it fails with one such error whatever it holds, a `$ref` too (failingAsAWhole in
 * schema-transform.ts).
 */
export function errorsToWord(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  if (!errors.some((error) => WHOLE_FAILURE_KEYWORDS.has(error.keyword))) return errors;
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (WHOLE_FAILURE_KEYWORDS.has(error.keyword)) {
      const inside = `${error.schemaPath}/`;
      while (kept.length > 0 && kept[kept.length - 1]!.schemaPath.startsWith(inside)) kept.pop();
    }
    kept.push(error);
  }
  return kept;
}

/** `maxChars`: for the property names it quotes from the data. */
function keywordText(error: ErrorObject, maxChars: number): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(p.type).split(',').join(' or ')}`;
    case 'required':
      return `property "${String(p.missingProperty)}" is required`;
    case 'additionalProperties':
      return `unexpected property "${clip(String(p.additionalProperty), maxChars)}"`;
    case 'unevaluatedProperties':
      return `unexpected property "${clip(String(p.unevaluatedProperty), maxChars)}"`;
    case 'enum':
      return `must be one of ${listValues(p.allowedValues as unknown[])}`;
    case 'const':
      return `must be equal to ${JSON.stringify(p.allowedValue)}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'minLength':
      return `must have at least ${String(p.limit)} character${plural(p.limit)}`;
    case 'maxLength':
      return `must have at most ${String(p.limit)} character${plural(p.limit)}`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${plural(p.limit)}`;
    case 'maxItems':
    case 'additionalItems':
    case 'unevaluatedItems':
    case 'items': // 2020-12 `items: false` after `prefixItems`
      return `must have at most ${String(p.limit)} item${plural(p.limit)}`;
    case 'minProperties':
      return `must have at least ${String(p.limit)} propert${p.limit === 1 ? 'y' : 'ies'}`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} propert${p.limit === 1 ? 'y' : 'ies'}`;
    case 'pattern':
      return `must match pattern ${JSON.stringify(p.pattern)}`;
    case 'format':
      return `must match format "${String(p.format)}"`;
    case 'uniqueItems':
      return `must not contain duplicate items (items ${String(p.j)} and ${String(p.i)} are identical)`;
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `must match exactly one schema in oneOf (matches ${p.passingSchemas.join(' and ')})`
        : 'must match exactly one schema in oneOf (matches none)';
    case 'anyOf':
      return 'must match at least one schema in anyOf';
    case 'not':
      return 'must not match the schema in "not"';
    case 'dependencies':
    case 'dependentRequired':
      return `property "${String(p.missingProperty)}" is required when property "${String(p.property)}" is present`;
    case 'propertyNames':
      return `property name ${quote(String(p.propertyName), maxChars)} is not valid`;
    case 'contains':
      return p.maxContains === undefined
        ? `must contain at least ${String(p.minContains)} matching item${plural(p.minContains)}`
        : `must contain between ${String(p.minContains)} and ${String(p.maxContains)} matching items`;
    case 'false schema':
      return 'is not allowed here';
    default:
      return `must satisfy "${error.keyword}"`;
  }
}

function listValues(values: unknown[]): string {
  const listed = values.slice(0, MAX_LISTED_VALUES).map((value) => JSON.stringify(value));
  if (values.length > MAX_LISTED_VALUES) listed.push(`… (${values.length} values)`);
  return listed.join(', ');
}

function plural(count: unknown): string {
  return count === 1 ? '' : 's';
}

/** The primitive at `pointer` inside `data`, as text; undefined for objects, arrays and missing values. */
function valueAt(data: unknown, pointer: string): string | undefined {
  let node = data;
  if (pointer !== '') {
    for (const raw of pointer.slice(1).split('/')) {
      if (typeof node !== 'object' || node === null) return undefined;
      const token = unescapePointerToken(raw);
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = (node as Record<string, unknown>)[token];
    }
  }
  if (typeof node === 'string') return node;
  if (typeof node === 'number' || typeof node === 'boolean' || node === null) return String(node);
  return undefined;
}
