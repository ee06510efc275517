/**
 * Captured interactions → a consumer registration: each interaction's real path is mapped to the
 * schema's path template, and the response fields seen are gathered per endpoint. Endpoints and
 * fields come out deduplicated and sorted, so the same traffic always gives the same registration.
 */
import { invalidUse } from '../client-error';
import type { AutoRegisterConfig, CapturedInteraction, EndpointUsage, RegisterConsumerOptions } from '../types';
import { createEndpointMatcher, type EndpointTemplate } from './path-templates';
import { collectUsedFields } from './used-fields';
import { DEFAULT_CONSUMER_ENVIRONMENT } from '../protocol/wire-constants';

export interface ConsumerBuild {
  registration: RegisterConsumerOptions;
  /**
   * Per endpoint, the response fields received but never read by the code (only where reads were
   * tracked); they are not in the registration's used fields.
   */
  unreadFields: EndpointUsage[];
  /** Interactions whose method and path match no endpoint of the schema; not registered. */
  unmatched: CapturedInteraction[];
}

export interface ResolvedAutoRegisterConfig extends AutoRegisterConfig {
  schemaId: string;
  schemaVersion: string;
}

/** Pure: the endpoints are the schema's (ListEndpoints), so this runs without a server. */
export function buildConsumerRegistration(
  interactions: readonly CapturedInteraction[],
  endpoints: readonly EndpointTemplate[],
  config: ResolvedAutoRegisterConfig,
): ConsumerBuild {
  for (const key of ['consumerId', 'consumerVersion', 'schemaId', 'schemaVersion'] as const) {
    if (typeof config[key] !== 'string' || config[key] === '') throw invalidUse(`config.${key} must be a non-empty string`);
  }
  if (!Array.isArray(interactions)) throw invalidUse('interactions must be an array of captured interactions');

  const match = createEndpointMatcher(endpoints);
  const usage = new Map<string, { method: string; path: string; fields: Set<string>; received: Set<string> }>();
  const unmatched: CapturedInteraction[] = [];
  for (const interaction of interactions) {
    const endpoint = match(interaction.request.method, interaction.request.path);
    if (!endpoint) {
      unmatched.push(interaction);
      continue;
    }
    const method = endpoint.method.toUpperCase();
    const key = `${method} ${endpoint.path}`;
    let entry = usage.get(key);
    if (!entry) {
      entry = { method, path: endpoint.path, fields: new Set(), received: new Set() };
      usage.set(key, entry);
    }
    // Fields the code read when reads were tracked; every field received otherwise.
    if (interaction.readFields) {
      for (const field of interaction.readFields) entry.fields.add(field);
      collectUsedFields(interaction.response.body, entry.received);
    } else {
      collectUsedFields(interaction.response.body, entry.fields);
    }
  }

  const usedEndpoints: EndpointUsage[] = [...usage.values()]
    .sort((a, b) => compareText(a.path, b.path) || compareText(a.method, b.method))
    .map(({ method, path, fields }) => ({ method, path, usedFields: [...fields].sort(compareText) }));

  return {
    registration: {
      consumerId: config.consumerId,
      consumerVersion: config.consumerVersion,
      schemaId: config.schemaId,
      schemaVersion: config.schemaVersion,
      environment: config.environment ?? DEFAULT_CONSUMER_ENVIRONMENT,
      usedEndpoints,
    },
    unreadFields: [...usage.values()]
      .map(({ method, path, fields, received }) => ({ method, path, usedFields: [...received].filter((field) => !fields.has(field)).sort(compareText) }))
      .filter((entry) => entry.usedFields.length > 0)
      .sort((a, b) => compareText(a.path, b.path) || compareText(a.method, b.method)),
    unmatched,
  };
}

/** Code-point order, independent of the locale the tests run in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
