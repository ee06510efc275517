/**
 * A change as the schema walk finds it: its field path is relative to the schema being compared,
 * so a result computed once for a shared component can be reused wherever it is referenced.
 */
import type { BreakingChangeType } from './breaking-change';

/** Field path segments: a property name, ITEMS for array items, EXTRA for additional properties. */
export const ITEMS = '[]';
export const EXTRA = '*';

export interface FoundChange {
  type: BreakingChangeType;
  field: readonly string[];
  /** JSON pointer (`#/...`) of the changed node: in the old document for removals, else in the new one. */
  pointer: string;
  /** What happened, as a phrase that follows the location (`was removed`). */
  what: string;
  oldValue: string;
  newValue: string;
}

export function underField(segment: string, changes: readonly FoundChange[]): FoundChange[] {
  return changes.map((change) => ({ ...change, field: [segment, ...change.field] }));
}

/** `owner.login`, `tags[].name`, `labels.*` */
export function formatField(field: readonly string[]): string {
  let text = '';
  for (const segment of field) {
    if (segment === ITEMS) text += ITEMS;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

/**
 * Keeps one change per changed node (type, pointer, what), by its shortest field path. Applied at
 * every level of the walk: a component reached through many fields (or through a recursive
 * structure) then yields one change, not one per path, so results cannot grow with the number of
 * routes through the document (2^n for n levels of two references each).
 */
export function oncePerNode(changes: readonly FoundChange[]): FoundChange[] {
  return shortestPerKey(changes, (change) => `${change.type}\u0000${change.pointer}\u0000${change.what}`);
}

/** One change per key, the one with the shortest field path (then the first in text order). */
export function shortestPerKey<T extends FoundChange>(changes: readonly T[], keyOf: (change: T) => string): T[] {
  if (changes.length < 2) return changes as T[];
  const kept = new Map<string, T>();
  for (const change of changes) {
    const key = keyOf(change);
    const previous = kept.get(key);
    if (!previous || shorterField(change.field, previous.field)) kept.set(key, change);
  }
  return kept.size === changes.length ? (changes as T[]) : [...kept.values()];
}

function shorterField(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return a.length < b.length;
  return a.join('.') < b.join('.');
}

/** Appends without spreading into call arguments (large lists would overflow the stack). */
export function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
