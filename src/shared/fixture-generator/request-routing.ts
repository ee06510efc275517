/**
 * Which operation a generated request reaches when validation routes it (validation/route-table.ts:
 * the most literal template wins, segment by segment from the left). A request can land on
 * another operation than the one it was generated for: `{zone_type}` filled with its enum value
 * `rssizones` makes `/sites/1/rssizones/count` a request for `/sites/{id}/rssizones/{zone}`, which
 * is more literal in that segment. The generator then draws other values, and refuses when every
 * attempt lands elsewhere.
 */
import { LIMITS } from '../limits';
import type { OpenApiDocument } from '../openapi/document';
import { routingPathPrefixes, stripServerPrefix } from '../openapi/servers';
import { buildRouteTable, type RouteTable } from '../validation/route-table';

interface DocumentRoutes {
  table: RouteTable;
  prefixes: readonly string[];
}

/** Built once per document object (the document-task threads keep parsed documents). */
const routesByDocument = new WeakMap<OpenApiDocument, DocumentRoutes>();

function routesOf(document: OpenApiDocument): DocumentRoutes {
  let routes = routesByDocument.get(document);
  if (routes === undefined) {
    routes = { table: buildRouteTable(document, LIMITS.validationMaxPathChars), prefixes: routingPathPrefixes(document) };
    routesByDocument.set(document, routes);
  }
  return routes;
}

/**
 * The path key (as written in the document) of the operation validation routes the request to,
 * trying the path without a server prefix first as validation does; undefined when none.
 */
export function routedPathKey(document: OpenApiDocument, method: string, target: string, headers: Record<string, string>): string | undefined {
  const { table, prefixes } = routesOf(document);
  const question = target.indexOf('?');
  const path = question < 0 ? target : target.slice(0, question);
  const selection = { query: question < 0 ? '' : target.slice(question + 1), headers };
  for (const prefix of prefixes) {
    const stripped = stripServerPrefix(path, [prefix]);
    if (stripped === path) continue;
    const match = table.find(method, stripped, selection);
    if (match !== undefined) return match.route.template;
  }
  return table.find(method, path, selection)?.route.template;
}
