/**
 * Path patterns of `includePaths` / `excludePaths`: `*` matches within one segment (`/users/*`),
 * `**` matches any number of segments, none included (`/api/**` matches `/api` and `/api/a/b`).
 * Everything else is literal. Patterns match the path without its query string.
 */
import { invalidUse } from '../client-error';

export type PathPredicate = (pathname: string) => boolean;

export function compilePathPatterns(option: string, patterns: readonly string[] | undefined): PathPredicate | undefined {
  if (patterns === undefined) return undefined;
  if (!Array.isArray(patterns)) throw invalidUse(`${option} must be an array of path patterns`);
  const compiled = patterns.map((pattern, index) => {
    if (typeof pattern !== 'string' || !pattern.startsWith('/')) {
      throw invalidUse(`${option}[${index}] must be a path pattern starting with "/" (got ${JSON.stringify(pattern)})`);
    }
    return compilePattern(pattern);
  });
  return (pathname) => compiled.some((regexp) => regexp.test(pathname));
}

function compilePattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (pattern.startsWith('/**', i) && (i + 3 === pattern.length || pattern[i + 3] === '/')) {
      source += '(?:/.*)?'; // "/**" — any number of segments, or none
      i += 2;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  // A trailing slash is not significant: "/users" and "/users/" are the same resource.
  return new RegExp(`^${source}/?$`);
}
