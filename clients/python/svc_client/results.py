"""The service's response messages → the client's result dataclasses."""

from __future__ import annotations

from collections.abc import Iterable

from ._generated import svc_pb2 as pb
from .types import (
    BreakingChange,
    BreakingChangeType,
    CanIDeployResult,
    CompareResult,
    ConsumerImpact,
    ConsumerInfo,
    EndpointInfo,
    EndpointUsage,
    GeneratedRequest,
    GeneratedResponse,
    SchemaMetadata,
    SchemaOwnership,
    ValidationResult,
)
from .wire import parse_body_text


def to_validation_result(message: pb.ValidationResult) -> ValidationResult:
    return ValidationResult(
        valid=message.valid,
        errors=tuple(message.errors),
        validated_against_version=message.validated_against_version,
        validated_against_hash=message.validated_against_hash,
    )


def to_schema_ownership(message: pb.SchemaOwnership) -> SchemaOwnership:
    return SchemaOwnership(owner=message.owner, team=message.team, contact_email=message.contact_email, read_only=message.read_only)


def to_schema_ownership_message(ownership: SchemaOwnership) -> pb.SchemaOwnership:
    return pb.SchemaOwnership(
        owner=ownership.owner, team=ownership.team, contact_email=ownership.contact_email, read_only=ownership.read_only
    )


def to_schema_metadata(message: pb.SchemaMetadata) -> SchemaMetadata:
    return SchemaMetadata(
        schema_id=message.schema_id,
        schema_version=message.schema_version,
        schema_hash=message.schema_hash,
        registered_at=message.registered_at,
        updated_at=message.updated_at,
        ownership=to_schema_ownership(message.ownership) if message.HasField("ownership") else None,
        openapi_version=message.openapi_version,
        endpoint_count=message.endpoint_count,
    )


def optional_metadata(message: pb.SchemaMetadata, present: bool) -> SchemaMetadata | None:
    return to_schema_metadata(message) if present else None


def to_breaking_change(message: pb.BreakingChange) -> BreakingChange:
    return BreakingChange(
        type=BreakingChangeType(pb.BreakingChangeType.Name(message.type)),
        path=message.path,
        method=message.method,
        description=message.description,
        old_value=message.old_value,
        new_value=message.new_value,
    )


def to_breaking_changes(messages: Iterable[pb.BreakingChange]) -> tuple[BreakingChange, ...]:
    return tuple(map(to_breaking_change, messages))


def to_compare_result(message: pb.CompareSchemasResponse) -> CompareResult:
    return CompareResult(
        compatible=message.compatible,
        breaking_changes=to_breaking_changes(message.breaking_changes),
        old_schema=optional_metadata(message.old_schema, message.HasField("old_schema")),
        new_schema=optional_metadata(message.new_schema, message.HasField("new_schema")),
    )


def to_generated_request(message: pb.GeneratedRequest) -> GeneratedRequest:
    return GeneratedRequest(
        method=message.method,
        path=message.path,
        headers=dict(message.headers),
        body=parse_body_text(message.body),
        raw_body=message.body,
    )


def to_generated_response(message: pb.GeneratedResponse) -> GeneratedResponse:
    return GeneratedResponse(
        status_code=message.status_code,
        headers=dict(message.headers),
        body=parse_body_text(message.body),
        raw_body=message.body,
    )


def to_endpoint_info(message: pb.EndpointInfo) -> EndpointInfo:
    return EndpointInfo(method=message.method, path=message.path, operation_id=message.operation_id, summary=message.summary)


def to_endpoint_usage(message: pb.EndpointUsage) -> EndpointUsage:
    return EndpointUsage(method=message.method, path=message.path, used_fields=tuple(message.used_fields))


def to_endpoint_usage_message(usage: EndpointUsage) -> pb.EndpointUsage:
    return pb.EndpointUsage(method=usage.method.upper(), path=usage.path, used_fields=list(usage.used_fields))


def to_consumer_info(message: pb.ConsumerInfo) -> ConsumerInfo:
    return ConsumerInfo(
        consumer_id=message.consumer_id,
        consumer_version=message.consumer_version,
        schema_id=message.schema_id,
        schema_version=message.schema_version,
        environment=message.environment,
        registered_at=message.registered_at,
        last_validated_at=message.last_validated_at,
        used_endpoints=tuple(map(to_endpoint_usage, message.used_endpoints)),
    )


def to_consumer_impact(message: pb.ConsumerImpact) -> ConsumerImpact:
    return ConsumerImpact(
        consumer_id=message.consumer_id,
        consumer_version=message.consumer_version,
        current_schema_version=message.current_schema_version,
        environment=message.environment,
        will_break=message.will_break,
        relevant_changes=to_breaking_changes(message.relevant_changes),
    )


def to_can_i_deploy_result(message: pb.CanIDeployResponse) -> CanIDeployResult:
    return CanIDeployResult(
        safe_to_deploy=message.safe_to_deploy,
        summary=message.summary,
        breaking_changes=to_breaking_changes(message.breaking_changes),
        affected_consumers=tuple(map(to_consumer_impact, message.affected_consumers)),
    )
