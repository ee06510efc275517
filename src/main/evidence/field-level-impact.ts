/**
 * Field-level impact (CanIDeployRequest.field_level_impact): a breaking change to a response field
 * that none of a consumer's used fields reaches is set aside for that consumer. A change that names
 * no response field (an endpoint removed, a request change) always stays relevant.
 */
import type { BreakingChangeRecord } from '../../shared/compare';

const RESPONSE_FIELD = /: response [^ ]+ (?:\([^)]*\) )?field "([^"]+)"/;

/** The response field a change is about (`profile.age`), or undefined. */
export function changedResponseField(change: BreakingChangeRecord): string | undefined {
  return RESPONSE_FIELD.exec(change.description)?.[1];
}

/** True when reading `used` touches `changed`: the same field, a field inside it, or a field that contains it. */
export function fieldReaches(used: string, changed: string): boolean {
  const a = stripItems(used);
  const b = stripItems(changed);
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/** Splits changes into those that reach the used fields of their endpoint and those that do not. */
export function splitByUsedFields(
  changes: readonly BreakingChangeRecord[],
  usedFieldsOf: (change: BreakingChangeRecord) => readonly string[] | undefined,
): { reached: BreakingChangeRecord[]; unreached: BreakingChangeRecord[] } {
  const reached: BreakingChangeRecord[] = [];
  const unreached: BreakingChangeRecord[] = [];
  for (const change of changes) {
    const field = changedResponseField(change);
    const used = usedFieldsOf(change);
    // Unknown used fields (none declared or observed for the endpoint) keep the change: no evidence it is safe.
    if (field === undefined || used === undefined || used.length === 0 || used.some((path) => fieldReaches(path, field))) reached.push(change);
    else unreached.push(change);
  }
  return { reached, unreached };
}

function stripItems(path: string): string {
  return path.replace(/\[\]/g, '');
}
