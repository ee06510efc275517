/**
 * JSON pointers into the document, in canonical RFC 6901 form (`/paths/~1pets/get`, no URI
 * encoding). Plans and compiled schemas are keyed by them, so a component reached through
 * different `$ref`s is read and compiled once.
 */
import { escapePointerToken, isJsonObject, unescapePointerToken, type JsonObject, type JsonValue } from '../json';

/** Longest chain of `$ref` → `$ref` followed before giving up (cycles end there too). */
const MAX_REF_HOPS = 32;

export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${escapePointerToken(token)}`;
}

/** `#/components/schemas/Pet` → `/components/schemas/Pet`; undefined for external or malformed references. */
export function refToPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  return pointer === '' || pointer.startsWith('/') ? pointer : undefined;
}

export function resolvePointer(document: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === '') return document;
  let node: JsonValue | undefined = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapePointerToken(raw);
    if (Array.isArray(node)) node = /^\d+$/.test(token) ? node[Number(token)] : undefined;
    else if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
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
  for (let hops = 0; hops <= MAX_REF_HOPS; hops++) {
    if (!isJsonObject(node)) return undefined;
    const ref = node.$ref;
    if (typeof ref !== 'string') return { node, pointer: at };
    const next = refToPointer(ref);
    if (next === undefined) return undefined;
    node = resolvePointer(document, next);
    at = next;
  }
  return undefined;
}

/** The object at `pointer`, when there is one. */
export function locate(document: JsonValue, pointer: string): LocatedObject | undefined {
  const node = resolvePointer(document, pointer);
  return isJsonObject(node) ? { node, pointer } : undefined;
}
