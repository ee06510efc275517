/**
 * The operations of a document, found by method and real path: a find-my-way router for the
 * templates it reads as written (shared by the tables of the same routes: shared-routers.ts), an
 * RE2 matcher list for the others. Building never throws on
 * document content: a template no router accepts is left out (and then reported as not found).
 *
 * Which template wins when several match (docs/real-world-documents.md, "Routing"):
 * - the most literal one, segment by segment from the left, whatever the order in the document:
 *   `/v1/things:verb` is a `{name}:verb` route before it is a `{name}` route;
 * - among keys of one path with query selectors (`/#Action=DescribeStacks`), the one whose
 *   selector the request satisfies (query parameters, or headers the operation declares), the
 *   longest selector first; the plain key of the same path when no selector is satisfied.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { HTTP_METHODS } from '../openapi/document';
import { splitQuerySelector } from '../openapi/query-selector-paths';
import { escapeRegExp, type SafeRegExp } from '../regex';
import { childPointer, followRefs, locate } from './document-pointer';
import { headerValue } from './headers';
import type { OperationPlan, OperationSite } from './operation-plan';
import {
  compareSpecificity, parameterNames, parseTemplate, templateSpecificity, toRouterPattern, toTemplateMatcher,
  type Specificity, type TemplatePart,
} from './path-template';
import { decodeComponent, parseQueryString, type QueryValues } from './query-string';
import { sharedRouter, type RouterMethod, type RouterRoute, type RouterStore } from './shared-routers';

/** One item of a path key's query selector, with where the operation reads it. */
export interface RouteSelectorItem {
  readonly name: string;
  readonly value: string | undefined;
  readonly location: 'query' | 'header';
}

export interface RouteEntry extends OperationSite {
  /** Built on first use. */
  plan: OperationPlan | undefined;
  /** Empty for an ordinary path key. */
  readonly selector: readonly RouteSelectorItem[];
}

/**
 * Parameter values by position key (`p0`...), as written in the path: a value is split into its
 * items before each is percent-decoded, so that an encoded comma stays inside its item.
 */
export type RouteParams = Record<string, string | undefined>;

export interface RouteMatch {
  route: RouteEntry;
  params: RouteParams;
}

/** What, besides the path, can select an operation: the query string and the request headers. */
export interface RouteSelectionInput {
  query: string;
  headers: Record<string, string> | undefined;
}

export interface RouteTable {
  readonly routes: readonly RouteEntry[];
  find(method: string, path: string, selection?: RouteSelectionInput): RouteMatch | undefined;
  /** The routes of any method whose template matches `path`, for "method not defined" answers. */
  matchAnyMethod(path: string): RouteEntry[];
}

/** The operations of one method on one path template: one plain key and any number with selectors. */
interface RouteSlot {
  readonly method: string;
  readonly path: string;
  readonly parts: readonly TemplatePart[];
  readonly specificity: Specificity;
  /** Selector routes, longest selector first, then the plain route (if any). */
  readonly routes: RouteEntry[];
  /** Matcher slots more literal than this router slot that may match the same paths. */
  shadowedBy: TemplateMatcher[] | undefined;
  /**
   * The slot of the same method whose template differs from this router slot's only by a
   * trailing slash (`/coupon/` beside `/coupon`): the router, which ignores trailing slashes,
   * refused it, yet a request written with (or without) that slash means it exactly.
   */
  slashTwin: RouteSlot | undefined;
  /** The template as a matcher, for the raw parameter texts of a router slot; built on first use (null: none). */
  rawMatcher?: SafeRegExp | null;
}

interface TemplateMatcher {
  matcher: SafeRegExp;
  slot: RouteSlot;
}

