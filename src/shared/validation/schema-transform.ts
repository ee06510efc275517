/**
 * One OpenAPI schema object → the JSON Schema AJV compiles, per direction (request or response).
 * Nothing is dereferenced: every `$ref` becomes a reference to the id under which its target is
 * compiled once (see schema-compiler.ts). What changes on the way:
 * - OpenAPI 3.0: `nullable` becomes a `null` type (or an if/else around a schema without `type`);
 *   boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form; siblings of `$ref` are
 *   ignored as 3.0 says (except `nullable`, which real documents put there and mean).
 * - `readOnly` properties are not required in requests and must not be sent there; `writeOnly`
 *   likewise in responses. A `required` list leaves out such properties wherever they are declared
 *   in place with it: in its own schema, in its `allOf` branches (through `$ref`s), or in the schema
 *   it is a branch of and that schema's other branches (`allOf: [$ref Base, {required: [id]}]`).
 * - `discriminator` over a `oneOf`/`anyOf` of `$ref`s dispatches on the tag (precise errors instead
 *   of "must match exactly one schema"); without a union (plain inheritance) a tag that names a
 *   subtype (by `mapping`, or a component whose `allOf` names the base) selects it too.
 * - A subtype's reference back to its base (`Cat: allOf [Pet, ...]` where Pet's union or dispatch
 *   reaches Cat) means the base without its union and dispatch: the schema is compiled a second
 *   time as such a "base" unit (see schema-hierarchy.ts), which ends the recursion.
 * - Annotations, `x-` extensions and formats the instance does not know are dropped.
 * - Schemas applied per element of the data (`items`, `additionalProperties`...) are wrapped in the
 *   error cap, `additionalProperties: false` becomes a per-property failure inside it, and
 *   `uniqueItems` becomes the hashing keyword (see ajv-instance.ts for the measured reasons).
 */
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json';
import { ERROR_CAP_KEYWORD, FORBIDDEN_KEYWORD, UNIQUE_ITEMS_KEYWORD, type SchemaDialect } from './ajv-instance';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';
import { SchemaCompileError } from './schema-compile-error';
import { IN_PLACE_KEYWORDS, UNION_KEYWORDS, type SchemaHierarchy } from './schema-hierarchy';

export type Direction = 'request' | 'response';

export interface TransformContext {
  readonly document: JsonValue;
  readonly dialect: SchemaDialect;
  readonly direction: Direction;
  readonly maxObjectProperties: number;
  readonly hierarchy: SchemaHierarchy;
  /** The id `unit` is compiled under (reserved and queued when new). */
  refId(unit: SchemaUnit): string;
  hasFormat(format: string): boolean;
  /** Counts one schema object against the compile budget (throws when over). */
  countNode(): void;
}

/** A schema compiled under its own id: what a `$ref` names. */
export interface SchemaUnit {
  /** Where the schema is in the document (canonical JSON pointer). */
  readonly pointer: string;
  /** Without its own union and discriminator dispatch: what a subtype's reference back to it means. */
  readonly base: boolean;
}

/** Where a schema object is met while its unit is transformed. */
interface Position {
  readonly unit: SchemaUnit;
  readonly depth: number;
  /** Applies to the same value as the unit's root (reached through allOf, oneOf, not...). */
  readonly inPlace: boolean;
  /** Properties the schemas this one is in place with declare readOnly (requests) or writeOnly (responses). */
  readonly forbiddenAround?: ReadonlySet<string>;
}

type SchemaOut = Record<string, unknown>;

