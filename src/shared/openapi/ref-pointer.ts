/** A local `$ref` as the JSON pointer it names, and what a pointer names: for the walks and the resolvers alike. */
import { isJsonObject, unescapePointerToken, type JsonValue } from '../json';

/** `#/components/schemas/Pet` → `/components/schemas/Pet`; undefined for external or malformed references. */
export function refToPointer(ref: string): string | undefined {
  if (!ref.startsWith('#')) return undefined;
  const pointer = decodeFragment(ref.slice(1));
  return pointer !== undefined && (pointer === '' || pointer.startsWith('/')) ? pointer : undefined;
}

/** A `$ref` fragment is URI-encoded; a malformed escape (`%E0`) points nowhere rather than throwing. */
export function decodeFragment(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}

/** The value at an RFC 6901 pointer (`/paths/~1pets/get`, no URI encoding); undefined when there is none. */
export function resolveJsonPointer(root: JsonValue, pointer: string): JsonValue | undefined {
  if (pointer === '') return root;
  let node: JsonValue | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapePointerToken(raw);
    if (Array.isArray(node)) node = /^\d+$/.test(token) ? node[Number(token)] : undefined;
    else if (isJsonObject(node) && Object.prototype.hasOwnProperty.call(node, token)) node = node[token];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
