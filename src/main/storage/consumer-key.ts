import type { ConsumerKey } from './storage';

/** `<consumer_id>/<schema_id>/<environment>`: the spec's key of a consumer registration. */
export function consumerKeyString(key: ConsumerKey): string {
  return `${key.consumerId}/${key.schemaId}/${key.environment}`;
}
