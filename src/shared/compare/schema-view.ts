/**
 * A flattened reading of one schema for comparison: `$ref`s followed, `allOf` members merged
 * (properties united, `required` united, types and enums intersected), `oneOf`/`anyOf` kept as
 * alternatives. Every property, item and alternative keeps the pointer of its declaration.
 */
import { limitExceeded } from '../errors';
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { canonicalJson, childPointer } from './json-pointer';
import { expandSchemaLink, type Located, type RefResolver } from './resolve-link';
import { intersectTypes, typeToken, type TypeToken } from './schema-types';

/** One conjunct of a schema; `skipAlternatives` marks a base already split into alternatives. */
export interface SchemaLink extends Located {
  skipAlternatives?: boolean;
}

/** A schema as the conjunction of its links (usually one). */
export type SchemaRef = readonly SchemaLink[];

export interface Alternative {
  ref: SchemaRef;
  /** The `$ref` or title an alternative is known by, to pair old and new alternatives. */
  identity: string | undefined;
  pointer: string;
}

export interface SchemaView {
  /** Identifies the schema: its object when it is one resolved part, else the pointers of its parts. */
  identity: SchemaIdentity;
  /** Pointer of the first resolved part: where this schema lives. */
  pointer: string;
  /** False when the reference dangles or the schema is a boolean: nothing to compare. */
  known: boolean;
  /** Declared (or, without `type`, inferred) types; undefined when unconstrained. */
  types: TypeToken[] | undefined;
  /** Allowed values (`enum`, or `const` as one value); undefined when unconstrained. */
  enumValues: JsonValue[] | undefined;
  properties: Map<string, SchemaLink[]>;
  /** Required property name → pointer of the `required` list naming it. */
  required: Map<string, string>;
  /** A schema for extra properties; `false` when forbidden; undefined when free. */
  additionalProperties: SchemaLink[] | false | undefined;
  items: SchemaLink[] | undefined;
  /** 3.1 `prefixItems`: the schema of each leading position (the first part that declares them). */
  prefixItems: SchemaLink[] | undefined;
  alternatives: Alternative[] | undefined;
  /** The `discriminator` of the schema: its property and the values that select a subtype. */
  discriminator: Discriminator | undefined;
  readOnly: boolean;
  writeOnly: boolean;
}

/** A discriminator's tags: `mapping` keys, and the component name of each `$ref` alternative no key maps. */
export interface Discriminator {
  property: string;
  tags: string[];
  pointer: string;
}

export interface Part extends Located<JsonObject> {
  skipAlternatives: boolean;
}

/** Parts of one schema beyond which `allOf` expansion stops (each part also costs a step). */
const MAX_PARTS_PER_SCHEMA = 256;

/** An object of the document, or a text naming several (compared by identity, hashed cheaply). */
export type SchemaIdentity = object | string;

export interface ResolvedSchemaRef {
  parts: Part[];
  identity: SchemaIdentity;
}

/**
 * The parts a reference stands for once its `$ref`s are followed (before `allOf` is expanded),
 * and the identity of that schema: the same schema reached from a thousand operations has one
 * identity, so its view is read once and its comparisons are memoised once.
 */
export function resolveSchemaRef(root: JsonValue, ref: SchemaRef, resolve: RefResolver): ResolvedSchemaRef {
  const parts: Part[] = [];
  for (const link of ref) {
    for (const resolved of expandSchemaLink(root, link, resolve)) parts.push({ ...resolved, skipAlternatives: link.skipAlternatives === true });
  }
  const identity = parts.length === 1 && !parts[0]!.skipAlternatives ? parts[0]!.node : parts.map(partKey).join(' ');
  return { parts, identity };
}

function partKey(part: Part): string {
  return part.skipAlternatives ? `!${part.pointer}` : part.pointer;
}

