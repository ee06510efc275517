/**
 * Subtype relations of one document, for the polymorphism rewrites of schema-transform.ts.
 *
 * OpenAPI's polymorphism patterns reference in both directions: a base names its subtypes (a
 * `oneOf`/`anyOf` union, or a discriminator `mapping` alone) and each subtype extends the base
 * (`Cat: allOf [Pet, {...}]`). Compiled as written, Pet → Cat → Pet → … never descends into the
 * data and recurses until the stack ends. What a subtype means by its reference back is the base's
 * own constraints (type, properties, required…), not the base's dispatch to its subtypes: this
 * index finds those references, so the compiler points them at the base compiled without its union
 * and dispatch. Computed once per base schema and cached: compiling pays for it, calls do not.
 */
import { isJsonObject, unescapePointerToken, type JsonObject, type JsonValue } from '../json';
import type { SchemaDialect } from './ajv-instance';
import { discriminatorMappingPointer, refToPointer, resolveJsonPointer } from '../openapi/refs';
import { childPointer } from './document-pointer';
import { nodeBudgetExceeded } from './schema-compile-error';

/** Keywords whose schemas apply to the same value as their parent: following them consumes no data. */
export const IN_PLACE_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'dependencies',
]);
/** In-place keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['dependentSchemas', 'dependencies']);

/** A schema's own union, left out (with its discriminator dispatch) where a subtype refers back to it. */
export const UNION_KEYWORDS: ReadonlySet<string> = new Set(['oneOf', 'anyOf']);

const COMPONENT_SCHEMAS = '/components/schemas';

export interface Discriminator {
  readonly propertyName: string;
  /** Tag → pointer of the schema it selects: the mapping first, then component names. */
  readonly targets: ReadonlyMap<string, string>;
  /**
   * The union the discriminator replaces (every branch a `$ref`): the tag is then required and must
   * be one of `targets`. Undefined for plain inheritance (a mapping, or subtypes whose `allOf` names
   * the base): a tag that names a subtype selects it, any other leaves the base alone to apply.
   */
  readonly union: 'oneOf' | 'anyOf' | undefined;
}

interface PendingSchema {
  node: JsonValue | undefined;
  /** Where the schema is, when it is a `$ref` target (subtypes can only name those). */
  pointer?: string;
}

export class SchemaHierarchy {
  /** Base pointer → pointers of the `$ref` targets its union or dispatch reaches in place. */
  private readonly reached = new Map<string, ReadonlySet<string>>();
  /** Parent pointer → component schemas whose `allOf` names it; built on first need. */
  private children: Map<string, string[]> | undefined;

  constructor(
    private readonly document: JsonValue,
    private readonly dialect: SchemaDialect,
    /** The compile budget: schema objects one walk may visit (maxCompileSchemaNodes). */
    private readonly maxNodes: number,
  ) {}

