/**
 * Registry records (schema metadata, consumer registrations) as the command line prints them: JSON
 * with the proto's snake_case names and ISO 8601 times, and table rows.
 */
import type { ConsumerInfo__Output, SchemaMetadata__Output } from '@svc/client/protocol';
import { isoTime } from './table';

export function schemaMetadataJson(metadata: SchemaMetadata__Output): object {
  return {
    schema_id: metadata.schema_id,
    schema_version: metadata.schema_version,
    schema_hash: metadata.schema_hash,
    openapi_version: metadata.openapi_version,
    endpoint_count: metadata.endpoint_count,
    registered_at: isoTime(metadata.registered_at),
    updated_at: isoTime(metadata.updated_at),
    ownership: {
      owner: metadata.ownership?.owner ?? '',
      team: metadata.ownership?.team ?? '',
      contact_email: metadata.ownership?.contact_email ?? '',
      read_only: metadata.ownership?.read_only ?? false,
    },
  };
}

export const SCHEMA_TABLE_HEADER = Object.freeze(['SCHEMA', 'LATEST VERSION', 'OPENAPI', 'ENDPOINTS', 'OWNER', 'TEAM', 'UPDATED']);

export function schemaRow(metadata: SchemaMetadata__Output): string[] {
  return [
    metadata.schema_id,
    metadata.schema_version,
    metadata.openapi_version,
    String(metadata.endpoint_count),
    metadata.ownership?.owner || '-',
    metadata.ownership?.team || '-',
    isoTime(metadata.updated_at) || '-',
  ];
}

export function consumerJson(consumer: ConsumerInfo__Output): object {
  return {
    consumer_id: consumer.consumer_id,
    consumer_version: consumer.consumer_version,
    schema_id: consumer.schema_id,
    schema_version: consumer.schema_version,
    environment: consumer.environment,
    registered_at: isoTime(consumer.registered_at),
    last_validated_at: isoTime(consumer.last_validated_at),
    used_endpoints: consumer.used_endpoints.map((usage) => ({ method: usage.method, path: usage.path, used_fields: usage.used_fields })),
  };
}

export const CONSUMER_TABLE_HEADER = Object.freeze(['CONSUMER', 'VERSION', 'ENV', 'SCHEMA VERSION', 'ENDPOINTS', 'LAST VALIDATED']);

export function consumerRow(consumer: ConsumerInfo__Output): string[] {
  return [
    consumer.consumer_id,
    consumer.consumer_version,
    consumer.environment,
    consumer.schema_version,
    consumer.used_endpoints.map((usage) => `${usage.method} ${usage.path}`).join('; '),
    isoTime(consumer.last_validated_at) || 'never',
  ];
}