export function buildRouteTable(document: JsonValue, maxPathChars: number): RouteTable {
  const slots = new Map<string, RouteSlot>();
  const routes: RouteEntry[] = [];
  const methods = new Set<string>();
  const paths = isJsonObject(document) && isJsonObject(document.paths) ? document.paths : {};

  for (const template of Object.keys(paths)) {
    if (!template.startsWith('/')) continue;
    const pathItem = followRefs(document, paths[template], childPointer('/paths', template));
    if (pathItem === undefined) continue;
    const { path, selector } = splitQuerySelector(template);
    const parts = parseTemplate(path);
    for (const method of HTTP_METHODS) {
      if (!isJsonObject(pathItem.node[method])) continue;
      const upper = method.toUpperCase();
      const operationPointer = childPointer(pathItem.pointer, method);
      const route: RouteEntry = {
        method: upper,
        template,
        parameterNames: parameterNames(parts),
        pathItemPointer: pathItem.pointer,
        operationPointer,
        label: `${upper} ${template}`,
        plan: undefined,
        selector: selector.map((item) => ({ ...item, location: selectorLocation(document, pathItem.node, pathItem.node[method] as JsonObject, item.name) })),
      };
      // Keys that differ only in parameter names (`/{roleAssignmentId}`, `/{roleDefinitionId}#disambiguation_dummy`)
      // are one path: their selectors choose among them, and the first plain key takes the rest.
      const key = `${upper} ${path.replace(/\{[^}]*\}/g, '{}')}`;
      let slot = slots.get(key);
      if (slot === undefined) {
        slot = { method: upper, path, parts, specificity: templateSpecificity(parts), routes: [], shadowedBy: undefined, slashTwin: undefined };
        slots.set(key, slot);
      }
      slot.routes.push(route);
      routes.push(route);
      methods.add(upper);
    }
  }

  // Selector routes first, the longest selector first; the plain route (selector []) last.
  for (const slot of slots.values()) slot.routes.sort((a, b) => b.selector.length - a.selector.length);
  // The slots find-my-way reads as written go to a router (shared with the tables of the same
  // routes); the store of each holds its index in `offered`, which `slotAt` maps back to the slot.
  const offered: RouterRoute[] = [];
  const offeredSlots: RouteSlot[] = [];
  for (const slot of slots.values()) {
    const pattern = toRouterPattern(slot.parts);
    if (pattern === undefined) continue;
    offered.push({ method: slot.method, pattern });
    offeredSlots.push(slot);
  }
  // Held whole by the lookups below: the thread's filing of it lasts as long as some table holds it.
  const shared = sharedRouter(offered, maxPathChars);
  const routerSlots = offeredSlots.filter((_, index) => shared.accepted[index]);
  const slotAt = (store: unknown) => offeredSlots[(store as RouterStore).index]!;

  const matchers: TemplateMatcher[] = [];
  const inRouter = new Set(routerSlots);
  for (const slot of slots.values()) {
    if (inRouter.has(slot)) continue;
    const matcher = tryMatcher(document, slot);
    if (matcher !== undefined) matchers.push({ matcher, slot });
  }
  matchers.sort((a, b) => compareSpecificity(b.slot.specificity, a.slot.specificity));
  linkShadows(routerSlots, [...matchers, ...mixedRouterMatchers(document, routerSlots)]);
  linkSlashTwins(routerSlots, inRouter, slots);

  const find = (method: string, path: string, selection?: RouteSelectionInput): RouteMatch | undefined => {
    const selected = new SelectionCache(selection);
    const found = shared.router.find(method as RouterMethod, path);
    if (found !== null) {
      const routed = slotAt(found.store);
      const twin = routed.slashTwin;
      const slot = twin !== undefined && path.endsWith('/') === twin.path.endsWith('/') ? twin : routed;
      for (const shadow of slot.shadowedBy ?? []) {
        const match = matchSlot(shadow, path, selected);
        if (match !== undefined) return match;
      }
      const route = selectRoute(slot, selected);
      if (route !== undefined) return { route, params: rawRouterParams(slot, path, found.params) };
    }
    for (const candidate of matchers) {
      if (candidate.slot.method !== method) continue;
      const match = matchSlot(candidate, path, selected);
      if (match !== undefined) return match;
    }
    return undefined;
  };
  return {
    routes,
    find,
    matchAnyMethod(path) {
      const matched: RouteEntry[] = [];
      for (const method of methods) {
        const slotMatch = find(method, path, { query: '', headers: undefined });
        if (slotMatch !== undefined) matched.push(slotMatch.route);
        else {
          // A route found by path alone counts even when its selector is not met.
          const any = findSlotIgnoringSelectors(method, path);
          if (any !== undefined) matched.push(any);
        }
      }
      return matched;
    },
  };

  /**
   * find-my-way hands parameters out decoded, which would make an encoded comma (`a%2Cb,c`) a
   * separator: a path with escapes is matched again by the slot's template for the texts as
   * written. Where the template does not take the path as written (a literal segment written with
   * escapes), the router's decoded values stand, each '%' escaped so that decoding gives them back.
   */
  function rawRouterParams(slot: RouteSlot, path: string, decoded: RouteParams): RouteParams {
    if (!path.includes('%')) return decoded;
    if (slot.rawMatcher === undefined) slot.rawMatcher = tryMatcher(document, slot) ?? null;
    const match = slot.rawMatcher?.exec(path);
    if (match) return capturedParams(match);
    const escaped: RouteParams = {};
    for (const [key, value] of Object.entries(decoded)) escaped[key] = value?.replace(/%/g, '%25');
    return escaped;
  }

  function findSlotIgnoringSelectors(method: string, path: string): RouteEntry | undefined {
    const found = shared.router.find(method as RouterMethod, path);
    if (found !== null) return slotAt(found.store).routes[0];
    return matchers.find((m) => m.slot.method === method && m.matcher.test(path))?.slot.routes[0];
  }
}