/** Deeper than documents may nest (maxSchemaDepth); only a document built in memory gets here. */
const MAX_TRANSFORM_DEPTH = 512;

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Annotations and keywords handled apart (a `$defs` member is compiled on its own when a `$ref` reaches it). */
const DROPPED_KEYS = new Set([
  'description', 'title', 'example', 'examples', 'externalDocs', 'xml', 'deprecated', 'default', '$comment',
  '$schema', '$id', '$anchor', '$dynamicAnchor', 'readOnly', 'writeOnly', 'nullable', 'discriminator',
  '$defs', 'definitions', 'contentMediaType', 'contentEncoding', 'exclusiveMinimum', 'exclusiveMaximum',
]);
const SCHEMA_KEYS = new Set(['not', 'if', 'then', 'else', 'contains', 'propertyNames', 'contentSchema']);
/**
 * Keywords whose subschema failing on one element is no failure of the data (`contains` needs one
 * matching item, not all) or is worded by the keyword itself (`propertyNames`): see failingAsAWhole.
 */
const WHOLE_FAILURE_SCHEMA_KEYS = new Set(['contains', 'propertyNames']);
/** Applied to each element (item or property) of the data, in a loop. */
const ELEMENT_SCHEMA_KEYS = new Set(['additionalItems', 'unevaluatedItems']);
/** Applied to each property not otherwise declared; `false` fails every such property. */
const EXTRA_PROPERTY_KEYS = new Set(['additionalProperties', 'unevaluatedProperties']);
const SCHEMA_MAP_KEYS = new Set(['dependentSchemas']);
const SCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** The pattern that stands for a declared property named __proto__ (see transformNode). */
const PROTO_PROPERTY_PATTERN = '^__proto__$';

/**
 * The same schema, whose own errors are never listed: `not` keeps none of its subschema's, so
 * `not: {not: S}` accepts what S accepts and fails with one error under its keyword's schema path,
 * which errorsToWord leaves out. S's errors would otherwise be listed item by item ("/tags/0: must
 * match pattern") though no item had to match; those of a subschema behind a `$ref`, compiled apart,
 * carry no schema path under the keyword to tell them by.
 */
function failingAsAWhole(schema: unknown): SchemaOut {
  return { not: { not: schema } };
}

/** The schema object of `unit` → the JSON Schema compiled under the unit's id. */
export function transformSchema(node: JsonValue | undefined, ctx: TransformContext, unit: SchemaUnit): unknown {
  return transformNode(node, ctx, { unit, depth: 0, inPlace: true });
}

