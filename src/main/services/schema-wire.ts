/** The registry's version summaries as the service's SchemaMetadata messages: the one translation. */
import type { SchemaMetadata__Output } from '@svc/client/protocol';
import type { SchemaVersionSummary } from '../storage/storage';

export function toSchemaMetadata(summary: SchemaVersionSummary): SchemaMetadata__Output {
  return {
    schema_id: summary.schemaId,
    schema_version: summary.version,
    schema_hash: summary.contentHash,
    registered_at: summary.registeredAt,
    updated_at: summary.updatedAt,
    ownership: {
      owner: summary.ownership.owner,
      team: summary.ownership.team,
      contact_email: summary.ownership.contactEmail,
      read_only: summary.ownership.readOnly,
    },
    openapi_version: summary.openapiVersion,
    endpoint_count: summary.endpointCount,
  };
}
