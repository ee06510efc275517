/**
 * The request body of one operation. A body that becomes required (or is added as required) is
 * REQUIRED_FIELD_ADDED; a media type the server no longer accepts is TYPE_CHANGED (the client's
 * body is refused whatever it holds); each media type still accepted is compared as a request
 * schema. A request body that disappears is not breaking: the server ignores what it is sent.
 */
import type { JsonObject } from '../json';
import type { OperationEntry } from '../openapi/operations';
import { append } from './found-change';
import type { CompareSession, Side } from './compare-session';
import { childPointer } from './json-pointer';
import { acceptingMedia, mediaEntries, schemaOf } from './media-types';
import { inSection, Section, type OperationChange } from './operation-change';
import type { OperationPointers } from './operation-pointers';
import type { Located } from './resolve-link';
import { diffSchemas } from './schema-diff';

export function diffRequestBody(
  session: CompareSession,
  oldEntry: OperationEntry,
  newEntry: OperationEntry,
  oldPointers: OperationPointers,
  newPointers: OperationPointers,
): OperationChange[] {
  const oldBody = requestBodyOf(session, 'old', oldEntry, oldPointers);
  const newBody = requestBodyOf(session, 'new', newEntry, newPointers);
  if (!newBody) return [];

  const changes: OperationChange[] = [];
  const wasRequired = oldBody?.node.required === true;
  if (newBody.node.required === true && !wasRequired) {
    const what = oldBody ? 'is now required' : 'was added as required';
    append(changes, inSection(Section.REQUEST_BODY, '', 'request body', [
      { type: 'REQUIRED_FIELD_ADDED', field: [], pointer: newBody.pointer, what, oldValue: oldBody ? 'optional' : 'absent', newValue: 'required' },
    ]));
  }
  if (!oldBody) return changes;

  const newMedia = mediaEntries(newBody);
  for (const oldMedia of mediaEntries(oldBody)) {
    const oldSchema = schemaOf(oldMedia);
    const location = `request body (${oldMedia.type})`;
    const accepting = acceptingMedia(oldMedia.type, newMedia);
    if (!accepting) {
      if (newMedia.length === 0) continue; // no media declared any more: nothing is promised either way
      const offered = newMedia.map((entry) => entry.type).join(', ');
      append(changes, inSection(Section.REQUEST_BODY, oldMedia.type, location, [
        { type: 'TYPE_CHANGED', field: [], pointer: oldMedia.pointer, what: 'is no longer accepted', oldValue: oldMedia.type, newValue: offered },
      ]));
      continue;
    }
    const newSchema = schemaOf(accepting);
    if (!newSchema) continue; // no schema any more: anything is accepted
    // No schema before took any body: compared as the empty schema, the new one's demands show.
    const before = oldSchema ?? { node: {}, pointer: childPointer(oldMedia.pointer, 'schema') };
    append(changes, inSection(Section.REQUEST_BODY, oldMedia.type, location, diffSchemas(session, [before], [newSchema], 'request')));
  }
  return changes;
}

function requestBodyOf(session: CompareSession, side: Side, entry: OperationEntry, pointers: OperationPointers): Located<JsonObject> | undefined {
  if (entry.operation.requestBody === undefined) return undefined;
  return session.resolve(side, { node: entry.operation.requestBody, pointer: childPointer(pointers.operation, 'requestBody') });
}
