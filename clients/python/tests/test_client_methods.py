"""Every method of the sync and async clients against the session's real server."""

from __future__ import annotations

import asyncio

import pytest

from svc_client import (
    AsyncContractValidator,
    BreakingChangeType,
    ConsumerRegistration,
    ContractValidator,
    ContractValidatorError,
    EndpointUsage,
    HttpRequest,
    HttpResponse,
    Interaction,
)

from .conftest import DOCUMENTS

VALID = Interaction(
    HttpRequest("GET", "/users/42", {"accept": "application/json"}),
    HttpResponse(200, {"content-type": "application/json"}, {"id": 42, "name": "Ada", "email": "ada@example.com"}),
)
INVALID = Interaction(HttpRequest("GET", "/users/42"), HttpResponse(200, {}, {"id": "forty-two"}))


def test_schema_registry_and_validation(svc_address: str, schema_id: str) -> None:
    with ContractValidator(svc_address) as client:
        registration = client.register_schema_with_version(schema_id, DOCUMENTS / "users-v1.yaml", "1.0.0")
        assert registration.metadata.schema_version == "1.0.0" and client.schema_id == schema_id
        content = client.get_schema(schema_id)
        assert content is not None and content.content == (DOCUMENTS / "users-v1.yaml").read_text()
        assert client.get_schema(schema_id, "9.9.9") is None
        assert schema_id in [schema.schema_id for schema in client.list_schemas(page_size=1000).schemas]

        assert client.validate(VALID.request, VALID.response).valid
        failed = client.validate({"method": "GET", "path": "/users/42"}, {"status_code": 200, "body": {"id": "x"}})
        assert not failed.valid and failed.errors and failed.validated_against_version == "1.0.0"
        assert not client.validate_request({"method": "POST", "path": "/users", "body": {"name": 5}}).valid
        assert client.validate_producer_response("GET", "/users/42", VALID.response).valid
        assert not client.validate_producer_response("GET", "/users/42", INVALID.response).valid

        batch = [VALID if index % 3 else INVALID for index in range(50)]
        results = client.validate_many(batch)
        assert [result.valid for result in results] == [index % 3 != 0 for index in range(50)]
        assert client.validate_many([]) == []


def test_compare_generate_endpoints(svc_address: str, schema_id: str) -> None:
    with ContractValidator(svc_address) as client:
        client.register_schema_with_version(schema_id, DOCUMENTS / "users-v1.yaml", "1.0.0")
        client.register_schema(schema_id, DOCUMENTS / "users-v2.yaml", check_compatibility=True)
        comparison = client.compare_schemas(schema_id, "1.0.0", "2.0.0")
        assert not comparison.compatible
        kinds = {change.type for change in comparison.breaking_changes}
        assert {BreakingChangeType.ENDPOINT_REMOVED, BreakingChangeType.TYPE_CHANGED} <= kinds
        with pytest.raises(ContractValidatorError) as unknown:
            client.compare_schemas(schema_id, "0.0.1", "2.0.0")
        assert unknown.value.code == "REJECTED"

        fixture = client.generate_fixture("GET", "/users/{id}", schema_version="1.0.0")
        assert fixture.response.status_code == 200 and {"id", "name", "email"} <= set(fixture.response.body)
        assert client.generate_response("GET", "/users/{id}", status_code=200).status_code == 200
        body = client.generate_request_body("POST", "/users")
        assert {"name", "email"} <= set(body)
        paths = {(endpoint.method, endpoint.path) for endpoint in client.list_endpoints(schema_version="1.0.0")}
        assert ("GET", "/health") in paths and ("GET", "/users/{id}") in paths
        with pytest.raises(ContractValidatorError) as no_path:
            client.generate_fixture("GET", "/nowhere")
        assert no_path.value.code == "REJECTED"


def test_consumers_and_can_i_deploy(svc_address: str, schema_id: str) -> None:
    with ContractValidator(svc_address) as client:
        client.register_schema_with_version(schema_id, DOCUMENTS / "users-v1.yaml", "1.0.0")
        info = client.register_consumer_from_interactions(
            [VALID, Interaction(HttpRequest("GET", "/health"), HttpResponse(200, {}, {"status": "ok"}))],
            consumer_id="web",
            consumer_version="1.0.0",
            environment="prod",
        )
        assert [(usage.path, usage.used_fields) for usage in info.used_endpoints] == [
            ("/health", ("status",)),
            ("/users/{id}", ("email", "id", "name")),
        ]
        client.register_consumer(
            ConsumerRegistration("mobile", "2.0.0", schema_id, "1.0.0", "staging", (EndpointUsage("GET", "/users/{id}", ("id",)),))
        )
        assert [consumer.consumer_id for consumer in client.list_consumers(schema_id, "prod")] == ["web"]
        client.register_schema_with_version(schema_id, DOCUMENTS / "users-v2.yaml", "2.0.0")
        verdict = client.can_i_deploy(schema_id, "2.0.0", "prod")
        assert not verdict.safe_to_deploy and verdict.affected_consumers[0].consumer_id == "web"
        client.deregister_consumer("web", schema_id, "prod")
        assert client.list_consumers(schema_id, "prod") == []
        assert client.can_i_deploy(schema_id, "2.0.0", "prod").safe_to_deploy


def test_misuse_and_close(svc_address: str) -> None:
    client = ContractValidator(svc_address)
    with pytest.raises(ContractValidatorError) as unbound:
        client.validate(VALID.request, VALID.response)
    assert unbound.value.code == "FAILED_PRECONDITION"
    with pytest.raises(ContractValidatorError) as bad:
        client.validate(HttpRequest("", "/x"), VALID.response, schema_id="any")
    assert bad.value.code == "INVALID_ARGUMENT"
    with pytest.raises(ContractValidatorError) as invalid_document:
        client.register_schema("py-invalid", DOCUMENTS / "users-v1.yaml", version="not-a-version")
    assert invalid_document.value.code in ("REJECTED", "INVALID_ARGUMENT")
    client.close()
    client.close()
    with pytest.raises(ContractValidatorError) as closed:
        client.list_consumers("any")
    assert closed.value.code == "FAILED_PRECONDITION"


def test_async_client_gives_the_same_answers(svc_address: str, schema_id: str) -> None:
    async def scenario() -> None:
        async with AsyncContractValidator(svc_address) as client:
            await client.register_schema_with_version(schema_id, DOCUMENTS / "users-v1.yaml", "1.0.0")
            assert (await client.validate(VALID.request, VALID.response)).valid
            results = await client.validate_many([VALID, INVALID] * 20)
            assert [result.valid for result in results] == [True, False] * 20
            assert (await client.generate_response("GET", "/health")).body == {"status": "ok"}
            registration = await client.build_consumer_from_interactions([VALID], consumer_id="web", consumer_version="1")
            assert registration.schema_version == "1.0.0" and registration.environment == "dev"
            assert (await client.can_i_deploy(schema_id, "1.0.0")).safe_to_deploy
        with pytest.raises(ContractValidatorError) as closed:
            await client.list_endpoints()
        assert closed.value.code == "FAILED_PRECONDITION"

    asyncio.run(scenario())
