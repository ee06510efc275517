/**
 * JSON pointers into the document, in canonical RFC 6901 form (`/paths/~1pets/get`, no URI
 * encoding). Plans and compiled schemas are keyed by them, so a component reached through
 * different `$ref`s is read and compiled once.
 */
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../json';
import { LIMITS } from '../limits';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';

export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(token)}`;
}

export interface LocatedObject {
  node: JsonObject;
  /** Where the object really is (after following `$ref`s). */
  pointer: string;
}

/**
 * Follows `$ref` chains from an OpenAPI object (parameter, request body, response, header, path
 * item) to the object they end at; undefined for a dangling or cyclic chain or a non-object.
 */
export function followRefs(document: JsonValue, value: JsonValue | undefined, pointer: string): LocatedObject | undefined {
  let node = value;
  let at = pointer;
  for (let hops = 0; hops <= LIMITS.maxRefChainHops; hops++) {
    if (!isJsonObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return { node, pointer: at };
    const next = refToPointer(ref);
    if (next === undefined) return undefined;
    node = resolveJsonPointer(document, next);
    at = next;
  }
  return undefined;
}

/** The object at `pointer`, when there is one. */
export function locate(document: JsonValue, pointer: string): LocatedObject | undefined {
  const node = resolveJsonPointer(document, pointer);
  return isJsonObject(node) ? { node, pointer } : undefined;
}
