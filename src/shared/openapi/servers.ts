/**
 * Path prefixes from `servers[].url` (for a converted v2 document, its basePath). They are stripped
 * from a real request path only while routes are matched, so `/v1/users/1` and `/users/1` both
 * match `/users/{id}` when a server URL is `https://api.example.com/v1`.
 */
import { isJsonObject } from '../json';
import type { OpenApiDocument } from './document';

export function serverPathPrefixes(document: OpenApiDocument): string[] {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const prefixes = new Set<string>();
  for (const server of servers) {
    if (!isJsonObject(server) || typeof server.url !== 'string') continue;
    const url = substituteVariables(server.url, isJsonObject(server.variables) ? server.variables : {});
    const prefix = normalizePrefix(pathOf(url));
    if (prefix) prefixes.add(prefix);
  }
  // Longest first, so `/api/v1` wins over `/api`.
  return [...prefixes].sort((a, b) => b.length - a.length);
}

/** Removes the first matching prefix; the path itself when none matches. */
export function stripServerPrefix(path: string, prefixes: readonly string[]): string {
  for (const prefix of prefixes) {
    if (path === prefix) return '/';
    if (path.startsWith(prefix) && path[prefix.length] === '/') return path.slice(prefix.length);
  }
  return path;
}

function substituteVariables(url: string, variables: Record<string, unknown>): string {
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isJsonObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
}

function pathOf(url: string): string {
  const schemeEnd = url.indexOf('://');
  if (schemeEnd >= 0) {
    const slash = url.indexOf('/', schemeEnd + 3);
    return slash >= 0 ? url.slice(slash) : '';
  }
  if (url.startsWith('//')) {
    const slash = url.indexOf('/', 2);
    return slash >= 0 ? url.slice(slash) : '';
  }
  return url; // a relative server URL such as "/v1"
}

function normalizePrefix(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0]!;
  const trimmed = withoutQuery.replace(/\/+$/, '');
  if (trimmed === '' || trimmed.includes('{')) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
