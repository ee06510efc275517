/**
 * Field paths of a JSON value (dot paths, `[]` for array items, as consumer registrations write
 * them) and a digest of its shape (keys and value types), which names the distinct samples.
 */
import { createHash } from 'node:crypto';

/** Paths of one body at most; the rest are not listed. */
export const MAX_FIELD_PATHS_PER_BODY = 500;
/** Deeper values are not walked. */
export const MAX_FIELD_PATH_DEPTH = 16;
/**
 * A longer path is not listed (nor those under it), and the list counts as cut. V8 hashes a string
 * over 16 Ki characters by its length alone: 499 paths of 17,000 characters in a body, united with
 * a usage row's on the main thread, held other callers' calls 237 ms for 10 interactions.
 */
export const MAX_FIELD_PATH_CHARS = 1_024;

/**
 * A used field that stands for every field: a list of used fields cut at one of its limits ends
 * with it, so that field-level impact counts every change of the endpoint as reached instead of
 * setting aside a change to a field the list had no room for. (It reaches every field path as a
 * map's `*` reaches any key.)
 */
export const ALL_FIELDS = '*';

/**
 * Leaf and object paths of the value, `items[].id` style, at most `limit`; `cut` when the value
 * has more, or a path over MAX_FIELD_PATH_CHARS. Values deeper than MAX_FIELD_PATH_DEPTH are not
 * walked: their deepest listed path reaches them already.
 */
export function fieldPaths(value: unknown, limit = MAX_FIELD_PATHS_PER_BODY): { paths: string[]; cut: boolean } {
  const paths = new Set<string>();
  let cut = false;
  const walk = (node: unknown, prefix: string, depth: number): void => {
    if (cut || depth > MAX_FIELD_PATH_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, `${prefix}[]`, depth + 1);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [name, child] of Object.entries(node as Record<string, unknown>)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (path.length > MAX_FIELD_PATH_CHARS) {
        cut = true;
        return;
      }
      if (!paths.has(path) && paths.size >= limit) {
        cut = true;
        return;
      }
      paths.add(path);
      walk(child, path, depth + 1);
    }
  };
  walk(value, '', 0);
  return { paths: [...paths], cut };
}

/** Used fields as listed, with ALL_FIELDS after them when the list was cut. */
export function usedFieldList(fields: readonly string[], cut: boolean): string[] {
  return cut ? [...fields, ALL_FIELDS] : [...fields];
}

/** A short digest of the value's structure: the same keys and value types give the same digest. */
export function shapeDigest(parts: unknown[]): string {
  const describe = (node: unknown, depth: number): string => {
    if (depth > MAX_FIELD_PATH_DEPTH) return '…';
    if (Array.isArray(node)) return `[${[...new Set(node.map((item) => describe(item, depth + 1)))].sort().join('|')}]`;
    if (node === null) return 'null';
    if (typeof node !== 'object') return typeof node;
    return `{${Object.keys(node as object).sort().map((key) => `${key}:${describe((node as Record<string, unknown>)[key], depth + 1)}`).join(',')}}`;
  };
  return createHash('sha256').update(parts.map((part) => describe(part, 0)).join('\u0000')).digest('base64url').slice(0, 22);
}
