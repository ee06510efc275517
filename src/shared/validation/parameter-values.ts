/**
 * Parameter and header text → typed values, by location, `style` and `explode` (OpenAPI
 * "Style Values"), then schema validation. A text that cannot become the declared type is reported
 * in the spec's shape: `parameter "<name>" in <location>: value "<value>" is not a valid <type>`.
 */
import { setOwn } from '../json';
import type { CallContext } from './call-context';
import { addError } from './error-report';
import { outsideDoubleRange } from './double-range';
import { JsonRefusal, parseGuardedJson } from './json-body';
import { validationMessages } from './messages';
import { arraySeparator, pathArraySeparator, queryArraySeparator } from '../openapi/parameter-style';
import type { ParameterPlan } from './operation-plan';
import { decodeComponent, decodePercent, type QueryValues } from './query-string';
import { runSlot } from './schema-slot';
import type { ErrorCategory } from './types';
import { NOT_COERCIBLE, OUTSIDE_DOUBLE_RANGE, coerceAlternatives, coerceScalar, type ValueShape } from './value-shape';

/** The parameter is not in the message. */
export const ABSENT: unique symbol = Symbol('absent');
/** The text was wrong and a violation is reported already. */
const REJECTED: unique symbol = Symbol('rejected');
/** An empty value the document allows (`allowEmptyValue`): nothing to validate. */
const EMPTY_ALLOWED: unique symbol = Symbol('empty allowed');

/**
 * A parameter's value as read, with the texts it was read from in the same shape (an item's,
 * a property's): messages quote the text as received (`value "0011"`), not the number it became.
 */
interface ReadValue {
  readonly value: unknown;
  readonly written: unknown;
}

/** What reading a parameter gives: its value, or why there is none to validate. */
export type ParameterRead = ReadValue | typeof ABSENT | typeof REJECTED | typeof EMPTY_ALLOWED;

function read(value: unknown, written: unknown): ReadValue | typeof REJECTED {
  return value === REJECTED ? REJECTED : { value, written };
}

/** The text behind a value, for messages; an object or array read from JSON text stands for itself (messages quote primitives). */
function writtenAs(value: unknown, text: string): unknown {
  return typeof value === 'object' && value !== null ? value : text;
}

/** Reports a missing required parameter, or validates the value against the parameter's schema. */
export function checkParameterValue(parameter: ParameterPlan, found: ParameterRead, category: ErrorCategory, call: CallContext): void {
  if (found === ABSENT) {
    if (parameter.required) addError(call.report, category, validationMessages.parameterRequired(parameter.place));
    return;
  }
  if (found === REJECTED || found === EMPTY_ALLOWED || parameter.schema === undefined) return;
  runSlot(parameter.schema, found.value, parameter.place, category, found.written, call);
}

/** Simple (`1,2`), label (`.1.2`) and matrix (`;id=1,2`) path styles. */
export function pathParameterValue(parameter: ParameterPlan, raw: string | undefined, category: ErrorCategory, call: CallContext): ParameterRead {
  if (raw === undefined) return ABSENT;
  if (parameter.style === 'label' && raw.startsWith('.')) {
    return fromText(parameter, raw.slice(1), parameter.explode ? '.' : ',', category, call);
  }
  if (parameter.style === 'matrix' && raw.startsWith(';')) {
    const prefix = `${parameter.name}=`;
    const pieces = raw.slice(1).split(';');
    if (parameter.explode && parameter.shape.kind === 'array') {
      const items = pieces.filter((piece) => piece.startsWith(prefix)).map((piece) => piece.slice(prefix.length));
      return coerceItems(parameter, items, parameter.shape.items, category, call);
    }
    if (parameter.explode && parameter.shape.kind === 'object') return fromPairs(parameter, pieces, '=', category, call);
    const first = pieces[0]!;
    return fromText(parameter, first.startsWith(prefix) ? first.slice(prefix.length) : first, ',', category, call);
  }
  return fromText(parameter, raw, pathArraySeparator(parameter.style), category, call);
}

/**
 * Form (exploded or not), spaceDelimited, pipeDelimited, tab-delimited and deepObject query styles. `declared`
 * are the operation's query parameters: an exploded free-form object takes the other names.
 */
export function queryParameterValue(
  parameter: ParameterPlan,
  query: QueryValues,
  category: ErrorCategory,
  call: CallContext,
  declared: readonly ParameterPlan[],
): ParameterRead {
  const { shape } = parameter;
  if (shape.kind === 'object' && !parameter.json && (parameter.style === 'deepObject' || parameter.explode)) {
    return queryObject(parameter, shape, query, category, call, declared);
  }
  const values = query.get(parameter.name);
  if (values === undefined) return ABSENT;
  if (shape.kind === 'array' && !parameter.json) {
    if (values[0] === '' && values.length === 1 && parameter.allowEmptyValue) return EMPTY_ALLOWED;
    // An exploded pipeDelimited or spaceDelimited array has no serialization of its own in OpenAPI
    // (n/a in its style examples), and clients write it either way: repeated names are its items, as
    // in an exploded form array (how fixtures write it), and one value is split on the separator.
    const repeated = parameter.explode && (parameter.style === 'form' || values.length > 1);
    const items = repeated ? values : values[0]!.split(queryArraySeparator(parameter.style));
    return coerceItems(parameter, items, shape.items, category, call);
  }
  return fromText(parameter, values[0]!, ',', category, call);
}

