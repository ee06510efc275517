/**
 * Parameters and headers arrive as text. To validate `?limit=10` against `type: integer` the text
 * must become a number first; the shape says what each text should become. It is read from the
 * schema (through `$ref`s, without compiling anything) once per operation.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';
import { leavesDoubleRange } from './double-range';

export type ScalarKind = 'integer' | 'number' | 'boolean' | 'string' | 'null' | 'any';

export type ValueShape =
  | {
      kind: ScalarKind;
      /**
       * For `any`: the shapes of a union whose members differ in type (`anyOf: [integer, string]`,
       * an `enum` of booleans and numbers); the text becomes the first one that reads it.
       */
      alternatives?: readonly ValueShape[];
    }
  | { kind: 'array'; items: ValueShape }
  | { kind: 'object'; properties: ReadonlyMap<string, ValueShape>; additional: ValueShape };

/** Returned by coerceScalar when the text is not of the kind. */
export const NOT_COERCIBLE: unique symbol = Symbol('not coercible');
/** Returned by coerceScalar for a number a double cannot hold (see double-range.ts). */
export const OUTSIDE_DOUBLE_RANGE: unique symbol = Symbol('outside double range');

const ANY: ValueShape = Object.freeze({ kind: 'any' });
const MAX_SHAPE_DEPTH = 8;
const INTEGER_TEXT = /^[-+]?\d+$/;
const NUMBER_TEXT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function shapeOf(document: JsonValue, schema: JsonValue | undefined, depth = 0): ValueShape {
  const node = followSchemaRefs(document, schema);
  if (node === undefined || depth > MAX_SHAPE_DEPTH) return ANY;
  const kind = declaredKind(document, node);
  if (kind === undefined) return unionShape(document, node, depth);
  if (kind === 'array') return { kind: 'array', items: shapeOf(document, node.items, depth + 1) };
  if (kind === 'object') {
    const properties = new Map<string, ValueShape>();
    let additional: ValueShape = ANY;
    // `allOf` members describe the same object: their properties are its properties.
    const collect = (member: JsonObject, level: number): void => {
      if (isJsonObject(member.properties)) {
        for (const [name, property] of Object.entries(member.properties)) {
          if (!properties.has(name)) properties.set(name, shapeOf(document, property, depth + 1));
        }
      }
      if (additional === ANY && isJsonObject(member.additionalProperties)) additional = shapeOf(document, member.additionalProperties, depth + 1);
      if (!Array.isArray(member.allOf) || level >= MAX_SHAPE_DEPTH) return;
      for (const part of member.allOf) {
        const resolved = followSchemaRefs(document, part);
        if (resolved !== undefined) collect(resolved, level + 1);
      }
    };
    collect(node, depth);
    return { kind: 'object', properties, additional };
  }
  // `type: [integer, "null"]` (3.1) or `nullable: true` (3.0): the text `null`, or none, is null.
  if (NULLABLE_SCALARS.has(kind) && admitsNull(document, node)) return { kind: 'any', alternatives: [{ kind }, NULL_SHAPE] };
  return { kind };
}

/** Kinds whose text never reads as null otherwise (a string's `null` stays the text "null"). */
const NULLABLE_SCALARS: ReadonlySet<ScalarKind | 'array' | 'object'> = new Set(['integer', 'number', 'boolean']);
const NULL_SHAPE: ValueShape = Object.freeze({ kind: 'null' });

/** A `null` type (3.1), or `nullable: true` where it is a keyword (3.0; 3.1 has none). */
function admitsNull(document: JsonValue, node: JsonObject): boolean {
  if (Array.isArray(node.type)) return node.type.includes('null');
  const version = isJsonObject(document) ? document.openapi : undefined;
  return node.nullable === true && !(typeof version === 'string' && version.startsWith('3.1'));
}

