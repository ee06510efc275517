/**
 * Path prefixes from `servers[].url` (for a converted v2 document, its basePath). They are stripped
 * from a real request path only while routes are matched, so `/v1/users/1` and `/users/1` both
 * match `/users/{id}` when a server URL is `https://api.example.com/v1`. When routing, a server
 * variable stands for its default and for each value its `enum` allows.
 */
import { isJsonObject, type JsonValue } from '../json';
import { HTTP_METHODS, type OpenApiDocument } from './document';
import { derefObject } from './refs';
import { withoutTrailingSlashes } from '../text';

/** URLs one server URL expands to through its variables' enums (beyond: the defaults' URL alone). */
const MAX_SERVER_URL_EXPANSIONS = 64;

/** The document's own servers' prefixes with each variable at its default, longest first: the base paths a version is served under. */
export function serverPathPrefixes(document: OpenApiDocument): string[] {
  return basePathsOf(Array.isArray(document.servers) ? document.servers : []);
}

/** The prefixes of a list of servers (a document's, a path item's or an operation's), each variable at its default, longest first. */
export function basePathsOf(servers: readonly JsonValue[]): string[] {
  return prefixesOf(servers, (url, variables) => [withDefaults(url, variables)]);
}

/**
 * The prefixes a request path may carry when routed: the document's servers', and those of the
 * servers a path item (the one its `$ref` names, for a reference) or an operation declares in their
 * place (`/v2` for one path, an upload host's `/upload`). Each is optional for every route, as the
 * document's are.
 */
export function routingPathPrefixes(document: OpenApiDocument): string[] {
  const servers: JsonValue[] = Array.isArray(document.servers) ? [...document.servers] : [];
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const entry of Object.values(paths)) {
    const item = derefObject(document, entry);
    if (item === undefined) continue;
    if (Array.isArray(item.servers)) servers.push(...item.servers);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation) && Array.isArray(operation.servers)) servers.push(...operation.servers);
    }
  }
  return prefixesOf(servers, expandVariables);
}

function prefixesOf(servers: readonly JsonValue[], urlsOf: (url: string, variables: Record<string, unknown>) => string[]): string[] {
  const prefixes = new Set<string>();
  for (const server of servers) {
    if (!isJsonObject(server) || typeof server.url !== 'string') continue;
    for (const url of urlsOf(server.url, isJsonObject(server.variables) ? server.variables : {})) {
      const prefix = normalizePrefix(pathOf(url));
      if (prefix) prefixes.add(prefix);
    }
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

/** The URL with each variable replaced by its default, then by each of its enum's values in turn. */
function expandVariables(url: string, variables: Record<string, unknown>): string[] {
  let urls = [url];
  for (const match of url.matchAll(/\{([^}]+)\}/g)) {
    const variable = variables[match[1]!];
    if (!isJsonObject(variable)) continue;
    const values = new Set<string>();
    if (typeof variable.default === 'string') values.add(variable.default);
    if (Array.isArray(variable.enum)) for (const value of variable.enum) if (typeof value === 'string') values.add(value);
    if (values.size === 0) continue;
    const expanded = urls.flatMap((partial) => [...values].map((value) => partial.replace(match[0], value)));
    if (expanded.length > MAX_SERVER_URL_EXPANSIONS) return [withDefaults(url, variables)];
    urls = expanded;
  }
  return urls;
}

function withDefaults(url: string, variables: Record<string, unknown>): string {
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
  const trimmed = withoutTrailingSlashes(withoutQuery);
  if (trimmed === '' || trimmed.includes('{')) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
