/**
 * The responses of one operation, per status code. A success status (2xx) the new version no
 * longer declares is RESPONSE_SCHEMA_CHANGED; other statuses may come and go. A status kept (the
 * same code, else a covering range such as 2XX, else for an old range every new code inside it,
 * and for an old `default` that stood for every success, each new success status) has its body,
 * per media type, and its headers compared as response schemas.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import type { OperationEntry } from '../openapi/operations';
import { append } from './found-change';
import type { CompareSession, Side } from './compare-session';
import { childPointer } from './json-pointer';
import { mediaEntries, returnedMedia, schemaOf } from './media-types';
import { inSection, Section, type OperationChange } from './operation-change';
import type { OperationPointers } from './operation-pointers';
import type { Located } from './resolve-link';
import { diffSchemas } from './schema-diff';
import type { FoundChange } from './found-change';

interface StatusEntry {
  /** `200`, `2XX` or `default`. */
  status: string;
  response: Located<JsonObject>;
}

/** Headers a response may declare that OpenAPI says to ignore. */
const IGNORED_RESPONSE_HEADERS = new Set(['content-type']);

export function diffResponses(
  session: CompareSession,
  oldEntry: OperationEntry,
  newEntry: OperationEntry,
  oldPointers: OperationPointers,
  newPointers: OperationPointers,
): OperationChange[] {
  const oldResponses = responsesOf(session, 'old', oldEntry, oldPointers);
  const newResponses = responsesOf(session, 'new', newEntry, newPointers);
  const changes: OperationChange[] = [];
  // An operation that declared no success status promised its successes by `default`: each success
  // status the new version declares carries that promise on.
  const successByDefault = !oldResponses.some((entry) => isSuccess(entry.status));
  for (const old of oldResponses) {
    const kept = keptStatuses(old.status, newResponses);
    if (old.status === 'default' && successByDefault) append(kept, newResponses.filter((entry) => isSuccess(entry.status)));
    if (kept.length === 0) {
      if (isSuccess(old.status)) {
        const remaining = newResponses.map((entry) => entry.status).join(', ') || 'none';
        append(changes, inSection(Section.RESPONSES, old.status, `response ${old.status}`, [
          { type: 'RESPONSE_SCHEMA_CHANGED', field: [], pointer: old.response.pointer, what: 'was removed', oldValue: old.status, newValue: remaining },
        ]));
      }
      continue;
    }
    for (const counterpart of kept) append(changes, diffResponse(session, old, counterpart));
  }
  return changes;
}

function diffResponse(session: CompareSession, old: StatusEntry, counterpart: StatusEntry): OperationChange[] {
  const status = old.status === counterpart.status ? old.status : `${old.status} (now ${counterpart.status})`;
  const changes: OperationChange[] = [];
  const newMedia = mediaEntries(counterpart.response);
  for (const oldMedia of mediaEntries(old.response)) {
    const oldSchema = schemaOf(oldMedia);
    const location = `response ${status} (${oldMedia.type})`;
    const returned = returnedMedia(oldMedia.type, newMedia);
    if (returned.length === 0) {
      const what = newMedia.length === 0 ? 'body was removed' : 'is no longer returned';
      const newValue = newMedia.map((entry) => entry.type).join(', ') || 'no body';
      append(changes, inSection(Section.RESPONSES, old.status, location, [
        { type: 'RESPONSE_SCHEMA_CHANGED', field: [], pointer: oldMedia.pointer, what, oldValue: oldMedia.type, newValue },
      ]));
      continue;
    }
    // A media type declared without a schema (a download: `application/pdf: {}`) only has to be returned still.
    if (!oldSchema) continue;
    for (const media of returned) {
      const newSchema = schemaOf(media);
      if (newSchema) append(changes, inSection(Section.RESPONSES, old.status, location, diffSchemas(session, [oldSchema], [newSchema], 'response')));
    }
  }
  append(changes, diffHeaders(session, old, counterpart, status));
  return changes;
}

