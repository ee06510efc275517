/**
 * The response fields a consumer saw, as dot paths: every object key at every level (`user`,
 * `user.address`, `user.address.city`), with `[]` marking array items (`items[].id`, or `[].id` for a
 * body that is itself an array). The walk is bounded in depth and in the number of fields collected.
 */
import { encodeBody, parseBodyText } from '../wire';

export const USED_FIELD_LIMITS = Object.freeze({
  /** Deepest nesting walked; deeper fields are left out. */
  maxDepth: 32,
  /** Fields collected per endpoint; the rest are left out. */
  maxFieldsPerEndpoint: 2_000,
});

/** Adds the fields of one response body (a value, or JSON text) to `fields`. */
export function collectUsedFields(body: unknown, fields: Set<string>): void {
  const value = typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer
    ? parseBodyText(encodeBody(body).text)
    : body;
  walk(value, '', 0, fields);
}

function walk(value: unknown, prefix: string, depth: number, fields: Set<string>): void {
  if (depth >= USED_FIELD_LIMITS.maxDepth || value === null || typeof value !== 'object') return;
  if (fields.size >= USED_FIELD_LIMITS.maxFieldsPerEndpoint) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, `${prefix}[]`, depth + 1, fields);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    if (fields.size >= USED_FIELD_LIMITS.maxFieldsPerEndpoint) return;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    fields.add(path);
    walk(child, path, depth + 1, fields);
  }
}
