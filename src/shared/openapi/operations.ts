/** The operations (method + path template) of a document, in the one stable order every listing uses. */
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../json';
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument } from './document';
import { derefObject } from './refs';

export interface OperationEntry {
  /** Upper-case HTTP method, as the wire shows it (`GET`). */
  method: string;
  /** Path template as written in the document (`/users/{id}`). */
  path: string;
  operationId: string;
  summary: string;
  /** The operation object. */
  operation: JsonObject;
  /** The path item holding it (its `parameters` apply to every operation). */
  pathItem: JsonObject;
}

/** Sorted by path template, then by method in the order of HTTP_METHODS. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths).sort()) {
    const pathItem = derefObject(document, paths[path]);
    if (!pathItem) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isJsonObject(operation)) continue;
      entries.push({
        method: method.toUpperCase(),
        path,
        operationId: typeof operation.operationId === 'string' ? operation.operationId : '',
        summary: typeof operation.summary === 'string' ? operation.summary : '',
        operation,
        pathItem,
      });
    }
  }
  return entries;
}

/**
 * Every path item the document writes out, with its pointer, in document order: under `paths`,
 * `webhooks` and `components/pathItems`, and in the callbacks of `components/callbacks` and of
 * every operation, at any depth. A path item that is a `$ref` is visited as written (its target
 * is visited where it is written).
 */
export function forEachPathItem(document: OpenApiDocument, visit: (item: JsonObject, pointer: string) => void): void {
  const queue: Array<[item: JsonValue | undefined, pointer: string]> = [];
  const seen = new Set<JsonObject>();
  const enqueue = (map: JsonValue | undefined, pointer: string, extensions: boolean) => {
    if (!isJsonObject(map)) return;
    for (const [key, item] of Object.entries(map)) if (!(extensions && key.startsWith('x-'))) queue.push([item, `${pointer}/${escapePointerToken(key)}`]);
  };
  const enqueueCallbacks = (callbacks: JsonValue | undefined, pointer: string) => {
    if (!isJsonObject(callbacks)) return;
    for (const [name, callback] of Object.entries(callbacks)) enqueue(callback, `${pointer}/${escapePointerToken(name)}`, true);
  };
  const components = isJsonObject(document.components) ? document.components : {};
  enqueue(document.paths, '/paths', true);
  enqueue(document.webhooks, '/webhooks', true);
  enqueue(components.pathItems, '/components/pathItems', false);
  enqueueCallbacks(components.callbacks, '/components/callbacks');
  for (let next = 0; next < queue.length; next++) {
    const [item, pointer] = queue[next]!;
    if (!isJsonObject(item) || seen.has(item)) continue;
    seen.add(item);
    visit(item, pointer);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) enqueueCallbacks(operation.callbacks, `${pointer}/${method}/callbacks`);
    }
  }
}

/** The operation for an upper- or lower-case method on an exact path template, if the document has it. */
export function findOperation(document: OpenApiDocument, method: string, path: string): OperationEntry | undefined {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  const pathItem = derefObject(document, paths[path]);
  const key = method.toLowerCase() as HttpMethod;
  if (!pathItem || !isJsonObject(pathItem[key])) return undefined;
  const operation = pathItem[key] as JsonObject;
  return {
    method: key.toUpperCase(),
    path,
    operationId: typeof operation.operationId === 'string' ? operation.operationId : '',
    summary: typeof operation.summary === 'string' ? operation.summary : '',
    operation,
    pathItem,
  };
}

/**
 * An operation as listings and request matchers need it, without the document: small enough to
 * keep per version, and what a document-task thread sends back so the main thread never parses a
 * whole document to list its operations.
 */
export interface OperationSummary {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  /** Documented response keys: `200`, `4XX`, `default`. */
  statuses: string[];
}

/** listOperations, each reduced to its OperationSummary (same order). */
export function summarizeOperations(document: OpenApiDocument): OperationSummary[] {
  return listOperations(document).map(({ method, path, operationId, summary, operation }) => {
    const responses = derefObject(document, operation.responses);
    return { method, path, operationId, summary, statuses: responses ? Object.keys(responses) : [] };
  });
}

export function countOperations(document: OpenApiDocument): number {
  return listOperations(document).length;
}