function tryMatcher(document: JsonValue, slot: RouteSlot): SafeRegExp | undefined {
  try {
    return toTemplateMatcher(slot.parts, (name) => parameterShape(document, slot, name));
  } catch {
    return undefined;
  }
}

/**
 * Matchers for the router slots with a segment that mixes a parameter and literal text
 * (`{id}.schema.jsonld`): find-my-way may give a path such a template matches to a less literal
 * one beside it (`{id}.jsonld`, taking `r.schema` as the id), so they shadow router slots too.
 * Only those: between whole literal and parameter segments find-my-way already prefers the literal.
 */
function mixedRouterMatchers(document: JsonValue, routerSlots: readonly RouteSlot[]): TemplateMatcher[] {
  const mixed: TemplateMatcher[] = [];
  for (const slot of routerSlots) {
    if (!hasMixedSegment(slot.path)) continue;
    const matcher = tryMatcher(document, slot);
    if (matcher !== undefined) mixed.push({ matcher, slot });
  }
  return mixed;
}

function hasMixedSegment(path: string): boolean {
  return path.split('/').some((segment) => segment.includes('{') && !/^\{[^}]*\}$/.test(segment));
}

/**
 * A router slot whose matches a more literal matcher slot may take: same method, same number of
 * segments, and no literal segment that tells them apart. Checked on every hit of the router slot,
 * so only those that can overlap are linked.
 */
function linkShadows(routerSlots: readonly RouteSlot[], matchers: readonly TemplateMatcher[]): void {
  if (matchers.length === 0) return;
  const segmentsOf = new Map<RouteSlot, string[]>();
  const segments = (slot: RouteSlot) => {
    let list = segmentsOf.get(slot);
    if (list === undefined) segmentsOf.set(slot, (list = slot.path.split('/')));
    return list;
  };
  for (const slot of routerSlots) {
    for (const candidate of matchers) {
      const other = candidate.slot;
      if (other === slot || other.method !== slot.method || compareSpecificity(other.specificity, slot.specificity) <= 0) continue;
      const a = segments(slot);
      const b = segments(other);
      if (a.length !== b.length) continue;
      const disjoint = a.some((segment, i) => !segment.includes('{') && !b[i]!.includes('{') && segment !== b[i]);
      if (!disjoint) (slot.shadowedBy ??= []).push(candidate);
    }
  }
}

