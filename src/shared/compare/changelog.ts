/**
 * The changes that are not breaking, for `svc compare --changelog` and for the warnings every
 * comparison reports: endpoints added or newly deprecated, optional parameters and properties added,
 * enum values added, request constraints tightened (maxLength, maximum, pattern...), response
 * statuses added. The breaking engine (compare-documents.ts) stays the one authority on `error`s;
 * this walk only adds `warning`s and `info`s, and never repeats what the engine reports.
 *
 * Bounded like the engine: `$ref`s are followed through a visited set, depth and step limits stop
 * any document from making it hang (it then stops early: a changelog entry left out is not a gate).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import type { OpenApiDocument } from '../openapi/document';
import { listOperations, type OperationEntry } from '../openapi/operations';
import { canonicalJson, childPointer } from './json-pointer';
import { normalizePathTemplate } from './path-template';
import type { ReportedChange, Severity } from './reported-change';
import { resolveLocated, type Located } from './resolve-link';
import { operationPointers } from './operation-pointers';

export interface ChangelogLimits {
  /** Deepest schema nesting walked. */
  maxDepth: number;
  /** Schema pairs compared before the walk stops. */
  maxSteps: number;
}

export const CHANGELOG_DEFAULTS: Readonly<ChangelogLimits> = Object.freeze({ maxDepth: 32, maxSteps: 100_000 });

type Direction = 'request' | 'response';

interface Walk {
  oldDoc: OpenApiDocument;
  newDoc: OpenApiDocument;
  limits: ChangelogLimits;
  steps: number;
  out: ReportedChange[];
}

interface Site {
  entry: OperationEntry;
  /** `request body (application/json)`, `query parameter "limit"`, `response 200 (application/json)`. */
  location: string;
  direction: Direction;
}

/** Every non-breaking change from `oldDoc` to `newDoc`, in document order of the new one. */
export function findNonBreakingChanges(oldDoc: OpenApiDocument, newDoc: OpenApiDocument, limits: ChangelogLimits = CHANGELOG_DEFAULTS): ReportedChange[] {
  const walk: Walk = { oldDoc, newDoc, limits, steps: 0, out: [] };
  const oldOperations = new Map(listOperations(oldDoc).map((entry) => [operationKey(entry), entry]));
  for (const newEntry of listOperations(newDoc)) {
    const oldEntry = oldOperations.get(operationKey(newEntry));
    const pointers = operationPointers(newDoc, newEntry.path, newEntry.method);
    if (!oldEntry) {
      report(walk, newEntry, 'endpoint-added', 'info', 'endpoint was added', '', `${newEntry.method} ${newEntry.path}`, pointers.operation);
      continue;
    }
    if (newEntry.operation.deprecated === true && oldEntry.operation.deprecated !== true) {
      report(walk, newEntry, 'endpoint-deprecated', 'warning', 'endpoint is now deprecated', 'not deprecated', 'deprecated', childPointer(pointers.operation, 'deprecated'));
    }
    diffParameters(walk, oldEntry, newEntry);
    diffRequestBodies(walk, oldEntry, newEntry);
    diffResponses(walk, oldEntry, newEntry);
  }
  return walk.out;
}

function operationKey(entry: OperationEntry): string {
  return `${entry.method} ${normalizePathTemplate(entry.path)}`;
}

function report(walk: Walk, entry: OperationEntry, id: string, severity: Severity, what: string, oldValue: string, newValue: string, pointer: string): void {
  walk.out.push({
    id,
    severity,
    breakingType: '',
    path: entry.path,
    method: entry.method,
    description: `${entry.method} ${entry.path}: ${what} (at ${pointer})`,
    oldValue,
    newValue,
    pointer,
  });
}

function resolved(doc: OpenApiDocument, located: Located): Located<JsonObject> | undefined {
  return resolveLocated(doc, located);
}

/** Parameters by `in:name` (header names case-insensitive), path item's first, the operation's overriding. */
function parameters(doc: OpenApiDocument, entry: OperationEntry): Map<string, Located<JsonObject>> {
  const pointers = operationPointers(doc, entry.path, entry.method);
  const found = new Map<string, Located<JsonObject>>();
  const lists: Array<[JsonValue | undefined, string]> = [
    [entry.pathItem.parameters, childPointer(pointers.pathItem, 'parameters')],
    [entry.operation.parameters, childPointer(pointers.operation, 'parameters')],
  ];
  for (const [list, pointer] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => {
      const parameter = resolved(doc, { node: item, pointer: childPointer(pointer, index) });
      if (!parameter || typeof parameter.node.name !== 'string' || typeof parameter.node.in !== 'string') return;
      const name = parameter.node.in === 'header' ? parameter.node.name.toLowerCase() : parameter.node.name;
      found.set(`${parameter.node.in}:${name}`, parameter);
    });
  }
  return found;
}

