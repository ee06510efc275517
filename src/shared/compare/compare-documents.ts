/**
 * The breaking-change engine: two OpenAPI 3.x documents (as `loadSchema` returns them, `$ref`s
 * kept) → the changes that can break a client written against the old one. Pure: no I/O, no
 * global state; bounded by CompareOptions so no accepted document can make it hang.
 */
import { limitExceeded } from '../errors';
import { HTTP_METHODS, type OpenApiDocument } from '../openapi/document';
import { listOperations, type OperationEntry } from '../openapi/operations';
import { isJsonObject, type JsonValue } from '../json';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';
import { basePathsOf, serverPathPrefixes } from '../openapi/servers';
import { breakingChangeChars, type BreakingChangeRecord } from './breaking-change';
import { sortChanges, type SortableChange } from './change-order';
import { compareLimits, type CompareOptions } from './compare-options';
import { createCompareSession, type CompareSession } from './compare-session';
import { formatField } from './found-change';
import { inSection, oncePerNodeAndLocation, Section, type OperationChange } from './operation-change';
import { operationPointers, type OperationPointers } from './operation-pointers';
import { diffParameters } from './parameters-diff';
import { normalizePathTemplate } from './path-template';
import { diffRequestBody } from './request-body-diff';
import { diffResponses } from './responses-diff';

/**
 * Every breaking change from `oldDoc` to `newDoc`, in the order documented in change-order.ts.
 * Throws SvcError LIMIT_EXCEEDED when the comparison would pass `options.maxSteps`,
 * `options.maxDepth` or `options.maxChanges` (never a partial answer: a gate must not call a
 * half-compared change safe).
 */
export function compareDocuments(oldDoc: OpenApiDocument, newDoc: OpenApiDocument, options?: CompareOptions): BreakingChangeRecord[] {
  const limits = compareLimits(options);
  const session = createCompareSession(oldDoc, newDoc, limits);
  const found: SortableChange[] = [];

  const newEntries = listOperations(newDoc);
  const newOperations = new Map<string, OperationEntry>();
  for (const entry of newEntries) {
    const key = operationKey(entry);
    if (!newOperations.has(key)) newOperations.set(key, entry);
  }
  const oldOperations = listOperations(oldDoc);
  const moved = basePathMoves(oldDoc, newDoc, oldOperations, newEntries);
  let chars = 0;
  const list = (change: SortableChange) => {
    found.push(change);
    // Each change repeats its path (and pointer, field and values): 8,000 changes of one operation with
    // a 10,000-character path made a 36 KB pair of documents list 161 M characters, built for 21 s and
    // sent to the main thread (900 MB of memory) for an answer too large for any gRPC message.
    chars += breakingChangeChars(change.record);
    if (chars > limits.maxChangeChars) {
      throw limitExceeded(`the breaking changes between the versions take more than ${limits.maxChangeChars} characters to list (compareMaxChangeChars: their paths, descriptions and values), too many to list; they are not compatible`);
    }
  };
  for (const change of moved.changes) list(change);
  for (const oldEntry of oldOperations) {
    session.step();
    const newEntry = moved.counterparts.get(oldEntry) ?? newOperations.get(operationKey(oldEntry));
    const changes = newEntry ? diffOperation(session, oldEntry, newEntry) : [endpointRemoved(oldDoc, oldEntry)];
    for (const change of changes) list(toSortable(oldEntry, change));
    if (found.length > limits.maxChanges) {
      // 143,220 changes made a 35 MB answer that took the main thread 0.6 s to encode; no reader needs them all.
      throw limitExceeded(`the versions differ by more than ${limits.maxChanges} breaking changes (compareMaxChanges), too many to list; they are not compatible`);
    }
  }
  return sortChanges(found);
}

function operationKey(entry: OperationEntry): string {
  return `${entry.method} ${normalizePathTemplate(entry.path)}`;
}

function diffOperation(session: CompareSession, oldEntry: OperationEntry, newEntry: OperationEntry): OperationChange[] {
  const oldPointers = operationPointers(session.oldDoc, oldEntry.path, oldEntry.method);
  const newPointers = operationPointers(session.newDoc, newEntry.path, newEntry.method);
  return oncePerNodeAndLocation([
    ...endpointBasePathChange(session, oldPointers, newPointers),
    ...diffParameters(session, oldEntry, newEntry, oldPointers, newPointers),
    ...diffRequestBody(session, oldEntry, newEntry, oldPointers, newPointers),
    ...diffResponses(session, oldEntry, newEntry, oldPointers, newPointers),
  ]);
}

function endpointRemoved(oldDoc: OpenApiDocument, entry: OperationEntry): OperationChange {
  const endpoint = `${entry.method} ${entry.path}`;
  const [removed] = inSection(Section.ENDPOINT, '', 'endpoint', [
    { type: 'ENDPOINT_REMOVED', field: [], pointer: operationPointers(oldDoc, entry.path, entry.method).operation, what: 'was removed', oldValue: endpoint, newValue: '' },
  ]);
  return removed!;
}

/**
 * When no base path of the old version is served any more: each old endpoint whose whole URL (base
 * path and template) the new version still serves, under its new base path and template, is
 * matched to that endpoint (a base path moved into the templates, `/v1` + `/x` → `/` + `/v1/x`,
 * moves nothing); if any other endpoint is left, the change of base path is reported once.
 */