/** ANY, with the alternatives of a list of types (3.1), of a `oneOf`/`anyOf`, or of an `enum` whose members differ in type. */
function unionShape(document: JsonValue, node: JsonObject, depth: number): ValueShape {
  const members = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  let alternatives: ValueShape[] = [];
  if (Array.isArray(node.type)) {
    // Each type as a schema of its own, with the node's other keywords (`items`, `properties`).
    alternatives = node.type.filter((type) => typeof type === 'string').map((type) => shapeOf(document, { ...node, type }, depth + 1));
  } else if (members !== undefined) alternatives = members.map((member) => shapeOf(document, member, depth + 1));
  else if (Array.isArray(node.enum)) {
    const kinds = new Set(node.enum.map((value): ScalarKind => (value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string')));
    alternatives = [...kinds].map((kind) => ({ kind }));
  }
  return alternatives.some((alternative) => alternative.kind !== 'any' && alternative.kind !== 'string') ? { kind: 'any', alternatives } : ANY;
}

/**
 * A text under a union of shapes: the first scalar alternative that reads it (integer, number,
 * boolean, null; OUTSIDE_DOUBLE_RANGE for a number no double holds), else JSON when an object or
 * array alternative fits its first character and `readJson` parses it (undefined when it does
 * not), else the text itself.
 */
export function coerceAlternatives(text: string, alternatives: readonly ValueShape[], readJson: (text: string) => unknown): unknown {
  for (const alternative of alternatives) {
    if (alternative.kind === 'any' || alternative.kind === 'string' || alternative.kind === 'object' || alternative.kind === 'array') continue;
    // OUTSIDE_DOUBLE_RANGE too: the text is a number, only not one this engine can check.
    const value = coerceScalar(text, alternative.kind);
    if (value !== NOT_COERCIBLE) return value;
  }
  const structured = alternatives.some((alternative) => (alternative.kind === 'object' && text.startsWith('{')) || (alternative.kind === 'array' && text.startsWith('[')));
  const value = structured ? readJson(text) : undefined;
  return value === undefined ? text : value;
}

/** Text → value of the kind; NOT_COERCIBLE when the text cannot be one, OUTSIDE_DOUBLE_RANGE for a number a double cannot hold. */
export function coerceScalar(text: string, kind: ScalarKind): unknown {
  switch (kind) {
    case 'integer':
      return INTEGER_TEXT.test(text) ? numberOf(text) : NOT_COERCIBLE;
    case 'number':
      return NUMBER_TEXT.test(text) ? numberOf(text) : NOT_COERCIBLE;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : NOT_COERCIBLE;
    case 'null':
      return text === '' || text === 'null' ? null : NOT_COERCIBLE;
    default:
      return text;
  }
}

function numberOf(text: string): number | typeof OUTSIDE_DOUBLE_RANGE {
  const value = Number(text);
  return leavesDoubleRange(text, value) ? OUTSIDE_DOUBLE_RANGE : value;
}

function followSchemaRefs(document: JsonValue, schema: JsonValue | undefined): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; hops < MAX_SHAPE_DEPTH && isJsonObject(node) && typeof node.$ref === 'string'; hops++) {
    const pointer = refToPointer(node.$ref);
    node = pointer === undefined ? undefined : resolveJsonPointer(document, pointer);
  }
  return isJsonObject(node) ? node : undefined;
}

/**
 * The declared type (the one non-null type of a list; a list of several is a union), else the one
 * type all `allOf`/`oneOf`/`anyOf` members agree on.
 */
function declaredKind(document: JsonValue, node: JsonObject, depth = 0): ScalarKind | 'array' | 'object' | undefined {
  const type = node.type;
  if (typeof type === 'string') return asKind(type);
  if (Array.isArray(type)) {
    const types = type.filter((entry) => entry !== 'null');
    if (types.length > 1) return undefined;
    return typeof types[0] === 'string' ? asKind(types[0]) : type.includes('null') ? 'null' : undefined;
  }
  if (depth > MAX_SHAPE_DEPTH) return undefined;
  if (Array.isArray(node.allOf)) {
    for (const member of node.allOf) {
      const resolved = followSchemaRefs(document, member);
      const kind = resolved && declaredKind(document, resolved, depth + 1);
      if (kind !== undefined) return kind;
    }
  }
  const alternatives = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (alternatives && alternatives.length > 0) {
    const kinds = new Set(
      alternatives.map((member) => {
        const resolved = followSchemaRefs(document, member);
        return resolved && declaredKind(document, resolved, depth + 1);
      }),
    );
    if (kinds.size === 1) return [...kinds][0];
  }
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    if (node.enum.every((value) => typeof value === 'number')) return 'number';
    if (node.enum.every((value) => typeof value === 'boolean')) return 'boolean';
  }
  // No type, but what the keywords describe is clear (real documents often leave `type: object` out).
  if (isJsonObject(node.properties)) return 'object';
  if (isJsonObject(node.items)) return 'array';
  return undefined;
}

function asKind(type: string): ScalarKind | 'array' | 'object' | undefined {
  switch (type) {
    case 'integer':
    case 'number':
    case 'boolean':
    case 'string':
    case 'null':
    case 'array':
    case 'object':
      return type;
    default:
      return undefined;
  }
}
