/**
 * Finds the operation (path template) a real request path belongs to: literal segments before
 * parameters, as routers do, so `/users/me` wins over `/users/{id}`. One matcher per document,
 * kept by content hash.
 */
import { listOperations } from '../../shared/openapi/operations';
import type { OpenApiDocument } from '../../shared/openapi/document';

export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  /** Documented response keys: `200`, `4XX`, `default`. */
  statuses: string[];
}

interface Route {
  operation: DocumentedOperation;
  segments: string[];
  /** Literal segments count; more is more specific. */
  literals: number;
}

export class OperationMatcher {
  readonly operations: DocumentedOperation[];
  readonly #routes: Route[];

  constructor(document: OpenApiDocument) {
    this.operations = listOperations(document).map(({ method, path, operationId, operation }) => ({
      method, path, operationId,
      statuses: operation.responses !== null && typeof operation.responses === 'object' ? Object.keys(operation.responses) : [],
    }));
    this.#routes = this.operations.map((operation) => {
      const segments = splitPath(operation.path);
      return { operation, segments, literals: segments.filter((segment) => !segment.includes('{')).length };
    }).sort((a, b) => b.literals - a.literals);
  }

  /** The operation for a method and a real path (query string ignored), or undefined. */
  match(method: string, realPath: string): DocumentedOperation | undefined {
    const upper = method.toUpperCase();
    const segments = splitPath(realPath.split('?')[0]!);
    for (const route of this.#routes) {
      if (route.operation.method !== upper || route.segments.length !== segments.length) continue;
      if (route.segments.every((segment, i) => segment.includes('{') ? segments[i] !== '' : segment === segments[i])) return route.operation;
    }
    return undefined;
  }
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
  return path.replace(/\/+$/, '').split('/').slice(1);
}
