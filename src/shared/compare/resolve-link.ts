/**
 * Following local `$ref`s while remembering where each node lives, so every reported change can
 * name a JSON pointer a reader can open in the document.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { LIMITS } from '../limits';
import { resolvePointer } from '../openapi/refs';

/** Looks a local `$ref` up (callers may cache: a large document repeats the same few thousand). */
export type RefResolver = (ref: string) => JsonValue | undefined;

/** A node of the document and the pointer it was reached by (it may still be a `$ref`). */
export interface Located<T = JsonValue> {
  node: T;
  pointer: string;
}

/** Keys that can sit beside a `$ref` without changing what a schema accepts. */
const ANNOTATION_KEYS = new Set(['$ref', 'description', 'summary', 'title', 'example', 'examples', 'deprecated', 'externalDocs', '$comment']);

/** The object a located value ends at after its `$ref` chain; undefined when dangling or cyclic. */
export function resolveLocated(root: JsonValue, located: Located, resolve: RefResolver = (ref) => resolvePointer(root, ref)): Located<JsonObject> | undefined {
  let { node, pointer } = located;
  for (let hops = 0; hops <= LIMITS.maxRefChainHops; hops++) {
    if (!isJsonObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return { node, pointer };
    const target = resolve(ref);
    if (target === undefined) return undefined;
    node = target;
    pointer = ref;
  }
  return undefined;
}

/**
 * The schema objects a located schema stands for: the end of its `$ref` chain, plus the `$ref`
 * node itself when it carries schema keywords beside the reference (allowed in OpenAPI 3.1, and
 * common in 3.0 documents as `{ $ref, nullable: true }`). Empty when the reference dangles.
 */
export function expandSchemaLink(root: JsonValue, located: Located, resolve: RefResolver = (ref) => resolvePointer(root, ref)): Array<Located<JsonObject>> {
  const parts: Array<Located<JsonObject>> = [];
  let { node, pointer } = located;
  for (let hops = 0; hops <= LIMITS.maxRefChainHops; hops++) {
    if (!isJsonObject(node)) return parts;
    const ref = node.$ref;
    if (typeof ref !== 'string') {
      parts.push({ node, pointer });
      return parts;
    }
    if (hasSchemaKeywordsBesideRef(node)) parts.push({ node: withoutRef(node), pointer });
    const target = resolve(ref);
    if (target === undefined) return parts;
    node = target;
    pointer = ref;
  }
  return parts;
}

function hasSchemaKeywordsBesideRef(node: JsonObject): boolean {
  return Object.keys(node).some((key) => !ANNOTATION_KEYS.has(key) && !key.startsWith('x-'));
}

function withoutRef(node: JsonObject): JsonObject {
  const { $ref: _ref, ...rest } = node;
  return rest;
}