function transformNode(node: JsonValue | undefined, ctx: TransformContext, at: Position): unknown {
  if (typeof node === 'boolean') return node;
  if (!isJsonObject(node)) return {}; // not a schema: constrains nothing
  if (at.depth > MAX_TRANSFORM_DEPTH) throw new SchemaCompileError(`schema nests deeper than ${MAX_TRANSFORM_DEPTH} levels`);
  ctx.countNode();

  if (typeof node.$ref === 'string' && ctx.dialect === '3.0') {
    const reference: SchemaOut = { $ref: referenceId(schemaRefPointer(node.$ref), ctx, at) };
    return node.nullable === true ? allowNull(reference) : reference;
  }

  // A base unit leaves out its root's own union and dispatch, and the dispatch (with the union it
  // replaces) of inline schemas in place at its root (`allOf: [$ref Parent, {discriminator, ...}]`):
  // a subtype's reference back means neither. Schemas nested in the data keep theirs.
  const baseRoot = at.unit.base && at.depth === 0;
  const withDispatch = !(baseRoot || (at.unit.base && at.inPlace));
  const withUnion = !(baseRoot || (!withDispatch && ctx.hierarchy.discriminatorOf(node, undefined)?.union !== undefined));
  const inPlace: Position = {
    unit: at.unit,
    depth: at.depth + 1,
    inPlace: at.inPlace,
    forbiddenAround: UNION_OR_ALL_OF.some((key) => Array.isArray(node[key])) ? forbiddenInPlace(node, ctx, at) : at.forbiddenAround,
  };
  const inData: Position = { unit: at.unit, depth: at.depth + 1, inPlace: false };
  const child = (value: JsonValue | undefined, key: string) => transformNode(value, ctx, IN_PLACE_KEYWORDS.has(key) ? inPlace : inData);

  let out: SchemaOut = {};
  let protoProperty: unknown;
  for (const key of Object.keys(node)) {
    const value = node[key]!;
    if (DROPPED_KEYS.has(key) || key.startsWith('x-')) continue;
    if (!withUnion && UNION_KEYWORDS.has(key)) continue;
    if (key === '$ref') {
      if (typeof value === 'string') out.$ref = referenceId(schemaRefPointer(value), ctx, at);
    } else if (key === 'properties') {
      if (!isJsonObject(value)) continue;
      const names = Object.keys(value);
      if (names.length > ctx.maxObjectProperties) {
        throw new SchemaCompileError(
          `a schema declares ${names.length} properties, over the limit of ${ctx.maxObjectProperties} (maxSchemaObjectProperties)`,
        );
      }
      const properties: SchemaOut = {};
      for (const name of names) {
        let schema: unknown;
        if (isForbidden(value[name]!, ctx)) {
          schema = { [FORBIDDEN_KEYWORD]: ctx.direction === 'request' ? 'read-only' : 'write-only' };
        } else {
          schema = child(value[name], key);
        }
        if (name === '__proto__') protoProperty = schema;
        else setOwn(properties, name, schema);
      }
      out.properties = properties;
    } else if (key === 'items') {
      out.items = Array.isArray(value)
        ? value.map((item) => child(item, key))
        : capErrors(child(value, key));
    } else if (ELEMENT_SCHEMA_KEYS.has(key)) {
      out[key] = capErrors(child(value, key));
    } else if (EXTRA_PROPERTY_KEYS.has(key)) {
      out[key] = value === false ? capErrors({ [FORBIDDEN_KEYWORD]: 'unexpected' }) : capErrors(child(value, key));
    } else if (key === 'patternProperties') {
      if (!isJsonObject(value)) continue;
      const schemas: SchemaOut = {};
      for (const pattern of Object.keys(value)) setOwn(schemas, pattern, capErrors(child(value[pattern], key)));
      out.patternProperties = schemas;
    } else if (key === 'uniqueItems') {
      if (value === true) out[UNIQUE_ITEMS_KEYWORD] = true;
    } else if (key === 'dependencies' && isJsonObject(value)) {
      const dependencies: SchemaOut = {};
      for (const name of Object.keys(value)) {
        const dependency = value[name]!;
        setOwn(dependencies, name, Array.isArray(dependency) ? dependency : child(dependency, key));
      }
      out.dependencies = dependencies;
    } else if (WHOLE_FAILURE_SCHEMA_KEYS.has(key)) {
      out[key] = failingAsAWhole(child(value, key));
    } else if (SCHEMA_KEYS.has(key)) {
      out[key] = child(value, key);
    } else if (SCHEMA_MAP_KEYS.has(key)) {
      if (!isJsonObject(value)) continue;
      const schemas: SchemaOut = {};
      for (const name of Object.keys(value)) setOwn(schemas, name, child(value[name], key));
      out[key] = schemas;
    } else if (SCHEMA_LIST_KEYS.has(key)) {
      if (Array.isArray(value)) out[key] = value.map((item) => child(item, key));
    } else if (key === 'type') {
      const type = sanitizeType(value);
      if (type !== undefined) out.type = type;
    } else if (key === 'format') {
      if (typeof value === 'string' && ctx.hasFormat(value)) out.format = value;
    } else if (key === 'required') {
      if (Array.isArray(value)) out.required = value.filter((name) => typeof name === 'string');
    } else {
      setOwn(out, key, value);
    }
  }

  if (protoProperty !== undefined) {
    // AJV's `properties` passes over a property named __proto__ (it never reads one); a pattern for
    // exactly that name checks it, and counts it as declared for additionalProperties.
    const patterns = (out.patternProperties as SchemaOut | undefined) ?? {};
    setOwn(patterns, PROTO_PROPERTY_PATTERN, protoProperty);
    out.patternProperties = patterns;
  }
  if (Array.isArray(out.required) && out.required.length > 0) {
    const forbidden = forbiddenInPlace(node, ctx, at);
    if (forbidden.size > 0) out.required = (out.required as string[]).filter((name) => !forbidden.has(name));
  }
  convertExclusiveBounds(node, out);
  if (withDispatch) applyDiscriminator(node, out, ctx, at);
  if (ctx.dialect === '3.0' && node.nullable === true) out = allowNull(out);
  return out;
}

