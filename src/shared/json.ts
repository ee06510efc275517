/** Plain JSON values, as parsed from schema text or request bodies. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Depth of the deepest array/object nesting, computed without recursion so that a hostile
 * document cannot overflow the stack. Stops early once `limit` is passed.
 */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > limit) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Escapes one JSON-pointer reference token (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Sets an own property, also for `__proto__`, which plain assignment would turn into a prototype change. */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