export function readSchemaView(root: JsonValue, resolved: ResolvedSchemaRef, resolve: RefResolver, onPart: () => void): SchemaView {
  const parts = flattenParts(root, resolved.parts, resolve, onPart);
  const view = emptyView(resolved.identity, parts);
  if (parts.length === 0) return view;

  let typesSeen = false;
  let nullableHint = false;
  for (const part of parts) {
    const { node, pointer } = part;
    const declared = declaredTypes(node);
    if (declared) {
      view.types = typesSeen && view.types ? intersectTypes(view.types, declared) : declared;
      typesSeen = true;
    } else if (node.nullable === true) nullableHint = true;

    const values = declaredEnum(node);
    if (values) view.enumValues = view.enumValues ? intersectValues(view.enumValues, values) : values;

    if (isJsonObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties)) {
        const link = { node: schema, pointer: childPointer(pointer, 'properties', name) };
        const existing = view.properties.get(name);
        if (existing) existing.push(link);
        else view.properties.set(name, [link]);
      }
    }
    if (Array.isArray(node.required)) {
      for (const name of node.required) {
        if (typeof name === 'string' && !view.required.has(name)) view.required.set(name, childPointer(pointer, 'required'));
      }
    }
    readAdditionalProperties(view, node, pointer);
    if (node.items !== undefined && !Array.isArray(node.items)) {
      (view.items ??= []).push({ node: node.items, pointer: childPointer(pointer, 'items') });
    }
    if (Array.isArray(node.prefixItems) && view.prefixItems === undefined) {
      view.prefixItems = node.prefixItems.map((item, index) => ({ node: item, pointer: childPointer(pointer, 'prefixItems', index) }));
    }
    if (!part.skipAlternatives && !view.alternatives) view.alternatives = readAlternatives(node, pointer, parts);
    view.discriminator ??= readDiscriminator(node, pointer);
    if (node.readOnly === true) view.readOnly = true;
    if (node.writeOnly === true) view.writeOnly = true;
  }

  if (!typesSeen) view.types = inferTypes(view);
  if (nullableHint && view.types && !view.types.includes('null')) view.types.push('null');
  return view;
}

function emptyView(identity: SchemaIdentity, parts: Part[]): SchemaView {
  return {
    identity,
    pointer: parts[0]?.pointer ?? '',
    known: parts.length > 0,
    types: undefined,
    enumValues: undefined,
    properties: new Map(),
    required: new Map(),
    additionalProperties: undefined,
    items: undefined,
    prefixItems: undefined,
    alternatives: undefined,
    discriminator: undefined,
    readOnly: false,
    writeOnly: false,
  };
}

/**
 * Resolves every link and expands `allOf` members into further parts, without recursion. A
 * node reached twice is one part (this also ends `allOf` cycles); it keeps its alternatives
 * when any of the ways it was reached does.
 */
function flattenParts(root: JsonValue, resolvedParts: Part[], resolve: RefResolver, onPart: () => void): Part[] {
  if (resolvedParts.length === 1 && !Array.isArray(resolvedParts[0]!.node.allOf)) {
    onPart();
    return resolvedParts;
  }
  const byPointer = new Map<string, Part>();
  const pending: Part[] = [...resolvedParts];
  while (pending.length > 0) {
    const part = pending.shift()!;
    onPart();
    const seen = byPointer.get(part.pointer);
    if (seen) {
      seen.skipAlternatives &&= part.skipAlternatives;
      continue;
    }
    // A part left out would be a change left out: the comparison stops rather than call it compatible.
    if (byPointer.size >= MAX_PARTS_PER_SCHEMA) {
      throw limitExceeded(`a schema at ${resolvedParts[0]!.pointer} combines more than ${MAX_PARTS_PER_SCHEMA} allOf parts; it cannot be compared in full`);
    }
    byPointer.set(part.pointer, { ...part });
    const members = part.node.allOf;
    if (!Array.isArray(members)) continue;
    members.forEach((member, index) => {
      for (const resolved of expandSchemaLink(root, { node: member, pointer: childPointer(part.pointer, 'allOf', index) }, resolve)) {
        pending.push({ ...resolved, skipAlternatives: part.skipAlternatives });
      }
    });
  }
  return [...byPointer.values()];
}

