/** Local `$ref` handling: the only references the service ever follows are JSON pointers into the same document. */
import { invalidSchema } from '../errors';
import { LIMITS } from '../limits';
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../json';
import { clip } from '../text';
import { walkDocument } from './document-walk';
import { MAX_QUOTED_CHARS } from './intake-warnings';
import { refToPointer, resolveJsonPointer } from './ref-pointer';

export { decodeFragment, refToPointer, resolveJsonPointer } from './ref-pointer';

/**
 * Throws `Invalid schema:` for the first `$ref` that does not start with '#'. External references
 * (files, URLs, relative paths) are never resolved on the server: they could read local files or
 * reach internal hosts. A `$ref` inside data (an example, a default, an `x-…` extension) is text,
 * not a reference (document-walk.ts).
 */
export function assertOnlyLocalRefs(root: JsonValue): void {
  walkDocument(root, undefined, (node, pointer) => {
    const ref = node.$ref;
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      throw invalidSchema(
        `external $ref "${clip(ref, MAX_QUOTED_CHARS)}" at ${pointer || '/'} is not allowed: only local references starting with '#' are accepted`,
      );
    }
  });
}

/** Resolves a local reference (`#/components/schemas/User`); undefined when it points nowhere. */
export function resolvePointer(root: JsonValue, ref: string): JsonValue | undefined {
  const pointer = refToPointer(ref);
  return pointer === undefined ? undefined : resolveJsonPointer(root, pointer);
}


/**
 * Where a discriminator `mapping` value points (OpenAPI 3): a local reference, or else the name of a
 * schema under components/schemas. Undefined for an external or malformed reference.
 */
export function discriminatorMappingPointer(target: string): string | undefined {
  return target.startsWith('#') ? refToPointer(target) : `/components/schemas/${escapePointerToken(target)}`;
}

/** Whether the discriminator `mapping` value `target` names the schema `ref` refers to. */
export function mappingNamesRef(target: string, ref: string): boolean {
  const at = discriminatorMappingPointer(target);
  return at !== undefined && at === refToPointer(ref);
}


/**
 * Follows `$ref` chains (a reference to a reference...) to the object they end at. Cycles and
 * dangling references end in undefined.
 */
export function derefObject(root: JsonValue, value: JsonValue | undefined, maxHops = LIMITS.maxRefChainHops): JsonObject | undefined {
  let node = value;
  for (let hops = 0; hops <= maxHops; hops++) {
    if (!isJsonObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    node = resolvePointer(root, ref);
  }
  return undefined;
}


/** The local reference to a JSON pointer: `/paths/~1pets` → `#/paths/~1pets`, each token URI-encoded. */
export function pointerToRef(pointer: string): string {
  return `#${pointer.split('/').map((token) => encodeURIComponent(token)).join('/')}`;
}