/** Headers (request parameters and response headers) use the simple style (commas), or a Swagger 2.0 collectionFormat kept (tabs, pipes, spaces). */
export function headerParameterValue(parameter: ParameterPlan, raw: string | undefined, category: ErrorCategory, call: CallContext): ParameterRead {
  if (raw === undefined) return ABSENT;
  return fromText(parameter, raw.trim(), arraySeparator(parameter.style), category, call);
}

/**
 * `a=1; b="2"` → values by name (Map: no prototype keys), without RFC 6265's optional quotes. Values
 * stay percent-encoded here: their pieces are decoded after splitting (`pieceText`).
 */
export function parseCookieHeader(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === undefined) return cookies;
  for (const piece of header.split(';')) {
    const equals = piece.indexOf('=');
    if (equals <= 0) continue;
    const name = piece.slice(0, equals).trim();
    if (cookies.has(name)) continue;
    const value = piece.slice(equals + 1).trim();
    cookies.set(name, value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
  }
  return cookies;
}

export function cookieParameterValue(parameter: ParameterPlan, cookies: Map<string, string>, category: ErrorCategory, call: CallContext): ParameterRead {
  const raw = cookies.get(parameter.name);
  return raw === undefined ? ABSENT : fromText(parameter, raw, ',', category, call);
}

/** One text carrying the whole value; arrays and objects are split on `separator`. */
function fromText(parameter: ParameterPlan, text: string, separator: string | RegExp, category: ErrorCategory, call: CallContext): ParameterRead {
  if (text === '' && parameter.allowEmptyValue) return EMPTY_ALLOWED;
  if (parameter.json) {
    const value = fromJson(parameter, pieceText(parameter, text), category, call);
    return read(value, value);
  }
  const { shape } = parameter;
  if (shape.kind === 'array') return coerceItems(parameter, text === '' ? [] : text.split(separator), shape.items, category, call);
  if (shape.kind === 'object') {
    const pieces = text === '' ? [] : text.split(separator);
    return parameter.explode ? fromPairs(parameter, pieces, '=', category, call) : fromAlternating(parameter, pieces, category, call);
  }
  const piece = pieceText(parameter, text);
  const value = coerce(parameter, piece, shape, category, call);
  return read(value, writtenAs(value, piece));
}

/**
 * A piece of a parameter's text (the whole text, an item, a key or a value) as the text of its value.
 * Header items lose their surrounding spaces. Path, query and cookie pieces are decoded after
 * splitting, as RFC 6570 writes them (each piece encoded, so that a comma of its own stays in it);
 * queries are form-encoded (`+` for a space), paths and cookies percent-encoded alone.
 */
function pieceText(parameter: ParameterPlan, piece: string): string {
  switch (parameter.location) {
    case 'header': return piece.trim();
    case 'query': return decodeComponent(piece);
    case 'path':
    case 'cookie': return decodePercent(piece);
  }
}

function fromJson(parameter: ParameterPlan, text: string, category: ErrorCategory, call: CallContext): unknown {
  const value = parsedJson(parameter, text, call);
  if (!(value instanceof JsonRefusal)) return value;
  addError(
    call.report,
    category,
    value.reason === 'too-deep'
      ? validationMessages.valueTooDeep(parameter.place, call.options.maxBodyDepth)
      : validationMessages.notValidJson(parameter.place, text, call.options.maxQuotedValueChars),
  );
  return REJECTED;
}

function coerce(parameter: ParameterPlan, text: string, shape: ValueShape, category: ErrorCategory, call: CallContext): unknown {
  if (shape.kind === 'array' || shape.kind === 'object') return nestedValue(parameter, text, shape.kind, call);
  const value = shape.alternatives !== undefined
    ? coerceAlternatives(text, shape.alternatives, (json) => readJson(parameter, json, call))
    : coerceScalar(text, shape.kind);
  if (value === OUTSIDE_DOUBLE_RANGE) throw outsideDoubleRange(parameter.place, text);
  if (value !== NOT_COERCIBLE) return value;
  addError(call.report, category, validationMessages.notAValid(parameter.place, text, shape.kind, call.options.maxQuotedValueChars));
  return REJECTED;
}