/** A declared response header removed or no longer required is breaking for clients that read it. */
function diffHeaders(session: CompareSession, old: StatusEntry, counterpart: StatusEntry, status: string): OperationChange[] {
  const oldHeaders = headersOf(session, 'old', old.response);
  const newHeaders = headersOf(session, 'new', counterpart.response);
  const changes: OperationChange[] = [];
  for (const [name, oldHeader] of oldHeaders) {
    const location = `response ${status} header "${oldHeader.name}"`;
    const newHeader = newHeaders.get(name);
    const found: FoundChange[] = [];
    if (!newHeader) {
      found.push({ type: 'RESPONSE_SCHEMA_CHANGED', field: [], pointer: oldHeader.pointer, what: 'was removed', oldValue: 'present', newValue: 'absent' });
    } else {
      if (oldHeader.node.required === true && newHeader.node.required !== true) {
        found.push({ type: 'RESPONSE_SCHEMA_CHANGED', field: [], pointer: newHeader.pointer, what: 'is no longer required', oldValue: 'required', newValue: 'optional' });
      }
      const oldSchema = headerSchema(oldHeader);
      const newSchema = headerSchema(newHeader);
      if (oldSchema && newSchema) append(found, diffSchemas(session, [oldSchema], [newSchema], 'response'));
    }
    append(changes, inSection(Section.RESPONSES, `${old.status} header ${name}`, location, found));
  }
  return changes;
}

/** A header's schema: its `schema`, or that of its one `content` entry (a header may be described either way). */
function headerSchema(header: Located<JsonObject>): Located<JsonValue> | undefined {
  if (header.node.schema !== undefined) return { node: header.node.schema, pointer: childPointer(header.pointer, 'schema') };
  if (!isJsonObject(header.node.content)) return undefined;
  const [mediaType, media] = Object.entries(header.node.content)[0] ?? [];
  if (!isJsonObject(media) || media.schema === undefined) return undefined;
  return { node: media.schema, pointer: childPointer(header.pointer, 'content', mediaType!, 'schema') };
}

function headersOf(session: CompareSession, side: Side, response: Located<JsonObject>): Map<string, Located<JsonObject> & { name: string }> {
  const headers = new Map<string, Located<JsonObject> & { name: string }>();
  if (!isJsonObject(response.node.headers)) return headers;
  for (const [name, raw] of Object.entries(response.node.headers)) {
    const lower = name.toLowerCase();
    if (IGNORED_RESPONSE_HEADERS.has(lower)) continue;
    const resolved = session.resolve(side, { node: raw, pointer: childPointer(response.pointer, 'headers', name) });
    if (resolved) headers.set(lower, { ...resolved, name });
  }
  return headers;
}

function responsesOf(session: CompareSession, side: Side, entry: OperationEntry, pointers: OperationPointers): StatusEntry[] {
  const responses = entry.operation.responses;
  if (!isJsonObject(responses)) return [];
  const entries: StatusEntry[] = [];
  for (const [key, raw] of Object.entries(responses)) {
    if (key.startsWith('x-')) continue;
    const response = session.resolve(side, { node: raw, pointer: childPointer(pointers.operation, 'responses', key) });
    if (response) entries.push({ status: key.toUpperCase() === 'DEFAULT' ? 'default' : key.toUpperCase(), response });
  }
  return entries.sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : 0));
}

function isSuccess(status: string): boolean {
  return status.startsWith('2');
}

function isRange(status: string): boolean {
  return /^[1-5]XX$/.test(status);
}

/** The new statuses that carry on an old one (see the module comment). */
function keptStatuses(status: string, newResponses: readonly StatusEntry[]): StatusEntry[] {
  const same = newResponses.filter((entry) => entry.status === status);
  if (same.length > 0) return same;
  if (status === 'default') return [];
  if (isRange(status)) return newResponses.filter((entry) => !isRange(entry.status) && entry.status[0] === status[0]);
  return newResponses.filter((entry) => entry.status === `${status[0]}XX`);
}