/**
 * Element schemas go inside the error cap. Boolean schemas stay as they are: `true` fails nothing,
 * and AJV reports `items: false` once for the whole array.
 */
function capErrors(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Object.keys(schema).length === 0) return schema;
  return { [ERROR_CAP_KEYWORD]: schema };
}

function schemaRefPointer(ref: string): string {
  const pointer = refToPointer(ref);
  if (pointer === undefined) throw new SchemaCompileError(`$ref "${ref}" is not a local reference into the document`);
  return pointer;
}

/** The keywords whose schemas apply to the same value as the schema holding them, where `required` meets properties declared elsewhere. */
const UNION_OR_ALL_OF = ['allOf', 'anyOf', 'oneOf'] as const;
/**
 * Schema objects one look for forbidden properties visits through `allOf` and `$ref` (an
 * inheritance chain is a few; a document that is nothing but allOf stops there, its rest unseen).
 */
const MAX_FORBIDDEN_LOOKUP_NODES = 256;
/** Each schema object's forbidden properties, own and through its allOf branches, by direction. */
const forbiddenDeclared: Record<Direction, WeakMap<JsonObject, ReadonlySet<string>>> = { request: new WeakMap(), response: new WeakMap() };

/** Properties `node` declares forbidden in this direction, with those of the schemas it is in place with. */
function forbiddenInPlace(node: JsonObject, ctx: TransformContext, at: Position): ReadonlySet<string> {
  const own = declaredForbidden(node, ctx);
  if (at.forbiddenAround === undefined || at.forbiddenAround.size === 0) return own;
  if (own.size === 0) return at.forbiddenAround;
  return new Set([...at.forbiddenAround, ...own]);
}

/** Properties declared forbidden by `node` and, through `$ref`s, by its allOf branches (whose properties are the value's too). */
function declaredForbidden(node: JsonObject, ctx: TransformContext): ReadonlySet<string> {
  const known = forbiddenDeclared[ctx.direction].get(node);
  if (known !== undefined) return known;
  const names = new Set<string>();
  const seen = new Set<JsonObject>();
  const visit = (schema: JsonValue | undefined) => {
    if (!isJsonObject(schema) || seen.has(schema) || seen.size >= MAX_FORBIDDEN_LOOKUP_NODES) return;
    seen.add(schema);
    if (isJsonObject(schema.properties)) {
      for (const name of Object.keys(schema.properties)) if (isForbidden(schema.properties[name]!, ctx)) names.add(name);
    }
    if (typeof schema.$ref === 'string') {
      const pointer = refToPointer(schema.$ref);
      if (pointer !== undefined) visit(resolveJsonPointer(ctx.document, pointer));
    }
    if (Array.isArray(schema.allOf)) for (const branch of schema.allOf) visit(branch);
  };
  visit(node);
  forbiddenDeclared[ctx.direction].set(node, names);
  return names;
}

/** readOnly (in requests) or writeOnly (in responses), on the property or on the schema its `$ref` names. */
function isForbidden(property: JsonValue, ctx: TransformContext): boolean {
  if (!isJsonObject(property)) return false;
  const marker = ctx.direction === 'request' ? 'readOnly' : 'writeOnly';
  if (property[marker] === true) return true;
  if (typeof property.$ref !== 'string') return false;
  const pointer = refToPointer(property.$ref);
  const target = pointer === undefined ? undefined : resolveJsonPointer(ctx.document, pointer);
  return isJsonObject(target) && target[marker] === true;
}

