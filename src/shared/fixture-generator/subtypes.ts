/**
 * Plain inheritance: a base schema with a `discriminator` but no `oneOf`/`anyOf`, and subtypes
 * that extend it (`ActionGroup: allOf [$ref ActionRuleProperties, {...}]`). Validation dispatches
 * a value whose tag names a subtype (a `mapping` entry, or the component name of a schema whose
 * `allOf` names the base) to that subtype's schema as well (validation/schema-hierarchy.ts). A
 * value generated for the base itself must therefore carry a tag that names no subtype, or be
 * generated as the subtype its tag names.
 */
import { escapePointerToken, isJsonObject, type JsonObject } from '../json';
import type { OpenApiDocument } from '../openapi/document';
import type { FlatSchema } from './flat-schema';
import { refName, resolveRef, type SchemaScope } from './schema-scope';

const COMPONENT_SCHEMAS = '#/components/schemas/';

export interface Subtype {
  /** The discriminator value that selects it. */
  tag: string;
  /** `{ $ref }` to the subtype's schema (the same object each time, so its flat form is cached). */
  schema: JsonObject;
}

interface DocumentSubtypes {
  /** Component schemas by the `$ref`s their `allOf` names directly. */
  children: Map<string, string[]>;
  /** `{ $ref }` nodes handed out, by reference: flat forms are cached by node, per document. */
  refNodes: Map<string, JsonObject>;
}

const byDocument = new WeakMap<OpenApiDocument, DocumentSubtypes>();

function subtypeIndex(scope: SchemaScope): DocumentSubtypes {
  let index = byDocument.get(scope.document);
  if (index !== undefined) return index;
  const children = new Map<string, string[]>();
  const schemas = isJsonObject(scope.document.components) && isJsonObject(scope.document.components.schemas)
    ? scope.document.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) {
    // A 3.0 schema object with `$ref` is only that reference: its allOf means nothing.
    if (!isJsonObject(schema) || !Array.isArray(schema.allOf) || (scope.dialect === '3.0' && typeof schema.$ref === 'string')) continue;
    const child = `${COMPONENT_SCHEMAS}${escapePointerToken(name)}`;
    for (const part of schema.allOf) {
      if (!isJsonObject(part) || typeof part.$ref !== 'string' || part.$ref === child) continue;
      const siblings = children.get(part.$ref);
      if (siblings === undefined) children.set(part.$ref, [child]);
      else if (!siblings.includes(child)) siblings.push(child);
    }
  }
  index = { children, refNodes: new Map() };
  byDocument.set(scope.document, index);
  return index;
}

function refNode(index: DocumentSubtypes, ref: string): JsonObject {
  let node = index.refNodes.get(ref);
  if (node === undefined) index.refNodes.set(ref, (node = { $ref: ref }));
  return node;
}

/**
 * The subtypes validation would dispatch a value of this flat schema to, by tag: those of every
 * `$ref` target the schema was built from that declares the discriminator itself (validation
 * dispatches only there), less the schemas the flat schema already is.
 */
export function subtypesOf(scope: SchemaScope, flat: FlatSchema): Subtype[] {
  const discriminator = flat.discriminator;
  if (discriminator === undefined) return [];
  const index = subtypeIndex(scope);
  const own = new Set(flat.refs);
  const subtypes = new Map<string, Subtype>();
  for (const ref of own) {
    const target = resolveRef(scope, ref);
    if (!isJsonObject(target) || !isJsonObject(target.discriminator) || target.discriminator.propertyName !== discriminator.propertyName) continue;
    if (Array.isArray(target.oneOf) || Array.isArray(target.anyOf)) continue; // a union: choices.ts sets the tag
    const mapped = new Set<string>();
    for (const [tag, to] of Object.entries(discriminator.mapping)) {
      const targetRef = to.startsWith('#') ? to : `${COMPONENT_SCHEMAS}${to}`;
      mapped.add(targetRef);
      if (!own.has(targetRef) && !subtypes.has(tag)) subtypes.set(tag, { tag, schema: refNode(index, targetRef) });
    }
    for (const child of index.children.get(ref) ?? []) {
      if (own.has(child) || mapped.has(child)) continue;
      const tag = refName(child);
      if (!tag.includes('/') && !subtypes.has(tag)) subtypes.set(tag, { tag, schema: refNode(index, child) });
    }
  }
  return [...subtypes.values()];
}
