/**
 * The Node.js client's camelCase results → the canonical snake_case forms of the conformance suite
 * (clients/conformance/README.md, "Canonical forms"). Each shape is mapped field by field, never by
 * renaming keys generically: generated bodies and headers are data and keep their keys as they are.
 * A missing value (`undefined`) becomes `null`.
 */
import type {
  BreakingChange,
  CanIDeployResult,
  CompareResult,
  ConsumerImpact,
  ConsumerInfo,
  EndpointInfo,
  EndpointUsage,
  GeneratedFixture,
  GeneratedRequest,
  GeneratedResponse,
  RegisterConsumerOptions,
  SchemaMetadata,
  SchemaRegistration,
  ValidationResult,
} from '@svc/client';

export type Canonical = null | boolean | number | string | Canonical[] | { [key: string]: Canonical };

export function validationResult(result: ValidationResult): Canonical {
  return {
    valid: result.valid,
    errors: [...result.errors],
    validated_against_version: result.validatedAgainstVersion,
    validated_against_hash: result.validatedAgainstHash,
  };
}

export function schemaMetadata(metadata: SchemaMetadata | undefined): Canonical {
  if (!metadata) return null;
  const ownership = metadata.ownership;
  return {
    schema_id: metadata.schemaId,
    schema_version: metadata.schemaVersion,
    schema_hash: metadata.schemaHash,
    registered_at: metadata.registeredAt,
    updated_at: metadata.updatedAt,
    ownership: ownership
      ? { owner: ownership.owner, team: ownership.team, contact_email: ownership.contactEmail, read_only: ownership.readOnly }
      : null,
    openapi_version: metadata.openapiVersion,
    endpoint_count: metadata.endpointCount,
  };
}

export function schemaRegistration(registration: SchemaRegistration): Canonical {
  return {
    message: registration.message,
    metadata: schemaMetadata(registration.metadata),
    breaking_changes: registration.breakingChanges.map(breakingChange),
  };
}

export function breakingChange(change: BreakingChange): Canonical {
  return {
    type: change.type,
    path: change.path,
    method: change.method,
    description: change.description,
    old_value: change.oldValue,
    new_value: change.newValue,
  };
}

export function compareResult(result: CompareResult): Canonical {
  return {
    compatible: result.compatible,
    breaking_changes: result.breakingChanges.map(breakingChange),
    old_schema: schemaMetadata(result.oldSchema),
    new_schema: schemaMetadata(result.newSchema),
  };
}

export function generatedRequest(request: GeneratedRequest): Canonical {
  return { method: request.method, path: request.path, headers: { ...request.headers }, body: jsonValue(request.body) };
}

export function generatedResponse(response: GeneratedResponse): Canonical {
  return { status_code: response.statusCode, headers: { ...response.headers }, body: jsonValue(response.body) };
}

export function generatedFixture(fixture: GeneratedFixture): Canonical {
  return { request: generatedRequest(fixture.request), response: generatedResponse(fixture.response) };
}

export function endpointInfo(endpoint: EndpointInfo): Canonical {
  return { method: endpoint.method, path: endpoint.path, operation_id: endpoint.operationId, summary: endpoint.summary };
}

export function endpointUsage(usage: EndpointUsage): Canonical {
  return { method: usage.method, path: usage.path, used_fields: [...usage.usedFields] };
}

export function consumerInfo(consumer: ConsumerInfo): Canonical {
  return {
    consumer_id: consumer.consumerId,
    consumer_version: consumer.consumerVersion,
    schema_id: consumer.schemaId,
    schema_version: consumer.schemaVersion,
    environment: consumer.environment,
    registered_at: consumer.registeredAt,
    last_validated_at: consumer.lastValidatedAt,
    used_endpoints: consumer.usedEndpoints.map(endpointUsage),
  };
}

/** The registration build_consumer_from_interactions returns (RegisterConsumerOptions). */
export function consumerRegistration(registration: RegisterConsumerOptions): Canonical {
  return {
    consumer_id: registration.consumerId,
    consumer_version: registration.consumerVersion,
    schema_id: registration.schemaId,
    schema_version: registration.schemaVersion,
    environment: registration.environment ?? null,
    used_endpoints: registration.usedEndpoints.map(endpointUsage),
  };
}

export function consumerImpact(impact: ConsumerImpact): Canonical {
  return {
    consumer_id: impact.consumerId,
    consumer_version: impact.consumerVersion,
    current_schema_version: impact.currentSchemaVersion,
    environment: impact.environment,
    will_break: impact.willBreak,
    relevant_changes: impact.relevantChanges.map(breakingChange),
  };
}

export function canIDeployResult(result: CanIDeployResult): Canonical {
  return {
    safe_to_deploy: result.safeToDeploy,
    summary: result.summary,
    breaking_changes: result.breakingChanges.map(breakingChange),
    affected_consumers: result.affectedConsumers.map(consumerImpact),
  };
}

/** A parsed JSON body; the client reports "no body" as undefined, canonically null. */
export function jsonValue(value: unknown): Canonical {
  return value === undefined ? null : (value as Canonical);
}