function linkSlashTwins(routerSlots: readonly RouteSlot[], inRouter: ReadonlySet<RouteSlot>, slots: ReadonlyMap<string, RouteSlot>): void {
  for (const slot of routerSlots) {
    if (slot.path === '/') continue;
    const twinPath = slot.path.endsWith('/') ? slot.path.slice(0, -1) : `${slot.path}/`;
    const twin = slots.get(`${slot.method} ${twinPath.replace(/\{[^}]*\}/g, '{}')}`);
    if (twin !== undefined && !inRouter.has(twin)) slot.slashTwin = twin;
  }
}

function matchSlot(candidate: TemplateMatcher, path: string, selected: SelectionCache): RouteMatch | undefined {
  const match = candidate.matcher.exec(path);
  if (match === null) return undefined;
  const route = selectRoute(candidate.slot, selected);
  if (route === undefined) return undefined;
  return { route, params: capturedParams(match) };
}

function capturedParams(match: RegExpExecArray): RouteParams {
  const params: RouteParams = {};
  for (let i = 1; i < match.length; i++) params[`p${i - 1}`] = match[i];
  return params;
}

/** The first route of the slot whose selector the request satisfies (the plain route has none). */
function selectRoute(slot: RouteSlot, selected: SelectionCache): RouteEntry | undefined {
  for (const route of slot.routes) {
    if (route.selector.every((item) => selected.satisfies(item))) return route;
  }
  return undefined;
}

/** The query string is parsed once per lookup, and only when a selector asks. */
class SelectionCache {
  #query: QueryValues | undefined;

  constructor(private readonly input: RouteSelectionInput | undefined) {}

  satisfies(item: RouteSelectorItem): boolean {
    if (this.input === undefined) return false;
    let values: readonly string[] | undefined;
    if (item.location === 'header') {
      const value = this.input.headers === undefined ? undefined : headerValue(this.input.headers, item.name.toLowerCase());
      values = value === undefined ? undefined : [value.trim()];
    } else {
      values = (this.#query ??= parseQueryString(this.input.query)).get(item.name);
    }
    if (values === undefined) return false;
    return item.value === undefined || values.some((value) => (item.location === 'header' ? value : decodeComponent(value)) === item.value);
  }
}

/** Where the operation reads a selector's parameter: a declared header, else the query. */
function selectorLocation(document: JsonValue, pathItem: JsonObject, operation: JsonObject, name: string): 'query' | 'header' {
  const lower = name.toLowerCase();
  for (const list of [operation.parameters, pathItem.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const parameter = followRefs(document, entry, '')?.node;
      if (parameter?.in === 'header' && typeof parameter.name === 'string' && parameter.name.toLowerCase() === lower) return 'header';
      if (parameter?.in === 'query' && parameter.name === name) return 'query';
    }
  }
  return 'query';
}

/** The text a path parameter can be, from its schema (enum, integer, number, boolean), for splitting adjacent parameters. */
function parameterShape(document: JsonValue, slot: RouteSlot, name: string): string | undefined {
  for (const route of slot.routes) {
    const pathItem = locate(document, route.pathItemPointer)?.node;
    const operation = locate(document, route.operationPointer)?.node;
    for (const list of [operation?.parameters, pathItem?.parameters]) {
      if (!Array.isArray(list)) continue;
      for (const entry of list) {
        const parameter = followRefs(document, entry, '')?.node;
        if (parameter?.in !== 'path' || parameter.name !== name) continue;
        const schema = followRefs(document, parameter.schema, '')?.node;
        return schema === undefined ? undefined : shapeOfSchema(schema);
      }
    }
  }
  return undefined;
}

function shapeOfSchema(schema: JsonObject): string | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((value) => typeof value === 'string' || typeof value === 'number').map((value) => escapeRegExp(String(value)));
    if (values.length === schema.enum.length) return `(?:${values.join('|')})`;
  }
  if (schema.type === 'integer') return '-?[0-9]+';
  if (schema.type === 'number') return '-?[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?';
  if (schema.type === 'boolean') return '(?:true|false)';
  return undefined;
}
