"""Captured interactions → a consumer registration.

Each interaction's real path is mapped to the schema's path template, and the response fields seen
are gathered per endpoint. Endpoints and fields come out deduplicated and sorted (code-point order),
so the same traffic always gives the same registration.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

from ..errors import invalid_use
from ..types import ConsumerRegistration, EndpointUsage, Interaction, InteractionLike
from ..wire import as_interaction
from .path_templates import EndpointTemplate, create_endpoint_matcher
from .used_fields import collect_used_fields

DEFAULT_CONSUMER_ENVIRONMENT: Final = "dev"


@dataclass(frozen=True, slots=True)
class ConsumerBuild:
    registration: ConsumerRegistration
    unmatched: tuple[Interaction, ...]
    """Interactions whose method and path match no endpoint of the schema; not registered."""


@dataclass(slots=True)
class _Usage:
    method: str
    path: str
    fields: set[str] = field(default_factory=set)


def build_consumer_registration(
    interactions: Iterable[InteractionLike],
    endpoints: Sequence[EndpointTemplate],
    *,
    consumer_id: str,
    consumer_version: str,
    schema_id: str,
    schema_version: str,
    environment: str | None = None,
) -> ConsumerBuild:
    """Pure: the endpoints are the schema's (ListEndpoints), so this runs without a server."""
    for name, value in (
        ("consumer_id", consumer_id),
        ("consumer_version", consumer_version),
        ("schema_id", schema_id),
        ("schema_version", schema_version),
    ):
        if not isinstance(value, str) or value == "":
            raise invalid_use(f"{name} must be a non-empty string")
    match = create_endpoint_matcher(endpoints)
    usage: dict[tuple[str, str], _Usage] = {}
    unmatched: list[Interaction] = []
    for item in interactions:
        interaction = as_interaction(item)
        endpoint = match(interaction.request.method, interaction.request.path)
        if endpoint is None:
            unmatched.append(interaction)
            continue
        method = endpoint.method.upper()
        entry = usage.setdefault((method, endpoint.path), _Usage(method, endpoint.path))
        collect_used_fields(interaction.response.body, entry.fields)
    used_endpoints = tuple(
        EndpointUsage(method=entry.method, path=entry.path, used_fields=tuple(sorted(entry.fields)))
        for entry in sorted(usage.values(), key=lambda entry: (entry.path, entry.method))
    )
    registration = ConsumerRegistration(
        consumer_id=consumer_id,
        consumer_version=consumer_version,
        schema_id=schema_id,
        schema_version=schema_version,
        environment=environment or DEFAULT_CONSUMER_ENVIRONMENT,
        used_endpoints=used_endpoints,
    )
    return ConsumerBuild(registration=registration, unmatched=tuple(unmatched))
