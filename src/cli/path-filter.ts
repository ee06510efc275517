/**
 * `--include-path` and `--exclude-path` of `svc compare`: globs over path templates, where `*` stands
 * for any characters but `/` and `**` for any characters at all (`/admin/**`, `/users/*`). A change
 * that applies to every endpoint (no path) is always kept: no filter can make it irrelevant.
 */
import { UsageError } from 'clipanion';

export interface PathFilter {
  include: readonly RegExp[];
  exclude: readonly RegExp[];
}

/** Longest glob accepted; a glob is a path template, and path templates are short. */
const MAX_GLOB_CHARS = 1024;

export function createPathFilter(include: readonly string[], exclude: readonly string[]): PathFilter {
  return { include: include.map((glob) => globToRegExp('--include-path', glob)), exclude: exclude.map((glob) => globToRegExp('--exclude-path', glob)) };
}

export function keepsPath(filter: PathFilter, path: string): boolean {
  if (path === '') return true;
  if (filter.include.length > 0 && !filter.include.some((pattern) => pattern.test(path))) return false;
  return !filter.exclude.some((pattern) => pattern.test(path));
}

function globToRegExp(flag: string, glob: string): RegExp {
  if (!glob.startsWith('/') || glob.length > MAX_GLOB_CHARS) {
    throw new UsageError(`${flag} must be a path glob starting with "/" of at most ${MAX_GLOB_CHARS} characters (got "${glob.slice(0, 80)}")`);
  }
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}
