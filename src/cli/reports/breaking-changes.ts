/**
 * Breaking changes as the command line shows them, whether they come from the local engine
 * (camelCase records) or from the server (proto messages with snake_case fields).
 */
import type { BreakingChange__Output } from '@svc/client/protocol';
import { toBreakingChangeWire } from '../../shared/compare';

export interface ChangeView {
  type: string;
  path: string;
  method: string;
  description: string;
  oldValue: string;
  newValue: string;
}

export function fromProtoChange(change: BreakingChange__Output): ChangeView {
  return {
    type: String(change.type),
    path: change.path,
    method: change.method,
    description: change.description,
    oldValue: change.old_value,
    newValue: change.new_value,
  };
}

/** The JSON shape of a change: the proto's field names, as every `--json` output uses them. */
export const changeToJson = (change: ChangeView) => toBreakingChangeWire(change);

/** `GET /users/{id}`; an empty method or path means the change applies to every one. */
export function endpointOf(change: { method: string; path: string }): string {
  if (!change.method && !change.path) return 'all endpoints';
  return `${change.method || 'every method of'} ${change.path || 'every path'}`;
}

/** The spec's shape: `[<TYPE>] <description>`, then an `Old:` and/or `New:` context line. */
export function changeTextLines(change: ChangeView, indent = ''): string[] {
  const lines = [`${indent}[${change.type}] ${change.description}`];
  if (change.oldValue) lines.push(`${indent}  Old: ${change.oldValue}`);
  if (change.newValue) lines.push(`${indent}  New: ${change.newValue}`);
  return lines;
}

/** `Found 2 breaking changes`. */
export function countLine(count: number): string {
  return `Found ${count} breaking change${count === 1 ? '' : 's'}`;
}