function declaredTypes(node: JsonObject): TypeToken[] | undefined {
  const type = node.type;
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
  if (names.length === 0) return undefined;
  const tokens = names.map((name) => typeToken(name, node.format));
  if (node.nullable === true && !tokens.includes('null')) tokens.push('null');
  return tokens;
}

function declaredEnum(node: JsonObject): JsonValue[] | undefined {
  if (Array.isArray(node.enum)) return [...node.enum];
  if (node.const !== undefined) return [node.const];
  return undefined;
}

function intersectValues(a: JsonValue[], b: JsonValue[]): JsonValue[] {
  const inB = new Set(b.map(canonicalJson));
  return a.filter((value) => inB.has(canonicalJson(value)));
}

function readAdditionalProperties(view: SchemaView, node: JsonObject, pointer: string): void {
  const extra = node.additionalProperties;
  const current = view.additionalProperties;
  if (current === false) return;
  if (extra === false) view.additionalProperties = false;
  else if (isJsonObject(extra)) {
    const link = { node: extra, pointer: childPointer(pointer, 'additionalProperties') };
    view.additionalProperties = current ? [...current, link] : [link];
  }
}

/**
 * `oneOf` (else `anyOf`) members, each merged with every other part of the schema (this part
 * marked so that its alternatives are not split again): `{ properties: {id}, oneOf: [A, B] }` has
 * the alternatives "id and A" and "id and B".
 */
function readAlternatives(node: JsonObject, pointer: string, parts: Part[]): Alternative[] | undefined {
  if (!hasAlternatives(node)) return undefined;
  const keyword = Array.isArray(node.oneOf) ? 'oneOf' : 'anyOf';
  const members = node[keyword] as JsonValue[];
  // Only this part's alternatives are split here: another allOf part's own `oneOf` is split in turn
  // inside each alternative, so every combination is compared.
  const base: SchemaLink[] = parts.map((part) => ({
    node: part.node,
    pointer: part.pointer,
    skipAlternatives: part.skipAlternatives || part.pointer === pointer || !hasAlternatives(part.node),
  }));
  return members.map((member, index) => {
    const memberPointer = childPointer(pointer, keyword, index);
    return {
      ref: [...base, { node: member, pointer: memberPointer }],
      identity: alternativeIdentity(member),
      pointer: memberPointer,
    };
  });
}

/** OpenAPI 3: a discriminator's values are its mapping's keys, and the names of the `$ref` alternatives not mapped. */
function readDiscriminator(node: JsonObject, pointer: string): Discriminator | undefined {
  const discriminator = node.discriminator;
  if (!isJsonObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  const mapping = isJsonObject(discriminator.mapping) ? discriminator.mapping : {};
  const tags = Object.keys(mapping);
  const mapped = new Set(Object.values(mapping).filter((target): target is string => typeof target === 'string'));
  const members = [node.oneOf, node.anyOf].flatMap((list) => (Array.isArray(list) ? list : []));
  for (const member of members) {
    const ref = isJsonObject(member) && typeof member.$ref === 'string' ? member.$ref : undefined;
    if (ref === undefined || mapped.has(ref) || mapped.has(ref.slice(ref.lastIndexOf('/') + 1))) continue;
    tags.push(ref.slice(ref.lastIndexOf('/') + 1));
  }
  return { property: discriminator.propertyName, tags, pointer: childPointer(pointer, 'discriminator') };
}

function hasAlternatives(node: JsonObject): boolean {
  return Array.isArray(node.oneOf) || Array.isArray(node.anyOf);
}

function alternativeIdentity(member: JsonValue): string | undefined {
  if (!isJsonObject(member)) return undefined;
  if (typeof member.$ref === 'string') return member.$ref;
  return typeof member.title === 'string' ? `title:${member.title}` : undefined;
}

/** A schema without `type` that lists properties is an object, one with `items` an array. */
function inferTypes(view: SchemaView): TypeToken[] | undefined {
  if (view.properties.size > 0 || view.additionalProperties !== undefined || view.required.size > 0) return ['object'];
  if (view.items || view.prefixItems) return ['array'];
  return undefined;
}
