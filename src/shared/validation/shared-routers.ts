/**
 * find-my-way routers shared by every route table of a thread whose routes are the same (copies of
 * one document, versions that changed no path). find-my-way generates functions per router (a
 * prefix matcher per node, a params factory per route), so each router's code warms on its own
 * calls only, and a lookup site that meets many routers goes megamorphic: with 100 copies of one
 * document shuffled, find-my-way's `find` took about 9× its time for one contract. A router is
 * therefore filed under its exact list of routes and options, and a table that would build the
 * same one takes it. The store of each route holds its index in that list, so each table maps it
 * to its own slot.
 *
 * A router never changes once built, so sharing needs no withdrawal. Entries are weak: a router
 * lives as long as a table holds it.
 */
import { createHash } from 'node:crypto';
import FindMyWay from 'find-my-way';
import { createWeakFiling } from './weak-filing';

export type Router = FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
export type RouterMethod = Parameters<Router['find']>[0];

/** One route offered to a router: find-my-way's method and path pattern. */
export interface RouterRoute {
  readonly method: string;
  readonly pattern: string;
}

/** What find-my-way hands back for a route: its index in the list the router was built from (an object: find-my-way keeps no falsy store). */
export interface RouterStore {
  readonly index: number;
}

export interface SharedRouter {
  /** Each route's store is a RouterStore. */
  readonly router: Router;
  /** Per route of that list: whether find-my-way took it (it refuses duplicates after normalisation, syntax it rejects). */
  readonly accepted: readonly boolean[];
}

const routers = createWeakFiling<SharedRouter>();

const NO_HANDLER = (): void => undefined;

/** The router of `routes` (in this order) with these options: the one a table of this thread holds, or a new one. */
export function sharedRouter(routes: readonly RouterRoute[], maxParamLength: number): SharedRouter {
  const key = createHash('sha256').update(JSON.stringify([maxParamLength, routes.map(({ method, pattern }) => [method, pattern])])).digest('base64');
  const held = routers.get(key);
  if (held !== undefined) return held;
  const built = buildRouter(routes, maxParamLength);
  routers.file(key, built);
  return built;
}

/** Routers filed in this thread (some may have been collected since). */
export function sharedRouterCount(): number {
  return routers.size;
}

function buildRouter(routes: readonly RouterRoute[], maxParamLength: number): SharedRouter {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength });
  const accepted = routes.map(({ method, pattern }, index) => {
    try {
      router.on(method as RouterMethod, pattern, NO_HANDLER, { index } satisfies RouterStore);
      return true;
    } catch {
      return false;
    }
  });
  // No router.compile(): measured on GitHub's 1,200 routes it cost 100 ms and made lookups 3× slower.
  return { router, accepted };
}
