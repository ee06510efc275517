/** Spec "Consumer impact rules" 3: which breaking changes touch an endpoint a consumer uses. */
import { samePathTemplate } from './path-template';

export interface ChangeLocation {
  path: string;
  method: string;
}

export interface EndpointRef {
  method: string;
  path: string;
}

/**
 * True when the change's path is empty or names the endpoint's path (templates compared with
 * parameter names ignored), and its method is empty or equal to the endpoint's (any case).
 */
export function isChangeRelevantToEndpoint(change: ChangeLocation, endpoint: EndpointRef): boolean {
  const pathMatches = change.path === '' || samePathTemplate(change.path, endpoint.path);
  const methodMatches = change.method === '' || change.method.toUpperCase() === endpoint.method.toUpperCase();
  return pathMatches && methodMatches;
}

/** The changes relevant to at least one of the endpoints, in their original order. */
export function changesRelevantToEndpoints<T extends ChangeLocation>(changes: readonly T[], endpoints: readonly EndpointRef[]): T[] {
  return changes.filter((change) => endpoints.some((endpoint) => isChangeRelevantToEndpoint(change, endpoint)));
}
