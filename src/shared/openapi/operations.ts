/** The operations (method + path template) of a document, in the one stable order every listing uses. */
import { isJsonObject, type JsonObject } from '../json';
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
