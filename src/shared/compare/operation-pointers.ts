/** Where an operation and its path item live in a document, as JSON pointers. */
import { isJsonObject } from '../json';
import type { OpenApiDocument } from '../openapi/document';
import { childPointer } from './json-pointer';
import { resolveLocated } from './resolve-link';

export interface OperationPointers {
  pathItem: string;
  operation: string;
}

export function operationPointers(document: OpenApiDocument, path: string, method: string): OperationPointers {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  const declared = childPointer('#', 'paths', path);
  // A path item may itself be a `$ref` (OpenAPI 3.1 and some 3.0 documents).
  const pathItem = resolveLocated(document, { node: paths[path] ?? null, pointer: declared })?.pointer ?? declared;
  return { pathItem, operation: childPointer(pathItem, method.toLowerCase()) };
}
