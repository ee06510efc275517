/**
 * Maps a real request path (`/users/123`) to the path template of the schema it exercises
 * (`/users/{id}`). When several templates match, the one with static segments earliest wins, as in
 * the service's router: `/users/me` beats `/users/{id}` for the path `/users/me`.
 *
 * Paths sent through a server URL prefix (`/v1/users/123` for a schema whose server is `…/v1`) match
 * too: leading segments are dropped one at a time, fewest first, until a template matches.
 */

export interface EndpointTemplate {
  method: string;
  path: string;
}

export type EndpointMatcher = (method: string, realPath: string) => EndpointTemplate | undefined;

/** How specific a template segment is; higher ranks win. */
const enum SegmentRank {
  Parameter = 0,
  Mixed = 1,
  Static = 2,
}

interface CompiledSegment {
  rank: SegmentRank;
  matches(segment: string): boolean;
}

interface CompiledTemplate {
  endpoint: EndpointTemplate;
  segments: CompiledSegment[];
}

/** Leading path segments tried as an unknown server prefix. */
const MAX_PREFIX_SEGMENTS = 4;

export function createEndpointMatcher(endpoints: readonly EndpointTemplate[]): EndpointMatcher {
  const byMethodAndLength = new Map<string, CompiledTemplate[]>();
  for (const endpoint of endpoints) {
    const segments = splitPath(endpoint.path).map(compileSegment);
    const key = `${endpoint.method.toUpperCase()} ${segments.length}`;
    const list = byMethodAndLength.get(key) ?? [];
    list.push({ endpoint, segments });
    byMethodAndLength.set(key, list);
  }

  return (method, realPath) => {
    const segments = splitPath(pathnameOf(realPath));
    const upper = method.toUpperCase();
    for (let dropped = 0; dropped <= Math.min(MAX_PREFIX_SEGMENTS, Math.max(0, segments.length - 1)); dropped++) {
      const rest = segments.slice(dropped);
      const best = bestMatch(byMethodAndLength.get(`${upper} ${rest.length}`), rest);
      if (best) return best.endpoint;
    }
    return undefined;
  };
}

function bestMatch(candidates: CompiledTemplate[] | undefined, segments: string[]): CompiledTemplate | undefined {
  let best: CompiledTemplate | undefined;
  for (const candidate of candidates ?? []) {
    if (!candidate.segments.every((compiled, i) => compiled.matches(segments[i]!))) continue;
    if (!best || compareSpecificity(candidate, best) > 0) best = candidate;
  }
  return best;
}

/** Positive when `a` is more specific: the first segment where the ranks differ decides. */
function compareSpecificity(a: CompiledTemplate, b: CompiledTemplate): number {
  for (let i = 0; i < a.segments.length; i++) {
    const difference = a.segments[i]!.rank - b.segments[i]!.rank;
    if (difference !== 0) return difference;
  }
  return 0;
}

function compileSegment(segment: string): CompiledSegment {
  if (!segment.includes('{')) return { rank: SegmentRank.Static, matches: (value) => value === segment };
  if (/^\{[^{}]+\}$/.test(segment)) return { rank: SegmentRank.Parameter, matches: (value) => value !== '' };
  // A segment mixing text and parameters, such as `{name}.{extension}` or `v{major}`.
  const source = segment
    .split(/(\{[^{}]+\})/)
    .map((part) => (/^\{[^{}]+\}$/.test(part) ? '[^/]+' : escapeRegExp(part)))
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return { rank: SegmentRank.Mixed, matches: (value) => pattern.test(value) };
}

/** `/users/42/` → ['users', '42']; the root path is no segments. */
function splitPath(path: string): string[] {
  return path.split('/').filter((segment, index, all) => !(segment === '' && (index === 0 || index === all.length - 1)));
}

/** The path without query string or fragment. */
export function pathnameOf(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
