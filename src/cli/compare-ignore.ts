/**
 * The `--ignore FILE` of `svc compare`: changes a team has accepted, each with a reason and an optional
 * expiry date. A YAML or JSON list (or `{ignore: [...]}`) of entries:
 *
 *   - id: response-property-removed   # rule id (see docs/cli.md), required
 *     path: /users/{id}               # path template, required ("" for changes to every endpoint)
 *     method: GET                     # optional: every method when absent
 *     reason: clients moved to /v2    # required: why it is safe
 *     expires: 2026-06-30             # optional: from the day after, the entry fails the comparison
 *
 * An expired entry fails loudly (exit 1, naming the entry) instead of silently hiding a change again
 * or silently no longer hiding it: the team decides anew.
 */
import { parse as parseYaml } from 'yaml';
import { invalidArgument } from '../shared/errors';
import { LIMITS } from '../shared/limits';
import type { ReportedChange } from '../shared/compare/reported-change';
import { readTextFile } from './input-files';

export interface IgnoreEntry {
  id: string;
  path: string;
  method?: string;
  reason: string;
  /** `YYYY-MM-DD`, inclusive. */
  expires?: string;
}

const IGNORE_FILE_LIMIT = { maxBytes: LIMITS.cliMaxInputFileBytes, limitName: 'cliMaxInputFileBytes' };

export async function readIgnoreFile(filePath: string): Promise<IgnoreEntry[]> {
  const text = await readTextFile(filePath, '--ignore file', IGNORE_FILE_LIMIT);
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw invalidArgument(`--ignore file "${filePath}" is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (value === null || value === undefined) return [];
  const list = Array.isArray(value) ? value : (value as { ignore?: unknown }).ignore;
  if (!Array.isArray(list)) throw invalidArgument(`--ignore file "${filePath}" must hold a list of entries (or {"ignore": [...]})`);
  return list.map((entry, index) => checkEntry(entry, `--ignore file "${filePath}" entry ${index + 1}`));
}

function checkEntry(value: unknown, where: string): IgnoreEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(`${where} must be an object`);
  const entry = value as Record<string, unknown>;
  const text = (key: string, required: boolean): string | undefined => {
    const field = entry[key];
    if (field === undefined || field === null) {
      if (required) throw invalidArgument(`${where}: "${key}" is required`);
      return undefined;
    }
    // YAML reads an unquoted date as a Date.
    if (field instanceof Date) return field.toISOString().slice(0, 10);
    if (typeof field !== 'string') throw invalidArgument(`${where}: "${key}" must be a string`);
    return field;
  };
  const id = text('id', true)!;
  const path = text('path', true)!;
  const reason = text('reason', true)!;
  if (reason.trim() === '') throw invalidArgument(`${where}: "reason" must say why the change is accepted`);
  const method = text('method', false);
  const expires = text('expires', false);
  if (expires !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))) {
    throw invalidArgument(`${where}: "expires" must be a date YYYY-MM-DD (got "${expires}")`);
  }
  return { id, path, reason, ...(method ? { method: method.toUpperCase() } : {}), ...(expires ? { expires } : {}) };
}

/** Entries whose expiry date is before `today` (`YYYY-MM-DD`, UTC). */
export function expiredEntries(entries: readonly IgnoreEntry[], today: string): IgnoreEntry[] {
  return entries.filter((entry) => entry.expires !== undefined && entry.expires < today);
}

export function isIgnored(change: ReportedChange, entries: readonly IgnoreEntry[]): boolean {
  return entries.some((entry) =>
    entry.id === change.id && entry.path === change.path && (entry.method === undefined || entry.method === change.method));
}

export function describeEntry(entry: IgnoreEntry): string {
  return `${entry.id} ${entry.method ? `${entry.method} ` : ''}${entry.path || '(every endpoint)'}`;
}
