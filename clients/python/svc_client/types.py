"""The public data types: what users hand in (HTTP interactions) and the results the service answers.

Result field names are the service's own (those of ``proto/svc.proto``); timestamps are Unix seconds,
as on the wire. Results are frozen dataclasses; sequences in them are tuples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias

HeaderValue: TypeAlias = "str | int | Sequence[str]"
Headers: TypeAlias = "Mapping[str, HeaderValue]"


@dataclass(frozen=True, slots=True)
class HttpRequest:
    """A request as sent: ``path`` is the real path with actual values and query (``/users/42?x=1``).

    A ``body`` that is ``str`` or ``bytes`` is sent as it is (already encoded); any other value except
    ``None`` is JSON-encoded once.
    """

    method: str
    path: str
    headers: Headers = field(default_factory=dict)
    body: Any = None


@dataclass(frozen=True, slots=True)
class HttpResponse:
    status_code: int
    headers: Headers = field(default_factory=dict)
    body: Any = None


@dataclass(frozen=True, slots=True)
class ValidationResult:
    valid: bool
    errors: tuple[str, ...]
    validated_against_version: str
    validated_against_hash: str


@dataclass(slots=True)
class Interaction:
    """One HTTP exchange, recorded by a capture adapter or assembled by hand."""

    request: HttpRequest
    response: HttpResponse
    validation: ValidationResult | None = None
    """Set when the capture validated the exchange (``auto_validate``)."""


RequestLike: TypeAlias = "HttpRequest | Mapping[str, Any]"
ResponseLike: TypeAlias = "HttpResponse | Mapping[str, Any]"
InteractionLike: TypeAlias = "Interaction | Mapping[str, Any]"


@dataclass(frozen=True, slots=True)
class SchemaOwnership:
    owner: str = ""
    team: str = ""
    contact_email: str = ""
    read_only: bool = False


@dataclass(frozen=True, slots=True)
class SchemaMetadata:
    schema_id: str
    schema_version: str
    schema_hash: str
    """SHA-256 of the registered content."""
    registered_at: int
    updated_at: int
    ownership: SchemaOwnership | None
    openapi_version: str
    """Detected OpenAPI version (a v2 document reports 3.0.0, its converted form)."""
    endpoint_count: int


class BreakingChangeType(StrEnum):
    BREAKING_CHANGE_UNSPECIFIED = "BREAKING_CHANGE_UNSPECIFIED"
    ENDPOINT_REMOVED = "ENDPOINT_REMOVED"
    REQUIRED_FIELD_ADDED = "REQUIRED_FIELD_ADDED"
    TYPE_CHANGED = "TYPE_CHANGED"
    REQUIRED_PARAMETER_ADDED = "REQUIRED_PARAMETER_ADDED"
    RESPONSE_SCHEMA_CHANGED = "RESPONSE_SCHEMA_CHANGED"
    ENUM_VALUE_REMOVED = "ENUM_VALUE_REMOVED"


@dataclass(frozen=True, slots=True)
class BreakingChange:
    type: BreakingChangeType
    path: str
    """API path template (``/users/{id}``); empty when the change is not tied to a path."""
    method: str
    description: str
    old_value: str
    new_value: str


@dataclass(frozen=True, slots=True)
class SchemaRegistration:
    message: str
    metadata: SchemaMetadata
    breaking_changes: tuple[BreakingChange, ...]
    """Filled when the registration asked for ``check_compatibility`` and changes were found."""


@dataclass(frozen=True, slots=True)
class SchemaContent:
    metadata: SchemaMetadata
    content: str
    """The content exactly as it was registered."""


@dataclass(frozen=True, slots=True)
class SchemaPage:
    schemas: tuple[SchemaMetadata, ...]
    next_page_token: str
    """Pass as ``page_token`` for the next page; empty on the last page."""
    total_count: int


@dataclass(frozen=True, slots=True)
class CompareResult:
    compatible: bool
    breaking_changes: tuple[BreakingChange, ...]
    old_schema: SchemaMetadata | None
    new_schema: SchemaMetadata | None


@dataclass(frozen=True, slots=True)
class GeneratedRequest:
    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    """The body parsed from its JSON text; ``None`` when there is none."""
    raw_body: str
    """The body text exactly as generated."""


@dataclass(frozen=True, slots=True)
class GeneratedResponse:
    status_code: int
    headers: Mapping[str, str]
    body: Any
    raw_body: str


@dataclass(frozen=True, slots=True)
class GeneratedFixture:
    request: GeneratedRequest
    response: GeneratedResponse


@dataclass(frozen=True, slots=True)
class EndpointInfo:
    method: str
    path: str
    """Path template as written in the schema (``/users/{id}``)."""
    operation_id: str
    summary: str


@dataclass(frozen=True, slots=True)
class EndpointUsage:
    method: str
    path: str
    """API path template."""
    used_fields: tuple[str, ...] = ()
    """Response fields the consumer reads, as dot paths with ``[]`` for array items (``items[].id``)."""


@dataclass(frozen=True, slots=True)
class ConsumerRegistration:
    """What ``register_consumer`` sends; ``build_consumer_from_interactions`` returns one."""

    consumer_id: str
    consumer_version: str
    schema_id: str
    schema_version: str
    environment: str = "dev"
    used_endpoints: tuple[EndpointUsage, ...] = ()


@dataclass(frozen=True, slots=True)
class ConsumerInfo:
    consumer_id: str
    consumer_version: str
    schema_id: str
    schema_version: str
    environment: str
    registered_at: int
    last_validated_at: int
    used_endpoints: tuple[EndpointUsage, ...]


@dataclass(frozen=True, slots=True)
class ConsumerImpact:
    consumer_id: str
    consumer_version: str
    current_schema_version: str
    """The schema version the consumer was tested against."""
    environment: str
    will_break: bool
    relevant_changes: tuple[BreakingChange, ...]


@dataclass(frozen=True, slots=True)
class CanIDeployResult:
    safe_to_deploy: bool
    summary: str
    breaking_changes: tuple[BreakingChange, ...]
    affected_consumers: tuple[ConsumerImpact, ...]