  /**
   * The discriminator of the schema at `pointer` (undefined for an inline schema, which no subtype
   * can name), or undefined when it selects nothing or its union has an inline branch (AJV then
   * checks the union branch by branch).
   */
  discriminatorOf(node: JsonObject, pointer: string | undefined): Discriminator | undefined {
    const discriminator = node.discriminator;
    if (!isJsonObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
    const union = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : undefined;
    let named: readonly string[];
    if (union !== undefined) {
      const branches = (node[union] as JsonValue[]).map((branch) =>
        isJsonObject(branch) && typeof branch.$ref === 'string' ? refToPointer(branch.$ref) : undefined,
      );
      if (branches.some((branch) => branch === undefined)) return undefined;
      named = branches as string[];
    } else {
      named = pointer === undefined ? [] : this.childrenOf(pointer);
    }

    const targets = new Map<string, string>();
    const mapped = new Set<string>();
    if (isJsonObject(discriminator.mapping)) {
      for (const [tag, target] of Object.entries(discriminator.mapping)) {
        if (typeof target !== 'string') continue;
        const at = discriminatorMappingPointer(target);
        if (at === undefined) continue;
        targets.set(tag, at);
        mapped.add(at);
      }
    }
    // Implicit mapping: a schema not in the mapping is selected by its component name.
    for (const at of named) {
      if (mapped.has(at) || !at.startsWith(`${COMPONENT_SCHEMAS}/`)) continue;
      const name = at.slice(COMPONENT_SCHEMAS.length + 1);
      const tag = unescapePointerToken(name);
      if (!name.includes('/') && !targets.has(tag)) targets.set(tag, at);
    }
    return targets.size === 0 ? undefined : { propertyName: discriminator.propertyName, targets, union };
  }

  /**
   * Whether an in-place reference from the schema at `from` to the schema at `to` leads back
   * through `to`'s own union or discriminator dispatch — it then means `to` without them.
   */
  isReferenceBack(from: string, to: string): boolean {
    let members = this.reached.get(to);
    if (members === undefined) {
      members = this.reachThroughUnion(to);
      this.reached.set(to, members);
    }
    return members.has(from);
  }

  /**
   * The `$ref` targets reached in place from the union branches and dispatch targets of the schema
   * at `base` and of the inline schemas in place at its root (`allOf: [$ref Parent, {discriminator}]`),
   * without walking `base` itself again (its other in-place references are no subtype's).
   */
  private reachThroughUnion(base: string): ReadonlySet<string> {
    const members = new Set<string>();
    const node = resolveJsonPointer(this.document, base);
    if (!isJsonObject(node) || this.isPlainRef(node)) return members;

    const pending: PendingSchema[] = [];
    const expanded = new Set<string>([base]);
    const reach = (pointer: string | undefined): void => {
      if (pointer === undefined) return; // compiling reports the non-local reference
      members.add(pointer);
      if (expanded.has(pointer)) return;
      expanded.add(pointer);
      pending.push({ node: resolveJsonPointer(this.document, pointer), pointer });
    };
    for (const [root, pointer] of this.inlineRoots(node, base)) {
      for (const keyword of UNION_KEYWORDS) {
        const branches = root[keyword];
        if (Array.isArray(branches)) for (const branch of branches) pending.push({ node: branch });
      }
      for (const target of this.discriminatorOf(root, pointer)?.targets.values() ?? []) reach(target);
    }

    let visited = 0;
    while (pending.length > 0) {
      const { node: schema, pointer } = pending.pop()!;
      if (!isJsonObject(schema)) continue;
      if (++visited > this.maxNodes) throw nodeBudgetExceeded(this.maxNodes);
      if (typeof schema.$ref === 'string') {
        reach(refToPointer(schema.$ref));
        if (this.dialect === '3.0') continue; // 3.0 ignores the siblings of `$ref`
      }
      for (const keyword of IN_PLACE_KEYWORDS) {
        const value = schema[keyword];
        const subschemas = Array.isArray(value)
          ? value
          : SCHEMA_MAP_KEYWORDS.has(keyword) && isJsonObject(value) ? Object.values(value) : [value];
        for (const item of subschemas) pending.push({ node: item });
      }
      for (const target of this.discriminatorOf(schema, pointer)?.targets.values() ?? []) reach(target);
    }
    return members;
  }

  /**
   * The schema at `pointer` and the inline schemas in place at its root, through in-place keywords
   * only and no `$ref` (a `$ref` names another schema, such as the base's own parent), each with its
   * pointer where it has one (only the root: inline schemas cannot be named).
   */
  private inlineRoots(node: JsonObject, pointer: string): Array<[JsonObject, string | undefined]> {
    const roots: Array<[JsonObject, string | undefined]> = [[node, pointer]];
    for (let i = 0; i < roots.length && roots.length <= this.maxNodes; i++) {
      const [schema] = roots[i]!;
      for (const keyword of IN_PLACE_KEYWORDS) {
        if (UNION_KEYWORDS.has(keyword)) continue; // a union's branches are walked as members
        const value = schema[keyword];
        const subschemas = Array.isArray(value) ? value : SCHEMA_MAP_KEYWORDS.has(keyword) && isJsonObject(value) ? Object.values(value) : [value];
        for (const item of subschemas) if (isJsonObject(item) && typeof item.$ref !== 'string') roots.push([item, undefined]);
      }
    }
    return roots;
  }

  /** A 3.0 schema object with `$ref` is only that reference. */
  private isPlainRef(node: JsonObject): boolean {
    return this.dialect === '3.0' && typeof node.$ref === 'string';
  }

  private childrenOf(parent: string): readonly string[] {
    this.children ??= this.indexChildren();
    return this.children.get(parent) ?? [];
  }

  /** Component schemas by the schemas their `allOf` names directly (`Cat: allOf [$ref Pet, ...]`). */
  private indexChildren(): Map<string, string[]> {
    const index = new Map<string, string[]>();
    const schemas = resolveJsonPointer(this.document, COMPONENT_SCHEMAS);
    if (!isJsonObject(schemas)) return index;
    for (const name of Object.keys(schemas)) {
      const schema = schemas[name];
      if (!isJsonObject(schema) || !Array.isArray(schema.allOf) || this.isPlainRef(schema)) continue;
      const child = childPointer(COMPONENT_SCHEMAS, name);
      for (const part of schema.allOf) {
        if (!isJsonObject(part) || typeof part.$ref !== 'string') continue;
        const parent = refToPointer(part.$ref);
        if (parent === undefined || parent === child) continue;
        const siblings = index.get(parent);
        if (siblings === undefined) index.set(parent, [child]);
        else if (!siblings.includes(child)) siblings.push(child);
      }
    }
    return index;
  }
}
