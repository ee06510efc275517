/**
 * Finds the operation (path template) a real request path belongs to: literal segments before
 * parameters, as routers do, so `/users/me` wins over `/users/{id}`. Built from a version's
 * operations as the schema registry lists them (off the main thread, SchemaRegistry.operations),
 * never from the parsed document; one matcher per version, kept by content hash.
 */
import type { OperationSummary } from '../../shared/openapi/operations';
import { LIMITS } from '../../shared/limits';
import { withoutTrailingSlashes } from '../../shared/text';

export type DocumentedOperation = Pick<OperationSummary, 'method' | 'path' | 'operationId' | 'statuses'>;

interface Route {
  operation: DocumentedOperation;
  segments: string[];
  /** Literal segments count; more is more specific. */
  literals: number;
}

/**
 * The routes of one method and segment count, in the order they are tried, indexed by position:
 * a match is a few bitset operations per segment instead of a check of every route (a version of
 * 20,000 operations of 20 segments cost 5 ms of main thread per recorded interaction, and held
 * another caller's calls about a second).
 */
interface RouteGroup {
  operations: DocumentedOperation[];
  /** 32-bit words of a set of these routes. */
  words: number;
  /** Per position: the routes with a parameter there (any non-empty segment matches it). */
  params: Uint32Array[];
  /** Per position: the routes by their literal segment there; a set, or its indices (one as a number) when they are few. */
  literals: Array<Map<string, Uint32Array | number[] | number>>;
}

export class OperationMatcher {
  readonly operations: DocumentedOperation[];
  /** By `METHOD segment-count`. */
  readonly #groups = new Map<string, RouteGroup>();

  constructor(operations: readonly DocumentedOperation[]) {
    this.operations = [...operations];
    const routes = this.operations.map((operation) => {
      const segments = splitPath(operation.path);
      return { operation, segments, literals: segments.filter((segment) => !segment.includes('{')).length };
    }).sort((a, b) => b.literals - a.literals);
    const byKey = new Map<string, Route[]>();
    for (const route of routes) {
      const key = `${route.operation.method} ${route.segments.length}`;
      const group = byKey.get(key);
      if (group) group.push(route);
      else byKey.set(key, [route]);
    }
    for (const [key, group] of byKey) this.#groups.set(key, indexRoutes(group));
  }

  /** The operation for a method and a real path (query string ignored), or undefined. */
  match(method: string, realPath: string): DocumentedOperation | undefined {
    const segments = splitPath(realPath.split('?')[0]!);
    const group = this.#groups.get(`${method.toUpperCase()} ${segments.length}`);
    if (!group) return undefined;
    const { words } = group;
    // The routes every segment so far matches, first the most literal ones.
    let candidates = allOf(group.operations.length, words);
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const next = new Uint32Array(words);
      if (segment !== '') for (let w = 0; w < words; w++) next[w] = candidates[w]! & group.params[i]![w]!;
      const literal = group.literals[i]!.get(segment);
      if (typeof literal === 'number') next[literal >>> 5]! |= candidates[literal >>> 5]! & (1 << (literal & 31));
      else if (literal instanceof Uint32Array) for (let w = 0; w < words; w++) next[w]! |= candidates[w]! & literal[w]!;
      else if (literal) for (const index of literal) next[index >>> 5]! |= candidates[index >>> 5]! & (1 << (index & 31));
      candidates = next;
    }
    for (let w = 0; w < words; w++) {
      const bits = candidates[w]!;
      if (bits !== 0) return group.operations[w * 32 + 31 - Math.clz32(bits & -bits)];
    }
    return undefined;
  }
}

function indexRoutes(routes: Route[]): RouteGroup {
  const words = Math.ceil(routes.length / 32);
  const length = routes[0]!.segments.length;
  const params = Array.from({ length }, () => new Uint32Array(words));
  const lists = Array.from({ length }, () => new Map<string, number[]>());
  routes.forEach((route, index) => {
    route.segments.forEach((segment, i) => {
      if (segment.includes('{')) params[i]![index >>> 5]! |= 1 << (index & 31);
      // No recorded path is that long (validationMaxPathChars): left out, the route matches nothing. As a
      // key it would cost: V8 hashes a string over 16 Ki characters by its length alone, and 1,500 such
      // segments of one length took 1.9 s to index.
      else if (segment.length > LIMITS.validationMaxPathChars) return;
      else {
        const list = lists[i]!.get(segment);
        if (list) list.push(index);
        else lists[i]!.set(segment, [index]);
      }
    });
  });
  // A literal shared by many routes is a set: its indices would cost more to walk than the set's words.
  const literals = lists.map((byLiteral) => {
    const indexed = new Map<string, Uint32Array | number[] | number>();
    for (const [literal, indices] of byLiteral) {
      if (indices.length === 1) indexed.set(literal, indices[0]!);
      else if (indices.length <= 4 * words) indexed.set(literal, indices);
      else {
        const set = new Uint32Array(words);
        for (const index of indices) set[index >>> 5]! |= 1 << (index & 31);
        indexed.set(literal, set);
      }
    }
    return indexed;
  });
  return { operations: routes.map((route) => route.operation), words, params, literals };
}

/** The set of the first `count` routes. */
function allOf(count: number, words: number): Uint32Array {
  const set = new Uint32Array(words).fill(0xffffffff);
  if (count % 32 !== 0) set[words - 1] = (2 ** (count % 32)) - 1;
  return set;
}

/** The documented response key a status falls under: exact, then `4XX`, then `default`. */
export function documentedStatusKey(statuses: readonly string[], status: number): string | undefined {
  const exact = String(status);
  if (statuses.includes(exact)) return exact;
  const range = `${exact[0]}XX`;
  const found = statuses.find((key) => key.toUpperCase() === range);
  if (found) return found;
  return statuses.includes('default') ? 'default' : undefined;
}

function splitPath(path: string): string[] {
  return withoutTrailingSlashes(path).split('/').slice(1);
}
