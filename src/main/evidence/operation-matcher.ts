/**
 * Finds the operation (path template) a real request path belongs to: literal segments before
 * parameters, as routers do, so `/users/me` wins over `/users/{id}`. Built from a version's
 * operations as the schema registry lists them (off the main thread, SchemaRegistry.operations),
 * never from the parsed document; one matcher per version, kept by content hash.
 */
import type { OperationSummary } from '../../shared/openapi/operations';
import { withoutTrailingSlashes } from '../../shared/text';

export type DocumentedOperation = Pick<OperationSummary, 'method' | 'path' | 'operationId' | 'statuses'>;

interface Route {
  operation: DocumentedOperation;
  segments: string[];
  /** Literal segments count; more is more specific. */
  literals: number;
}

export class OperationMatcher {
  readonly operations: DocumentedOperation[];
  readonly #routes: Route[];

  constructor(operations: readonly DocumentedOperation[]) {
    this.operations = [...operations];
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
  return withoutTrailingSlashes(path).split('/').slice(1);
}
