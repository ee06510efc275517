/**
 * The operations of a document, found by method and real path: a find-my-way router for the
 * templates it reads as written, an RE2 matcher list for the others. Building never throws on
 * document content: a template no router accepts is left out (and then reported as not found).
 */
import FindMyWay from 'find-my-way';
import { isJsonObject, type JsonValue } from '../json';
import { HTTP_METHODS } from '../openapi/document';
import type { SafeRegExp } from '../regex';
import { childPointer, followRefs } from './document-pointer';
import type { OperationPlan, OperationSite } from './operation-plan';
import { parameterNames, parseTemplate, toRouterPattern, toTemplateMatcher } from './path-template';

export interface RouteEntry extends OperationSite {
  /** Built on first use. */
  plan: OperationPlan | undefined;
}

/** Parameter values by position key (`p0`...), percent-decoded. */
export type RouteParams = Record<string, string | undefined>;

export interface RouteMatch {
  route: RouteEntry;
  params: RouteParams;
}

export interface RouteTable {
  readonly routes: readonly RouteEntry[];
  find(method: string, path: string): RouteMatch | undefined;
  /** The routes of any method whose template matches `path`, for "method not defined" answers. */
  matchAnyMethod(path: string): RouteEntry[];
}

interface TemplateMatcher {
  method: string;
  matcher: SafeRegExp;
  route: RouteEntry;
}

type RouterMethod = Parameters<FindMyWay.Instance<FindMyWay.HTTPVersion.V1>['find']>[0];

const NO_HANDLER = (): void => undefined;

export function buildRouteTable(document: JsonValue, maxPathChars: number): RouteTable {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: maxPathChars });
  const matchers: TemplateMatcher[] = [];
  const routes: RouteEntry[] = [];
  const methods = new Set<string>();
  const paths = isJsonObject(document) && isJsonObject(document.paths) ? document.paths : {};

  for (const template of Object.keys(paths)) {
    if (!template.startsWith('/')) continue;
    const pathItem = followRefs(document, paths[template], childPointer('/paths', template));
    if (pathItem === undefined) continue;
    const parts = parseTemplate(template);
    const pattern = toRouterPattern(parts);
    for (const method of HTTP_METHODS) {
      if (!isJsonObject(pathItem.node[method])) continue;
      const upper = method.toUpperCase();
      const route: RouteEntry = {
        method: upper,
        template,
        parameterNames: parameterNames(parts),
        pathItemPointer: pathItem.pointer,
        operationPointer: childPointer(pathItem.pointer, method),
        label: `${upper} ${template}`,
        plan: undefined,
      };
      if (pattern !== undefined && addToRouter(router, upper, pattern, route)) {
        routes.push(route);
        methods.add(upper);
        continue;
      }
      const matcher = tryMatcher(parts);
      if (matcher === undefined) continue;
      matchers.push({ method: upper, matcher, route });
      routes.push(route);
      methods.add(upper);
    }
  }
  // No router.compile(): measured on GitHub's 1,200 routes it cost 100 ms and made lookups 3× slower.

  const find = (method: string, path: string): RouteMatch | undefined => {
    const found = router.find(method as RouterMethod, path);
    if (found !== null) return { route: found.store as RouteEntry, params: found.params };
    return matchers.length === 0 ? undefined : findByMatcher(matchers, method, path);
  };
  return {
    routes,
    find,
    matchAnyMethod(path) {
      const matched: RouteEntry[] = [];
      for (const method of methods) {
        const match = find(method, path);
        if (match !== undefined) matched.push(match.route);
      }
      return matched;
    },
  };
}

/** False when find-my-way refuses the route (a duplicate after normalisation, syntax it rejects). */
function addToRouter(router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>, method: string, pattern: string, route: RouteEntry): boolean {
  try {
    router.on(method as RouterMethod, pattern, NO_HANDLER, route);
    return true;
  } catch {
    return false;
  }
}

function tryMatcher(parts: ReturnType<typeof parseTemplate>): SafeRegExp | undefined {
  try {
    return toTemplateMatcher(parts);
  } catch {
    return undefined;
  }
}

function findByMatcher(matchers: readonly TemplateMatcher[], method: string, path: string): RouteMatch | undefined {
  for (const { method: routeMethod, matcher, route } of matchers) {
    if (routeMethod !== method) continue;
    const match = matcher.exec(path);
    if (match === null) continue;
    const params: RouteParams = {};
    for (let i = 1; i < match.length; i++) params[`p${i - 1}`] = decodePathSegment(match[i]!);
    return { route, params };
  }
  return undefined;
}

function decodePathSegment(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
