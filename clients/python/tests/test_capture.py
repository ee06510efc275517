"""Capture for requests and httpx against a real Users app over HTTP: recording, auto_validate,
on_validation_failure, list and clear, and the consumer registration built from the capture."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from svc_client import AsyncContractValidator, ContractValidator, ContractValidatorError, Interaction, ValidationResult
from svc_client.capture.httpx_transport import HttpxCapture
from svc_client.capture.requests_adapter import RequestsCapture

from .http_servers import serve_asgi
from .svc_server import closed_port
from .users_apps import starlette_app


@pytest.fixture(scope="module")
def users_api() -> Iterator[str]:
    with serve_asgi(starlette_app()) as base_url:
        yield base_url


@pytest.fixture
def validator(svc_address: str, users_schema: str) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address, schema_id=users_schema) as client:
        yield client


def test_requests_capture_validates_and_builds_a_consumer(users_api: str, validator: ContractValidator) -> None:
    failures: list[tuple[ValidationResult, Interaction]] = []
    capture = RequestsCapture(
        validator=validator, auto_validate=True, on_validation_failure=lambda result, interaction: failures.append((result, interaction))
    )
    with capture.session() as session:
        assert session.get(f"{users_api}/users/42?expand=posts").json()["id"] == 42
        assert session.get(f"{users_api}/users/13").status_code == 200
        assert session.post(f"{users_api}/users", json={"name": "Ada", "email": "ada@example.com"}).status_code == 201
    interactions = capture.interactions()
    assert [(i.request.method, i.request.path, i.response.status_code) for i in interactions] == [
        ("GET", "/users/42?expand=posts", 200),
        ("GET", "/users/13", 200),
        ("POST", "/users", 201),
    ]
    assert interactions[2].request.body == {"name": "Ada", "email": "ada@example.com"}
    assert [i.validation.valid if i.validation else None for i in interactions] == [True, False, True]
    assert [interaction.request.path for _, interaction in failures] == ["/users/13"]

    registration = validator.build_consumer_from_interactions(interactions, consumer_id="web", consumer_version="1.0.0")
    assert [(u.method, u.path, u.used_fields) for u in registration.used_endpoints] == [
        ("POST", "/users", ("email", "id", "name")),
        ("GET", "/users/{id}", ("email", "id", "name")),
    ]
    capture.clear()
    assert capture.interactions() == []


def test_httpx_capture_sync_keeps_the_response_readable(users_api: str, validator: ContractValidator) -> None:
    capture = HttpxCapture(validator=validator, auto_validate=True)
    with httpx.Client(transport=capture.transport(), base_url=users_api) as client:
        response = client.get("/users/42", headers={"accept-encoding": "gzip"})
        assert response.json() == {"id": 42, "name": "Ada", "email": "ada@example.com"}
        assert client.get("/internal/metrics").text == "requests 1\n"
    first, second = capture.interactions()
    assert first.response.body == {"id": 42, "name": "Ada", "email": "ada@example.com"}
    assert first.validation is not None and first.validation.valid
    assert second.response.body == "requests 1\n"
    assert second.validation is not None and not second.validation.valid  # not in the contract


def test_httpx_capture_async_with_the_async_validator(users_api: str, svc_address: str, users_schema: str) -> None:
    async def scenario() -> list[Interaction]:
        async with AsyncContractValidator(svc_address, schema_id=users_schema) as validator:
            capture = HttpxCapture(validator=validator, auto_validate=True)
            async with httpx.AsyncClient(transport=capture.async_transport(), base_url=users_api) as client:
                assert (await client.get("/users/13")).json()["id"] == 13
                assert (await client.get("/health")).json() == {"status": "ok"}
            info = await validator.register_consumer_from_interactions(
                capture.interactions(), consumer_id="async-web", consumer_version="2.0.0", environment="staging"
            )
            assert [(u.path, u.used_fields) for u in info.used_endpoints] == [
                ("/health", ("status",)),
                ("/users/{id}", ("id", "name")),
            ]
            return capture.interactions()

    interactions = asyncio.run(scenario())
    assert [i.validation.valid if i.validation else None for i in interactions] == [False, True]


def test_auto_validate_raises_when_the_validator_is_down(users_api: str) -> None:
    with ContractValidator(f"127.0.0.1:{closed_port()}", schema_id="users", timeout=2) as down:
        capture = RequestsCapture(validator=down, auto_validate=True)
        with capture.session() as session, pytest.raises(ContractValidatorError) as failure:
            session.get(f"{users_api}/users/42")
    assert failure.value.code == "UNAVAILABLE"
    assert len(capture.interactions()) == 1, "recorded even though it could not be checked"


def test_auto_validate_needs_a_validator() -> None:
    with pytest.raises(ContractValidatorError) as misuse:
        HttpxCapture(auto_validate=True)
    assert misuse.value.code == "INVALID_ARGUMENT"