function diffParameters(walk: Walk, oldEntry: OperationEntry, newEntry: OperationEntry): void {
  const before = parameters(walk.oldDoc, oldEntry);
  for (const [key, parameter] of parameters(walk.newDoc, newEntry)) {
    const location = `${parameter.node.in} parameter "${parameter.node.name}"`;
    const old = before.get(key);
    if (!old) {
      if (parameter.node.required !== true) {
        report(walk, newEntry, 'optional-parameter-added', 'info', `${location} was added (optional)`, 'absent', 'optional', parameter.pointer);
      }
      continue;
    }
    if (parameter.node.deprecated === true && old.node.deprecated !== true) {
      report(walk, newEntry, 'parameter-deprecated', 'warning', `${location} is now deprecated`, 'not deprecated', 'deprecated', parameter.pointer);
    }
    if (old.node.schema !== undefined && parameter.node.schema !== undefined) {
      diffSchema(walk, { entry: newEntry, location, direction: 'request' },
        { node: old.node.schema, pointer: childPointer(old.pointer, 'schema') },
        { node: parameter.node.schema, pointer: childPointer(parameter.pointer, 'schema') }, [], 0, new Set());
    }
  }
}

function mediaMap(body: JsonObject | undefined, pointer: string): Map<string, Located> {
  const content = body && isJsonObject(body.content) ? body.content : {};
  const found = new Map<string, Located>();
  for (const [type, media] of Object.entries(content)) {
    if (isJsonObject(media) && media.schema !== undefined) {
      found.set(type.toLowerCase(), { node: media.schema, pointer: childPointer(pointer, 'content', type, 'schema') });
    }
  }
  return found;
}

function diffRequestBodies(walk: Walk, oldEntry: OperationEntry, newEntry: OperationEntry): void {
  const oldPointers = operationPointers(walk.oldDoc, oldEntry.path, oldEntry.method);
  const newPointers = operationPointers(walk.newDoc, newEntry.path, newEntry.method);
  const oldBody = resolved(walk.oldDoc, { node: oldEntry.operation.requestBody ?? null, pointer: childPointer(oldPointers.operation, 'requestBody') });
  const newBody = resolved(walk.newDoc, { node: newEntry.operation.requestBody ?? null, pointer: childPointer(newPointers.operation, 'requestBody') });
  if (!oldBody || !newBody) return;
  const oldMedia = mediaMap(oldBody.node, oldBody.pointer);
  for (const [type, schema] of mediaMap(newBody.node, newBody.pointer)) {
    const old = oldMedia.get(type);
    if (!old) {
      report(walk, newEntry, 'request-media-type-added', 'info', `request body (${type}) is now accepted`, '', type, schema.pointer);
      continue;
    }
    diffSchema(walk, { entry: newEntry, location: `request body (${type})`, direction: 'request' }, old, schema, [], 0, new Set());
  }
}

function diffResponses(walk: Walk, oldEntry: OperationEntry, newEntry: OperationEntry): void {
  const oldPointers = operationPointers(walk.oldDoc, oldEntry.path, oldEntry.method);
  const newPointers = operationPointers(walk.newDoc, newEntry.path, newEntry.method);
  const oldResponses = isJsonObject(oldEntry.operation.responses) ? oldEntry.operation.responses : {};
  const newResponses = isJsonObject(newEntry.operation.responses) ? newEntry.operation.responses : {};
  for (const status of Object.keys(newResponses)) {
    const newPointer = childPointer(newPointers.operation, 'responses', status);
    const newResponse = resolved(walk.newDoc, { node: newResponses[status]!, pointer: newPointer });
    if (!newResponse) continue;
    if (!(status in oldResponses)) {
      report(walk, newEntry, 'response-status-added', 'info', `response ${status} was added`, '', status, newResponse.pointer);
      continue;
    }
    const oldResponse = resolved(walk.oldDoc, { node: oldResponses[status]!, pointer: childPointer(oldPointers.operation, 'responses', status) });
    if (!oldResponse) continue;
    const oldMedia = mediaMap(oldResponse.node, oldResponse.pointer);
    for (const [type, schema] of mediaMap(newResponse.node, newResponse.pointer)) {
      const old = oldMedia.get(type);
      if (!old) {
        report(walk, newEntry, 'response-media-type-added', 'info', `response ${status} (${type}) is now returned`, '', type, schema.pointer);
        continue;
      }
      diffSchema(walk, { entry: newEntry, location: `response ${status} (${type})`, direction: 'response' }, old, schema, [], 0, new Set());
    }
  }
}

/** Keywords whose smaller value accepts less: tightening them in a request may break senders. */
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
/** Keywords whose larger value accepts less. */
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;

