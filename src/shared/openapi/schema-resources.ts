/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12, where a `$ref` may name a schema by its `$anchor`
 * (`#positive`), by a fragment relative to the nearest enclosing `$id` (`#/$defs/pos` inside
 * `{$id: 'https://example.com/order'}` means that schema's `$defs`), or by a URI that an `$id` in
 * the same document carries (`https://example.com/pos`). Every engine here follows JSON pointers
 * into the document, so intake rewrites such references to the pointers they resolve to; nothing
 * outside the document is read. A reference that resolves to nothing in the document is left as
 * written, for the checks that follow to refuse (external, or pointing nowhere); so is a
 * document-wide pointer inside an `$id` resource that holds no such path (`#/components/...`, as
 * documents written for 3.0 habits have it).
 */
import type { JsonObject } from '../json';
import { walkDocument } from './document-walk';
import { decodeFragment, pointerToRef, resolveJsonPointer } from './refs';

/** Where a `$ref` stands: its object, and the schema resource around it. */
interface FoundRef {
  readonly node: JsonObject;
  /** The URI of the enclosing schema resource (its `$id`, resolved), '' when none encloses it. */
  readonly base: string;
  /** Where that resource is in the document ('' for the document itself). */
  readonly resourcePointer: string;
}

interface Identifiers {
  /** Resource URI → its pointer. */
  readonly resources: Map<string, string>;
  /** `<resource URI>#<anchor>` → its pointer. */
  readonly anchors: Map<string, string>;
  readonly refs: FoundRef[];
}

/** Rewrites, in place, the `$ref`s of a 3.1 document that name schemas by `$id` or `$anchor`. */
export function resolveSchemaIdentifiers(document: JsonObject): void {
  const found = collectIdentifiers(document);
  if (found.resources.size === 0 && found.anchors.size === 0) return;
  for (const { node, base, resourcePointer } of found.refs) {
    const target = targetPointer(document, node.$ref as string, base, resourcePointer, found);
    if (target !== undefined) node.$ref = pointerToRef(target);
  }
}

function collectIdentifiers(document: JsonObject): Identifiers {
  const found: Identifiers = { resources: new Map(), anchors: new Map(), refs: [] };
  walkDocument(document, { base: '', resourcePointer: '' }, (node, pointer, names, outer) => {
    if (names) return outer;
    const resource = typeof node.$id === 'string' ? { base: resolveUri(node.$id, outer.base), resourcePointer: pointer } : outer;
    const { base } = resource;
    if (resource !== outer && !found.resources.has(base)) found.resources.set(base, pointer);
    if (typeof node.$anchor === 'string' && !found.anchors.has(`${base}#${node.$anchor}`)) found.anchors.set(`${base}#${node.$anchor}`, pointer);
    if (typeof node.$ref === 'string') found.refs.push({ node, ...resource });
    return resource;
  });
  return found;
}

/** The pointer a reference resolves to inside the document, when naming a resource or an anchor made it differ from a plain pointer. */
function targetPointer(document: JsonObject, ref: string, base: string, resourcePointer: string, found: Identifiers): string | undefined {
  const hash = ref.indexOf('#');
  const uri = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = decodeFragment(hash < 0 ? '' : ref.slice(hash + 1));
  if (fragment === undefined) return undefined;
  const resource = uri === '' ? base : resolveUri(uri, base);
  const resourceAt = uri === '' ? resourcePointer : found.resources.get(resource);
  if (resourceAt === undefined) return undefined;
  if (fragment === '' || fragment.startsWith('/')) {
    const target = resourceAt + fragment;
    if (uri === '' && target === fragment) return undefined; // a plain pointer into the document
    return resolveJsonPointer(document, target) === undefined ? undefined : target;
  }
  return found.anchors.get(`${resource}#${fragment}`);
}

/** `ref` against `base` without its fragment; relative to nothing, it stays as written (a name the document's `$id`s may share). */
function resolveUri(ref: string, base: string): string {
  const hash = ref.indexOf('#');
  const uri = hash < 0 ? ref : ref.slice(0, hash);
  try {
    return base === '' ? new URL(uri).href : new URL(uri, base).href;
  } catch {
    return uri;
  }
}
