/**
 * Field paths of a JSON value (dot paths, `[]` for array items, as consumer registrations write
 * them) and a digest of its shape (keys and value types), which names the distinct samples.
 */
import { createHash } from 'node:crypto';

/** Paths of one body at most; the rest are not listed. */
export const MAX_FIELD_PATHS_PER_BODY = 500;
/** Deeper values are not walked. */
export const MAX_FIELD_PATH_DEPTH = 16;

/** Leaf and object paths of the value, `items[].id` style, at most `limit`. */
export function fieldPaths(value: unknown, limit = MAX_FIELD_PATHS_PER_BODY): string[] {
  const paths = new Set<string>();
  const walk = (node: unknown, prefix: string, depth: number): void => {
    if (paths.size >= limit || depth > MAX_FIELD_PATH_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, `${prefix}[]`, depth + 1);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [name, child] of Object.entries(node as Record<string, unknown>)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (paths.size >= limit) return;
      paths.add(path);
      walk(child, path, depth + 1);
    }
  };
  walk(value, '', 0);
  return [...paths];
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
