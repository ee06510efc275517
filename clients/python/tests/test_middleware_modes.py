"""Each middleware mode on real Starlette, FastAPI and Flask apps served over HTTP: the spec's
behaviour table, path filters, sampling and the violation callback."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest

from svc_client import ContractValidator
from svc_client.middleware import ContractViolation

from .middleware_harness import FRAMEWORKS, served, settle

FLUSH_TIMEOUT_S = 10.0


@pytest.fixture
def validator(svc_address: str, users_schema: str) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address) as client:
        yield client


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_strict_rejects_invalid_requests_and_logs_response_violations_as_errors(
    framework: str, validator: ContractValidator, users_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="svc_client.middleware")
    violations: list[ContractViolation] = []
    with served(framework, schema_id=users_schema, validator=validator, mode="strict", on_violation=violations.append) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            rejected = http.post("/users", json={"name": 5})
            created = http.post("/users", json={"name": "Ada", "email": "ada@example.com"})
            broken = http.get("/users/13")
            fine = http.get("/users/42")
        stats = settle(app.middleware, lambda s: s.validated == 7)  # 4 request checks, 3 response checks

    assert rejected.status_code == 400
    assert rejected.json()["error"] == "Bad Request"
    assert rejected.json()["errors"], "the 400 names what is wrong"
    assert created.status_code == 201
    assert broken.status_code == 200, "a response violation never changes the response"
    assert fine.status_code == 200
    assert [(v.phase, v.method, v.path) for v in violations] == [("request", "POST", "/users"), ("response", "GET", "/users/13")]
    assert violations[1].status_code == 200 and any("email" in error for error in violations[1].errors)
    assert stats.rejected == 1 and stats.violations == 2 and stats.validated == 7 and stats.validator_errors == 0
    levels = [(record.levelname, record.getMessage().split(":")[0]) for record in caplog.records]
    assert ("WARNING", "request rejected") in levels
    assert ("ERROR", "response violates the contract") in levels


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_warn_logs_violations_and_lets_traffic_through(
    framework: str, validator: ContractValidator, users_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="svc_client.middleware")
    with served(framework, schema_id=users_schema, validator=validator, mode="warn") as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            invalid_request = http.post("/users", json={"name": 5})
            broken = http.get("/users/13")
            fine = http.get("/users/42?verbose=1")
        stats = settle(app.middleware, lambda s: s.validated == 3)

    assert invalid_request.status_code == 201 and broken.status_code == 200 and fine.status_code == 200
    assert stats.validated == 3 and stats.violations == 2 and stats.rejected == 0
    warned = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert any(message.startswith("contract violation: POST /users") for message in warned)
    assert any(message.startswith("contract violation: GET /users/13") for message in warned)
    assert all(record.levelname != "ERROR" for record in caplog.records)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_shadow_is_silent_but_counts_and_calls_back(
    framework: str, validator: ContractValidator, users_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="svc_client.middleware")
    violations: list[ContractViolation] = []
    with served(framework, schema_id=users_schema, validator=validator, mode="shadow", on_violation=violations.append) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            assert http.post("/users", json={"name": 5}).status_code == 201
            assert http.get("/users/13").status_code == 200
            assert http.get("/users/42").status_code == 200
        stats = settle(app.middleware, lambda s: s.validated == 3)

    assert stats.violations == 2 and stats.validated == 3
    assert sorted(v.path for v in violations) == ["/users", "/users/13"]
    assert all(v.mode == "shadow" and v.phase == "interaction" for v in violations)
    assert [record for record in caplog.records if record.name.startswith("svc_client")] == []


@pytest.mark.parametrize("framework", ["starlette", "flask"])
def test_include_and_exclude_patterns_and_sampling(framework: str, validator: ContractValidator, users_schema: str) -> None:
    options = {"include_paths": ["/users/**", "/internal/*"], "exclude_paths": ["/internal/**"]}
    with served(framework, schema_id=users_schema, validator=validator, mode="warn", **options) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            for path in ("/users/42", "/users/13", "/health", "/internal/metrics"):
                assert http.get(path).status_code == 200
        filtered = settle(app.middleware, lambda s: s.validated == 2)
    assert (filtered.validated, filtered.violations, filtered.skipped) == (2, 1, 2)

    with served(framework, schema_id=users_schema, validator=validator, mode="strict", sample_rate=0) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            assert http.post("/users", json={"name": 5}).status_code == 201, "unsampled requests are not checked"
        sampled = settle(app.middleware, lambda s: s.skipped == 1)
    assert (sampled.validated, sampled.skipped) == (0, 1)


def test_a_raising_violation_callback_is_logged_and_swallowed(
    validator: ContractValidator, users_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    def explode(violation: ContractViolation) -> None:
        raise RuntimeError("callback bug")

    with served("starlette", schema_id=users_schema, validator=validator, mode="shadow", on_violation=explode) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            assert http.get("/users/13").status_code == 200
            assert app.middleware.flush(FLUSH_TIMEOUT_S)
            assert http.get("/users/42").status_code == 200, "the app still answers"
        assert app.middleware.flush(FLUSH_TIMEOUT_S)
    assert any("on_violation callback raised" in record.getMessage() for record in caplog.records)


def test_fastapi_add_middleware_form(validator: ContractValidator, users_schema: str) -> None:
    from fastapi import FastAPI

    from svc_client.middleware import ContractValidationMiddleware

    from .http_servers import serve_asgi

    violations: list[ContractViolation] = []
    app = FastAPI()

    @app.get("/users/{user_id}")
    async def get_user(user_id: int) -> dict[str, object]:
        return {"id": user_id, "name": "Ada"}  # no email: a response violation

    app.add_middleware(
        ContractValidationMiddleware, schema_id=users_schema, validator=validator, mode="shadow", on_violation=violations.append
    )
    with serve_asgi(app) as base_url:
        assert httpx.get(f"{base_url}/users/5", timeout=10).status_code == 200
        # The middleware instance is built by Starlette; wait on its result through the callback.
        from .svc_server import wait_until

        assert wait_until(lambda: len(violations) == 1, FLUSH_TIMEOUT_S)
    assert violations[0].path == "/users/5"