function sanitizeType(value: JsonValue): string | string[] | undefined {
  if (typeof value === 'string') return JSON_TYPES.has(value) ? value : undefined;
  if (!Array.isArray(value)) return undefined;
  const types = [...new Set(value.filter((type): type is string => typeof type === 'string' && JSON_TYPES.has(type)))];
  if (types.length === 0) return undefined;
  return types.length === 1 ? types[0] : types;
}

/** 3.0 (draft-04 style) `exclusiveMinimum: true` next to `minimum` → the numeric form; numbers pass through. */
function convertExclusiveBounds(node: JsonObject, out: SchemaOut): void {
  for (const [exclusive, inclusive] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    const flag = node[exclusive];
    if (typeof flag === 'number') out[exclusive] = flag;
    else if (flag === true && typeof node[inclusive] === 'number') {
      out[exclusive] = node[inclusive];
      delete out[inclusive];
    }
  }
}

/**
 * `oneOf: [$ref Cat, $ref Dog]` + `discriminator: {propertyName: petType}` → an object that must
 * carry a known `petType`, validated against the one schema that tag names (mapping, or the
 * component name). Falls back to plain oneOf/anyOf when a branch is not a `$ref`. Without a union
 * (plain inheritance), a tag that names a subtype adds that subtype's schema to the base's own.
 */
function applyDiscriminator(node: JsonObject, out: SchemaOut, ctx: TransformContext, at: Position): void {
  // Only a `$ref` target can be named by subtypes' allOf, and only the unit's root is one.
  const self = at.depth === 0 ? at.unit.pointer : undefined;
  const discriminator = ctx.hierarchy.discriminatorOf(node, self);
  if (discriminator === undefined) return;

  const { propertyName, targets, union } = discriminator;
  const dispatch: SchemaOut[] = [];
  if (union !== undefined) {
    // A nullable base (3.0 `nullable`, 3.1 `type: [..., "null"]`) still admits null.
    const type = allowsNull(node, ctx.dialect) ? ['object', 'null'] : 'object';
    dispatch.push({ type, required: [propertyName], properties: propertyOf(propertyName, { type: 'string', enum: [...targets.keys()] }) });
  }
  for (const [tag, pointer] of targets) {
    if (pointer === self) continue; // the tag names the base itself, whose schema applies already
    dispatch.push({
      if: { type: 'object', required: [propertyName], properties: propertyOf(propertyName, { const: tag }) },
      then: { $ref: referenceId(pointer, ctx, at) },
    });
  }
  if (union !== undefined) delete out[union];
  if (dispatch.length === 0) return;
  out.allOf = Array.isArray(out.allOf) ? [...(out.allOf as unknown[]), ...dispatch] : dispatch;
}

/**
 * The id a `$ref` to `pointer` compiles to: the base form of the target when the reference is in
 * place and leads back through the target's own union or dispatch (Cat's `allOf: [Pet]`).
 */
function referenceId(pointer: string, ctx: TransformContext, at: Position): string {
  const base = at.inPlace && ctx.hierarchy.isReferenceBack(at.unit.pointer, pointer);
  return ctx.refId({ pointer, base });
}

function propertyOf(name: string, schema: SchemaOut): SchemaOut {
  const properties: SchemaOut = {};
  setOwn(properties, name, schema);
  return properties;
}

function allowsNull(node: JsonObject, dialect: SchemaDialect): boolean {
  if (dialect === '3.0') return node.nullable === true;
  return node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'));
}

/** 3.0 `nullable: true`: null joins the declared type (and enum); without a type the schema is wrapped. */
function allowNull(out: SchemaOut): SchemaOut {
  const type = out.type;
  if (typeof type === 'string' || Array.isArray(type)) {
    const types = typeof type === 'string' ? [type] : (type as string[]);
    if (!types.includes('null')) out.type = [...types, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if (Object.keys(out).length === 0) return out; // already accepts null
  return { if: { type: 'null' }, else: out };
}
