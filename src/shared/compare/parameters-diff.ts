/**
 * Parameters of one operation, matched by location and name (header names in any case). Path
 * parameters match by their position in the template, since `/users/{id}` and `/users/{userId}`
 * are the same endpoint. Path-item parameters apply unless the operation redefines them.
 */
import { isJsonObject, type JsonObject } from '../json';
import type { OperationEntry } from '../openapi/operations';
import { append } from './found-change';
import type { CompareSession, Side } from './compare-session';
import { childPointer } from './json-pointer';
import { inSection, Section, type OperationChange } from './operation-change';
import type { OperationPointers } from './operation-pointers';
import { pathTemplateParameterNames } from './path-template';
import type { Located } from './resolve-link';
import { diffSchemas } from './schema-diff';
import type { SchemaLink } from './schema-view';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  pointer: string;
  schema: SchemaLink[] | undefined;
}

/** Header parameters OpenAPI says to ignore: they are set by the protocol and security schemes. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export function diffParameters(
  session: CompareSession,
  oldEntry: OperationEntry,
  newEntry: OperationEntry,
  oldPointers: OperationPointers,
  newPointers: OperationPointers,
): OperationChange[] {
  const oldParameters = effectiveParameters(session, 'old', oldEntry, oldPointers);
  const newParameters = effectiveParameters(session, 'new', newEntry, newPointers);
  const changes: OperationChange[] = [];
  for (const key of [...newParameters.keys()].sort()) {
    const added = newParameters.get(key)!;
    const before = oldParameters.get(key);
    const location = `${added.in} parameter "${added.name}"`;
    if (added.required && !before?.required) {
      const what = before ? 'is now required' : 'was added as required';
      append(changes, inSection(Section.PARAMETERS, key, location, [
        { type: 'REQUIRED_PARAMETER_ADDED', field: [], pointer: added.pointer, what, oldValue: before ? 'optional' : 'absent', newValue: 'required' },
      ]));
    }
    if (before?.schema && added.schema) {
      append(changes, inSection(Section.PARAMETERS, key, location, diffSchemas(session, before.schema, added.schema, 'request')));
    }
  }
  return changes;
}

function effectiveParameters(session: CompareSession, side: Side, entry: OperationEntry, pointers: OperationPointers): Map<string, Parameter> {
  const templateNames = pathTemplateParameterNames(entry.path);
  const byKey = new Map<string, Parameter>();
  const declaredAt: Array<[unknown, string]> = [
    [entry.pathItem.parameters, childPointer(pointers.pathItem, 'parameters')],
    [entry.operation.parameters, childPointer(pointers.operation, 'parameters')],
  ];
  for (const [list, listPointer] of declaredAt) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const resolved = session.resolve(side, { node: raw, pointer: childPointer(listPointer, index) });
      const parameter = resolved && readParameter(resolved);
      if (!parameter) return;
      if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) return;
      byKey.set(parameterKey(parameter, templateNames), parameter);
    });
  }
  return byKey;
}

function readParameter({ node, pointer }: Located<JsonObject>): Parameter | undefined {
  if (typeof node.name !== 'string' || typeof node.in !== 'string') return undefined;
  return {
    name: node.name,
    in: node.in,
    required: node.in === 'path' || node.required === true,
    pointer,
    schema: parameterSchema(node, pointer),
  };
}

/** `schema`, or the schema of the first `content` entry (OpenAPI allows exactly one). */
function parameterSchema(node: JsonObject, pointer: string): SchemaLink[] | undefined {
  if (node.schema !== undefined) return [{ node: node.schema, pointer: childPointer(pointer, 'schema') }];
  if (!isJsonObject(node.content)) return undefined;
  for (const [mediaType, media] of Object.entries(node.content)) {
    if (isJsonObject(media) && media.schema !== undefined) {
      return [{ node: media.schema, pointer: childPointer(pointer, 'content', mediaType, 'schema') }];
    }
  }
  return undefined;
}

function parameterKey(parameter: Parameter, templateNames: string[]): string {
  if (parameter.in === 'path') {
    const position = templateNames.indexOf(parameter.name);
    if (position >= 0) return `path#${position}`;
  }
  const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
  return `${parameter.in}:${name}`;
}
