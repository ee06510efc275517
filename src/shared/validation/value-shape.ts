/**
 * Parameters and headers arrive as text. To validate `?limit=10` against `type: integer` the text
 * must become a number first; the shape says what each text should become. It is read from the
 * schema (through `$ref`s, without compiling anything) once per operation.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';

export type ScalarKind = 'integer' | 'number' | 'boolean' | 'string' | 'null' | 'any';

export type ValueShape =
  | { kind: ScalarKind }
  | { kind: 'array'; items: ValueShape }
  | { kind: 'object'; properties: ReadonlyMap<string, ValueShape>; additional: ValueShape };

/** Returned by coerceScalar when the text is not of the kind. */
export const NOT_COERCIBLE: unique symbol = Symbol('not coercible');

const ANY: ValueShape = Object.freeze({ kind: 'any' });
const MAX_SHAPE_DEPTH = 8;
const INTEGER_TEXT = /^[-+]?\d+$/;
const NUMBER_TEXT = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function shapeOf(document: JsonValue, schema: JsonValue | undefined, depth = 0): ValueShape {
  const node = followSchemaRefs(document, schema);
  if (node === undefined || depth > MAX_SHAPE_DEPTH) return ANY;
  const kind = declaredKind(document, node);
  if (kind === 'array') return { kind: 'array', items: shapeOf(document, node.items, depth + 1) };
  if (kind === 'object') {
    const properties = new Map<string, ValueShape>();
    if (isJsonObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) properties.set(name, shapeOf(document, property, depth + 1));
    }
    const additional = isJsonObject(node.additionalProperties) ? shapeOf(document, node.additionalProperties, depth + 1) : ANY;
    return { kind: 'object', properties, additional };
  }
  return kind === undefined ? ANY : { kind };
}

/** Text → value of the kind; NOT_COERCIBLE when the text cannot be one. */
export function coerceScalar(text: string, kind: ScalarKind): unknown {
  switch (kind) {
    case 'integer':
      return INTEGER_TEXT.test(text) ? Number(text) : NOT_COERCIBLE;
    case 'number':
      return NUMBER_TEXT.test(text) ? Number(text) : NOT_COERCIBLE;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : NOT_COERCIBLE;
    case 'null':
      return text === '' || text === 'null' ? null : NOT_COERCIBLE;
    default:
      return text;
  }
}

function followSchemaRefs(document: JsonValue, schema: JsonValue | undefined): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; hops < MAX_SHAPE_DEPTH && isJsonObject(node) && typeof node.$ref === 'string'; hops++) {
    const pointer = refToPointer(node.$ref);
    node = pointer === undefined ? undefined : resolveJsonPointer(document, pointer);
  }
  return isJsonObject(node) ? node : undefined;
}

/** The declared type (the first non-null one of a list), else the one type all `allOf`/`oneOf`/`anyOf` members agree on. */
function declaredKind(document: JsonValue, node: JsonObject, depth = 0): ScalarKind | 'array' | 'object' | undefined {
  const type = node.type;
  if (typeof type === 'string') return asKind(type);
  if (Array.isArray(type)) {
    const first = type.find((entry) => entry !== 'null');
    return typeof first === 'string' ? asKind(first) : type.includes('null') ? 'null' : undefined;
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