function basePathMoves(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  oldOperations: readonly OperationEntry[],
  newOperations: readonly OperationEntry[],
): { changes: SortableChange[]; counterparts: Map<OperationEntry, OperationEntry> } {
  const counterparts = new Map<OperationEntry, OperationEntry>();
  const oldPrefixes = prefixesOrRoot(oldDoc);
  const newPrefixes = prefixesOrRoot(newDoc);
  const moved = baseMove(oldPrefixes, newPrefixes);
  if (!moved) return { changes: [], counterparts };
  const byUrl = new Map<string, OperationEntry>();
  for (const entry of newOperations) {
    for (const prefix of newPrefixes) {
      const key = urlKey(entry.method, prefix, entry.path);
      if (!byUrl.has(key)) byUrl.set(key, entry);
    }
  }
  for (const entry of oldOperations) {
    const counterpart = oldPrefixes.map((prefix) => byUrl.get(urlKey(entry.method, prefix, entry.path))).find((found) => found !== undefined);
    if (counterpart) counterparts.set(entry, counterpart);
  }
  return { changes: counterparts.size === oldOperations.length ? [] : basePathChanged(moved), counterparts };
}

/** An operation's whole URL by shape: its base path joined to its template. */
function urlKey(method: string, prefix: string, path: string): string {
  return `${method} ${normalizePathTemplate(prefix === '/' ? path : `${prefix}${path}`)}`;
}

/**
 * Every endpoint moves when none of the old server base paths (`servers[].url` paths, a
 * Swagger 2.0 basePath) is served any more: one change with an empty path and method, which
 * applies to every consumer.
 */
function basePathChanged({ oldValue, newValue }: BaseMove): SortableChange[] {
  return [{
    record: {
      type: 'ENDPOINT_REMOVED',
      path: '',
      method: '',
      description: `Every endpoint: the server base path ${oldValue} is no longer served (now ${newValue}) (at #/servers)`,
      oldValue,
      newValue,
    },
    methodRank: -1,
    section: Section.ENDPOINT,
    sectionKey: '',
    field: '',
  }];
}

/**
 * An endpoint whose own servers (its path item's or its operation's, in place of the document's)
 * serve none of its old base paths any more: clients call an address it no longer answers. A
 * change of the document's servers is reported once for every endpoint (basePathMoves).
 */
function endpointBasePathChange(session: CompareSession, oldPointers: OperationPointers, newPointers: OperationPointers): OperationChange[] {
  const oldOwn = ownServers(session.oldDoc, oldPointers);
  const newOwn = ownServers(session.newDoc, newPointers);
  if (oldOwn === undefined && newOwn === undefined) return [];
  const oldPrefixes = orRoot(oldOwn ? basePathsOf(oldOwn.servers) : serverPathPrefixes(session.oldDoc));
  const newPrefixes = orRoot(newOwn ? basePathsOf(newOwn.servers) : serverPathPrefixes(session.newDoc));
  const moved = baseMove(oldPrefixes, newPrefixes);
  if (!moved) return [];
  const { oldValue, newValue } = moved;
  return inSection(Section.ENDPOINT, '', 'endpoint', [{
    type: 'ENDPOINT_REMOVED', field: [], pointer: (newOwn ?? oldOwn)!.pointer,
    what: `is no longer served under the server base path ${oldValue} (now ${newValue})`, oldValue, newValue,
  }]);
}

interface BaseMove {
  oldValue: string;
  newValue: string;
}

/** The old and new base paths, listed, when none of the old ones is served any more; undefined while one is. */
function baseMove(oldPrefixes: readonly string[], newPrefixes: readonly string[]): BaseMove | undefined {
  if (oldPrefixes.some((prefix) => newPrefixes.includes(prefix))) return undefined;
  return { oldValue: oldPrefixes.join(', '), newValue: newPrefixes.join(', ') };
}

/** The servers an operation declares, else those of its path item, with where they are; undefined when it uses the document's. */
function ownServers(document: OpenApiDocument, pointers: OperationPointers): { servers: JsonValue[]; pointer: string } | undefined {
  for (const owner of [pointers.operation, pointers.pathItem]) {
    const node = resolveJsonPointer(document, refToPointer(owner) ?? '');
    if (isJsonObject(node) && Array.isArray(node.servers)) return { servers: node.servers, pointer: `${owner}/servers` };
  }
  return undefined;
}

function orRoot(prefixes: string[]): string[] {
  return prefixes.length > 0 ? prefixes : ['/'];
}

function prefixesOrRoot(document: OpenApiDocument): string[] {
  return orRoot(serverPathPrefixes(document));
}

function toSortable(entry: OperationEntry, change: OperationChange): SortableChange {
  const field = formatField(change.field);
  const where = field ? `${change.location} field "${field}"` : change.location;
  return {
    record: {
      type: change.type,
      path: entry.path,
      method: entry.method,
      description: `${entry.method} ${entry.path}: ${where} ${change.what} (at ${change.pointer})`,
      oldValue: change.oldValue,
      newValue: change.newValue,
    },
    methodRank: HTTP_METHODS.indexOf(entry.method.toLowerCase() as (typeof HTTP_METHODS)[number]),
    section: change.section,
    sectionKey: change.sectionKey,
    field,
  };
}