/**
 * An array or object inside a parameter (AWS query APIs send arrays of objects): OpenAPI leaves
 * their serialization undefined. JSON text of that kind is read as JSON, as form fields are (and
 * as fixtures write them); anything else stays text, and the schema says what is wrong.
 */
function nestedValue(parameter: ParameterPlan, text: string, kind: 'array' | 'object', call: CallContext): unknown {
  if (!text.startsWith(kind === 'array' ? '[' : '{')) return text;
  return readJson(parameter, text, call) ?? text;
}

/** The JSON value of a text behind the body guards; undefined when it is not JSON. */
function readJson(parameter: ParameterPlan, text: string, call: CallContext): unknown {
  const value = parsedJson(parameter, text, call);
  return value instanceof JsonRefusal ? undefined : value;
}

/**
 * A parameter's JSON text behind the body guards, or why not. A number no double holds fails the
 * call (double-range.ts): it is JSON, but not one this engine can check.
 */
function parsedJson(parameter: ParameterPlan, text: string, call: CallContext): unknown {
  const value = parseGuardedJson(text, call.options);
  if (value instanceof JsonRefusal && value.reason === 'outside-double-range') throw outsideDoubleRange(parameter.place, value.detail);
  return value;
}

function coerceItems(parameter: ParameterPlan, items: readonly string[], shape: ValueShape, category: ErrorCategory, call: CallContext): ReadValue | typeof REJECTED {
  const values: unknown[] = [];
  const texts: unknown[] = [];
  let rejected = false;
  for (const item of items) {
    const text = pieceText(parameter, item);
    const value = coerce(parameter, text, shape, category, call);
    if (value === REJECTED) rejected = true;
    values.push(value);
    texts.push(writtenAs(value, text));
  }
  return rejected ? REJECTED : { value: values, written: texts };
}

/** `role=admin,name=Alex` (exploded simple and matrix styles). */
function fromPairs(parameter: ParameterPlan, pieces: readonly string[], separator: string, category: ErrorCategory, call: CallContext): ReadValue | typeof REJECTED {
  const entries: Array<[string, string]> = [];
  for (const piece of pieces) {
    const at = piece.indexOf(separator);
    if (at > 0) entries.push([pieceText(parameter, piece.slice(0, at)), pieceText(parameter, piece.slice(at + 1))]);
  }
  return toObject(parameter, entries, category, call);
}

/** `role,admin,name,Alex` (form and simple styles, not exploded). */
function fromAlternating(parameter: ParameterPlan, pieces: readonly string[], category: ErrorCategory, call: CallContext): ReadValue | typeof REJECTED {
  const entries: Array<[string, string]> = [];
  for (let i = 0; i + 1 < pieces.length; i += 2) entries.push([pieceText(parameter, pieces[i]!), pieceText(parameter, pieces[i + 1]!)]);
  return toObject(parameter, entries, category, call);
}

/**
 * Exploded form objects take one query name per property; one that declares no properties (a
 * map: `additionalProperties` only, as AWS's `Attributes`) takes every query name no other
 * parameter of the operation declares. deepObject uses `name[property]`.
 */
function queryObject(
  parameter: ParameterPlan,
  shape: Extract<ValueShape, { kind: 'object' }>,
  query: QueryValues,
  category: ErrorCategory,
  call: CallContext,
  declared: readonly ParameterPlan[],
): ParameterRead {
  const entries: Array<[string, string]> = [];
  if (parameter.style === 'deepObject') {
    const prefix = `${parameter.name}[`;
    for (const [name, values] of query) {
      if (name.startsWith(prefix) && name.endsWith(']')) entries.push([name.slice(prefix.length, -1), decodeComponent(values[0]!)]);
    }
  } else if (shape.properties.size === 0) {
    for (const [name, values] of query) {
      if (!declared.some((other) => other.name === name)) entries.push([name, decodeComponent(values[0]!)]);
    }
  } else {
    for (const property of shape.properties.keys()) {
      const values = query.get(property);
      if (values !== undefined) entries.push([property, decodeComponent(values[0]!)]);
    }
  }
  return entries.length === 0 ? ABSENT : toObject(parameter, entries, category, call);
}

function toObject(parameter: ParameterPlan, entries: ReadonlyArray<[string, string]>, category: ErrorCategory, call: CallContext): ReadValue | typeof REJECTED {
  const shape = parameter.shape as Extract<ValueShape, { kind: 'object' }>;
  const object: Record<string, unknown> = {};
  const texts: Record<string, unknown> = {};
  let rejected = false;
  for (const [name, text] of entries) {
    const value = coerce(parameter, text, shape.properties.get(name) ?? shape.additional, category, call);
    if (value === REJECTED) rejected = true;
    setOwn(object, name, value);
    setOwn(texts, name, writtenAs(value, text));
  }
  return rejected ? REJECTED : { value: object, written: texts };
}
