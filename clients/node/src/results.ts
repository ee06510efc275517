/** The service's response messages (snake_case) → the client's camelCase results. */
import type { BreakingChange__Output } from './generated/svc/BreakingChange';
import type { CanIDeployResponse__Output } from './generated/svc/CanIDeployResponse';
import type { CompareSchemasResponse__Output } from './generated/svc/CompareSchemasResponse';
import type { ConsumerImpact__Output } from './generated/svc/ConsumerImpact';
import type { ConsumerInfo__Output } from './generated/svc/ConsumerInfo';
import type { EndpointInfo__Output } from './generated/svc/EndpointInfo';
import type { GetCoverageResponse__Output } from './generated/svc/GetCoverageResponse';
import type { EndpointUsage } from './generated/svc/EndpointUsage';
import type { GeneratedRequest__Output } from './generated/svc/GeneratedRequest';
import type { GeneratedResponse__Output } from './generated/svc/GeneratedResponse';
import type { RegistrationWarning__Output } from './generated/svc/RegistrationWarning';
import type { SchemaMetadata__Output } from './generated/svc/SchemaMetadata';
import type { ValidationResult__Output } from './generated/svc/ValidationResult';
import { parseBodyText } from './wire';
import type {
  BreakingChange,
  CanIDeployResult,
  CompareResult,
  ConsumerImpact,
  ConsumerInfo,
  CoverageReport,
  EndpointInfo,
  EndpointUsage as ClientEndpointUsage,
  GeneratedRequest,
  GeneratedResponse,
  RegistrationWarning,
  SchemaMetadata,
  ValidationResult,
} from './types';

export function toValidationResult(message: ValidationResult__Output): ValidationResult {
  return {
    valid: message.valid,
    errors: message.errors,
    validatedAgainstVersion: message.validated_against_version,
    validatedAgainstHash: message.validated_against_hash,
  };
}

export function toSchemaMetadata(message: SchemaMetadata__Output): SchemaMetadata {
  const ownership = message.ownership;
  return {
    schemaId: message.schema_id,
    schemaVersion: message.schema_version,
    schemaHash: message.schema_hash,
    registeredAt: message.registered_at,
    updatedAt: message.updated_at,
    ownership: ownership
      ? { owner: ownership.owner, team: ownership.team, contactEmail: ownership.contact_email, readOnly: ownership.read_only }
      : undefined,
    openapiVersion: message.openapi_version,
    endpointCount: message.endpoint_count,
  };
}

export function toBreakingChange(message: BreakingChange__Output): BreakingChange {
  return {
    type: message.type,
    path: message.path,
    method: message.method,
    description: message.description,
    oldValue: message.old_value,
    newValue: message.new_value,
  };
}

export function toRegistrationWarning(message: RegistrationWarning__Output): RegistrationWarning {
  return { code: message.code, pointer: message.pointer, message: message.message };
}

export function toCompareResult(message: CompareSchemasResponse__Output): CompareResult {
  return {
    compatible: message.compatible,
    breakingChanges: message.breaking_changes.map(toBreakingChange),
    oldSchema: message.old_schema ? toSchemaMetadata(message.old_schema) : undefined,
    newSchema: message.new_schema ? toSchemaMetadata(message.new_schema) : undefined,
  };
}

export function toGeneratedRequest(message: GeneratedRequest__Output): GeneratedRequest {
  return { method: message.method, path: message.path, headers: message.headers, body: parseBodyText(message.body), rawBody: message.body };
}

export function toGeneratedResponse(message: GeneratedResponse__Output): GeneratedResponse {
  return { statusCode: message.status_code, headers: message.headers, body: parseBodyText(message.body), rawBody: message.body };
}

export function toEndpointInfo(message: EndpointInfo__Output): EndpointInfo {
  return { method: message.method, path: message.path, operationId: message.operation_id, summary: message.summary };
}

export function toConsumerInfo(message: ConsumerInfo__Output): ConsumerInfo {
  return {
    consumerId: message.consumer_id,
    consumerVersion: message.consumer_version,
    schemaId: message.schema_id,
    schemaVersion: message.schema_version,
    environment: message.environment,
    registeredAt: message.registered_at,
    lastValidatedAt: message.last_validated_at,
    usedEndpoints: message.used_endpoints.map((usage) => ({ method: usage.method, path: usage.path, usedFields: usage.used_fields })),
  };
}

export function toEndpointUsageMessage(usage: ClientEndpointUsage): EndpointUsage {
  return { method: usage.method.toUpperCase(), path: usage.path, used_fields: [...usage.usedFields] };
}

export function toConsumerImpact(message: ConsumerImpact__Output): ConsumerImpact {
  return {
    consumerId: message.consumer_id,
    consumerVersion: message.consumer_version,
    currentSchemaVersion: message.current_schema_version,
    environment: message.environment,
    willBreak: message.will_break,
    relevantChanges: message.relevant_changes.map(toBreakingChange),
    replayFailures: message.replay_failures.map((failure) => ({
      method: failure.method,
      path: failure.path,
      statusCode: failure.status_code,
      errors: failure.errors,
      recordedAt: Number(failure.recorded_at),
    })),
    replayedInteractions: message.replayed_interactions,
    observed: message.observed,
    unreachedChanges: message.unreached_changes.map(toBreakingChange),
    omittedChanges: message.omitted_changes,
  };
}

export function toCanIDeployResult(message: CanIDeployResponse__Output): CanIDeployResult {
  return {
    safeToDeploy: message.safe_to_deploy,
    summary: message.summary,
    breakingChanges: message.breaking_changes.map(toBreakingChange),
    affectedConsumers: message.affected_consumers.map(toConsumerImpact),
    checkedVersion: message.checked_version,
    comparedWithVersion: message.compared_with_version,
    comparedWith: message.compared_with,
    replayedInteractions: message.replayed_interactions,
  };
}

export function toCoverageReport(message: GetCoverageResponse__Output): CoverageReport {
  return {
    schemaId: message.schema_id,
    schemaVersion: message.schema_version,
    environment: message.environment,
    operations: message.operations.map((operation) => ({
      method: operation.method,
      path: operation.path,
      operationId: operation.operation_id,
      callCount: Number(operation.call_count),
      statuses: operation.statuses.map((status) => ({
        status: status.status,
        documented: status.documented,
        callCount: Number(status.call_count),
        lastSeen: Number(status.last_seen),
        consumers: status.consumers.map((consumer) => ({
          consumerId: consumer.consumer_id,
          callCount: Number(consumer.call_count),
          lastSeen: Number(consumer.last_seen),
          environment: consumer.environment,
        })),
      })),
    })),
    exercisedStatuses: message.exercised_statuses,
    documentedStatuses: message.documented_statuses,
    coveragePercent: message.coverage_percent,
    consumers: message.consumers,
  };
}