function diffSchema(walk: Walk, site: Site, oldLocated: Located, newLocated: Located, field: string[], depth: number, visited: Set<string>): void {
  if (depth > walk.limits.maxDepth || ++walk.steps > walk.limits.maxSteps) return;
  const old = resolved(walk.oldDoc, oldLocated);
  const now = resolved(walk.newDoc, newLocated);
  if (!old || !now) return;
  const pair = `${old.pointer}\u0000${now.pointer}`;
  if (visited.has(pair)) return;
  visited.add(pair);
  const at = field.length > 0 ? `${site.location} field "${field.join('.')}"` : site.location;

  if (now.node.deprecated === true && old.node.deprecated !== true && field.length > 0) {
    report(walk, site.entry, 'property-deprecated', 'info', `${at} is now deprecated`, 'not deprecated', 'deprecated', now.pointer);
  }
  diffEnum(walk, site, at, old.node, now);
  if (site.direction === 'request') diffConstraints(walk, site, at, old.node, now);

  const oldProperties = isJsonObject(old.node.properties) ? old.node.properties : {};
  const newProperties = isJsonObject(now.node.properties) ? now.node.properties : {};
  const newRequired = new Set(Array.isArray(now.node.required) ? now.node.required.filter((name): name is string => typeof name === 'string') : []);
  for (const name of Object.keys(newProperties)) {
    const pointer = childPointer(now.pointer, 'properties', name);
    if (!(name in oldProperties)) {
      // A property added as required in a request is breaking: the engine reports it.
      if (site.direction === 'request' && newRequired.has(name)) continue;
      const id = site.direction === 'request' ? 'request-optional-property-added' : 'response-property-added';
      const fieldName = [...field, name].join('.');
      report(walk, site.entry, id, 'info', `${site.location} field "${fieldName}" was added`, 'absent', site.direction === 'request' ? 'optional' : 'returned', pointer);
      continue;
    }
    diffSchema(walk, site, { node: oldProperties[name]!, pointer: childPointer(old.pointer, 'properties', name) }, { node: newProperties[name]!, pointer }, [...field, name], depth + 1, visited);
  }
  if (old.node.items !== undefined && now.node.items !== undefined) {
    diffSchema(walk, site, { node: old.node.items, pointer: childPointer(old.pointer, 'items') }, { node: now.node.items, pointer: childPointer(now.pointer, 'items') }, [...field.slice(0, -1), `${field.at(-1) ?? ''}[]`], depth + 1, visited);
  }
  for (const keyword of ['allOf', 'oneOf', 'anyOf'] as const) {
    const oldList = old.node[keyword];
    const newList = now.node[keyword];
    if (!Array.isArray(oldList) || !Array.isArray(newList) || oldList.length !== newList.length) continue;
    newList.forEach((item, index) => diffSchema(walk, site,
      { node: oldList[index]!, pointer: childPointer(old.pointer, keyword, index) },
      { node: item, pointer: childPointer(now.pointer, keyword, index) }, field, depth + 1, visited));
  }
}

function diffEnum(walk: Walk, site: Site, at: string, old: JsonObject, now: Located<JsonObject>): void {
  if (!Array.isArray(old.enum) || !Array.isArray(now.node.enum)) return;
  const before = new Set(old.enum.map(canonicalJson));
  const added = now.node.enum.filter((value) => !before.has(canonicalJson(value)));
  if (added.length === 0) return;
  const list = added.map((value) => JSON.stringify(value)).join(', ');
  const pointer = childPointer(now.pointer, 'enum');
  if (site.direction === 'response') {
    // Clients that switch over the old values may not handle the new one.
    report(walk, site.entry, 'response-enum-value-added', 'warning', `${at} may now return ${list}`, canonicalJson(old.enum), canonicalJson(now.node.enum), pointer);
  } else {
    const id = /parameter "/.test(site.location) ? 'parameter-enum-value-added' : 'request-enum-value-added';
    report(walk, site.entry, id, 'info', `${at} now accepts ${list}`, canonicalJson(old.enum), canonicalJson(now.node.enum), pointer);
  }
}

/** Request constraints that now accept less than before: a client sending what was valid may be refused. */
function diffConstraints(walk: Walk, site: Site, at: string, old: JsonObject, now: Located<JsonObject>): void {
  const tightened = (keyword: string, oldValue: JsonValue | undefined, newValue: JsonValue | undefined) => {
    const id = `request-${kebab(keyword)}-tightened`;
    report(walk, site.entry, id, 'warning', `${at} ${keyword} tightened`, oldValue === undefined ? 'none' : String(oldValue), String(newValue), childPointer(now.pointer, keyword));
  };
  for (const keyword of UPPER_BOUNDS) {
    const [before, after] = [old[keyword], now.node[keyword]];
    if (typeof after === 'number' && (typeof before !== 'number' || after < before)) tightened(keyword, before, after);
  }
  for (const keyword of LOWER_BOUNDS) {
    const [before, after] = [old[keyword], now.node[keyword]];
    if (typeof after === 'number' && (typeof before !== 'number' || after > before)) tightened(keyword, before, after);
  }
  if (typeof now.node.pattern === 'string' && now.node.pattern !== old.pattern) tightened('pattern', old.pattern, now.node.pattern);
}

function kebab(keyword: string): string {
  return keyword.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}
