/** Media types of request and response bodies, compared without parameters and case. */
import { isJsonObject, type JsonObject } from '../json';
import { childPointer } from './json-pointer';
import type { Located } from './resolve-link';

export interface MediaEntry {
  /** Normalised media type (`application/json`). */
  type: string;
  /** Key as written in the document. */
  key: string;
  media: JsonObject;
  pointer: string;
}

/** `Application/JSON; charset=utf-8` → `application/json` */
export function normalizeMediaType(key: string): string {
  return key.split(';', 1)[0]!.trim().toLowerCase();
}

/** The entries of a `content` map, sorted by normalised type. */
export function mediaEntries(holder: Located<JsonObject>): MediaEntry[] {
  const content = holder.node.content;
  if (!isJsonObject(content)) return [];
  const entries: MediaEntry[] = [];
  for (const [key, media] of Object.entries(content)) {
    if (!isJsonObject(media)) continue;
    entries.push({ type: normalizeMediaType(key), key, media, pointer: childPointer(holder.pointer, 'content', key) });
  }
  return entries.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Whether a media range (`application/*`, `*\/*`) or type covers a concrete type. */
export function mediaRangeCovers(range: string, type: string): boolean {
  if (range === type || range === '*/*') return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
}

/**
 * Request side: the new entry that accepts what the client sent under the old type: the same
 * type, else a new range that covers it.
 */
export function acceptingMedia(oldType: string, newEntries: readonly MediaEntry[]): MediaEntry | undefined {
  return newEntries.find((entry) => entry.type === oldType) ?? newEntries.find((entry) => mediaRangeCovers(entry.type, oldType));
}

/**
 * Response side: the new entries the client may now receive where it expected the old type:
 * the same type, else (for an old range such as Swagger 2.0's converted `*\/*`) every new type
 * inside the range.
 */
export function returnedMedia(oldType: string, newEntries: readonly MediaEntry[]): MediaEntry[] {
  const same = newEntries.filter((entry) => entry.type === oldType);
  if (same.length > 0) return same;
  return newEntries.filter((entry) => mediaRangeCovers(oldType, entry.type));
}

export function schemaOf(entry: MediaEntry): Located | undefined {
  return entry.media.schema === undefined ? undefined : { node: entry.media.schema, pointer: childPointer(entry.pointer, 'schema') };
}
