/**
 * Field-level impact (CanIDeployRequest.field_level_impact): a breaking change to a response field
 * that none of a consumer's used fields reaches is set aside for that consumer. A change that names
 * no response field (an endpoint removed, a request change) always stays relevant.
 *
 * The engine reports a change to a reusable schema once, under the shortest of the field paths that
 * reach it (`author.login` for a `User` that is also `owner`), and a recursive schema's change under
 * its first level only. So a change whose node is inside a reusable schema also reaches every used
 * field that reads the same field of that schema at any depth (`owner.login`, `children[].name`).
 * Map keys are `*` in changes and real keys in used fields (`labels.en.m` reads `labels.*.m`).
 */
import type { BreakingChangeRecord } from '../../shared/compare';
import { unescapePointerToken } from '../../shared/json';

const RESPONSE_FIELD = /: response [^ ]+ (?:\([^)]*\) )?field "([^"]+)"/;
/** The `(at #/...)` location every engine description ends with. */
const CHANGE_POINTER = /\(at #([^()]*)\)$/;
/** A reusable schema's root in the pointer of a change: 3.x components, Swagger 2.0 definitions. */
const REUSABLE_SCHEMA = /^\/(?:components\/schemas|definitions)\/[^/]+/;

/** The response field a change is about (`profile.age`), or undefined. */
export function changedResponseField(change: BreakingChangeRecord): string | undefined {
  return RESPONSE_FIELD.exec(change.description)?.[1];
}

/** True when reading `used` touches `changed`: the same field, a field inside it, or a field that contains it. */
export function fieldReaches(used: string, changed: string): boolean {
  const a = fieldSegments(used);
  const b = fieldSegments(changed);
  return matchesFrom(a, 0, b);
}

/**
 * The field path of the changed node inside the reusable schema that holds it (`login` for
 * `#/components/schemas/User/properties/login`), or undefined when the node is in no such schema.
 */
export function reusableSchemaField(change: BreakingChangeRecord): string | undefined {
  const pointer = CHANGE_POINTER.exec(change.description)?.[1];
  const root = pointer === undefined ? null : REUSABLE_SCHEMA.exec(pointer);
  if (pointer === undefined || root === null) return undefined;
  const tokens = pointer.slice(root[0].length).split('/').slice(1).map(unescapePointerToken);
  const segments: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token === 'properties' && i + 1 < tokens.length) segments.push(tokens[++i]!);
    else if (token === 'additionalProperties') segments.push('*');
    else if (token === 'allOf' || token === 'oneOf' || token === 'anyOf' || token === 'prefixItems') i++;
    // `items` adds no segment (`[]` is left out when paths are compared); other keywords stay on the field.
  }
  return segments.length === 0 ? undefined : segments.join('.');
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
    if (field === undefined || used === undefined || used.length === 0 || used.some((path) => reaches(path, field, change))) reached.push(change);
    else unreached.push(change);
  }
  return { reached, unreached };
}

function reaches(used: string, field: string, change: BreakingChangeRecord): boolean {
  if (fieldReaches(used, field)) return true;
  const inSchema = reusableSchemaField(change);
  if (inSchema === undefined) return false;
  const usedSegments = fieldSegments(used);
  const schemaSegments = fieldSegments(inSchema);
  for (let start = 0; start < usedSegments.length; start++) {
    if (matchesFrom(usedSegments, start, schemaSegments)) return true;
  }
  return false;
}

/** Whether `used` from `start` and `changed` agree on every segment both have (`*` matches any). */
function matchesFrom(used: readonly string[], start: number, changed: readonly string[]): boolean {
  const length = Math.min(used.length - start, changed.length);
  for (let i = 0; i < length; i++) {
    const a = used[start + i]!;
    const b = changed[i]!;
    if (a !== b && a !== '*' && b !== '*') return false;
  }
  return true;
}

function fieldSegments(path: string): string[] {
  return path.replace(/\[\]/g, '').split('.').filter((segment) => segment !== '');
}
