"""A validator that is down or hangs never breaks or slows the application; strict mode fails open
by default and answers 503 with ``fail_open=False``; a full queue drops and counts."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from svc_client import ContractValidator

from .http_servers import silent_listener
from .middleware_harness import FRAMEWORKS, served, settle
from .svc_server import closed_port

FLUSH_TIMEOUT_S = 10.0
SLOW_CALL_TIMEOUT_S = 0.5
REQUESTS = 10


@pytest.fixture
def down_validator() -> Iterator[ContractValidator]:
    with ContractValidator(f"127.0.0.1:{closed_port()}", timeout=2) as client:
        yield client


@pytest.fixture
def hanging_validator() -> Iterator[ContractValidator]:
    with silent_listener() as address, ContractValidator(address) as client:
        yield client


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("mode", ["warn", "shadow"])
def test_background_modes_keep_serving_when_the_validator_is_down(
    framework: str, mode: str, down_validator: ContractValidator
) -> None:
    with served(framework, schema_id="users", validator=down_validator, mode=mode) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            answers = [http.get("/users/42").status_code for _ in range(5)]
        stats = settle(app.middleware, lambda s: s.validator_errors == 5)
    assert answers == [200] * 5
    assert stats.validator_errors == 5 and stats.validated == 0


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_strict_fails_open_by_default_and_closed_on_request(framework: str, down_validator: ContractValidator) -> None:
    with served(framework, schema_id="users", validator=down_validator, mode="strict") as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            assert http.post("/users", json={"name": "Ada", "email": "ada@example.com"}).status_code == 201
        assert settle(app.middleware, lambda s: s.validator_errors == 2).validator_errors == 2  # the request check and the response check

    with served(framework, schema_id="users", validator=down_validator, mode="strict", fail_open=False) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            refused = http.post("/users", json={"name": "Ada", "email": "ada@example.com"})
    assert refused.status_code == 503
    assert refused.json()["error"] == "Service Unavailable"


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_hanging_validator_does_not_slow_warn_mode(framework: str, hanging_validator: ContractValidator) -> None:
    with served(
        framework, schema_id="users", validator=hanging_validator, mode="warn", validation_timeout=SLOW_CALL_TIMEOUT_S
    ) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            http.get("/health")  # warm the connection and the app
            started = time.monotonic()
            for _ in range(REQUESTS):
                assert http.get("/users/42").status_code == 200
            elapsed = time.monotonic() - started
        stats = settle(app.middleware, lambda s: s.validator_errors >= 1)
    # On the request path, each validation would wait its whole validation_timeout: ten of them 5 s.
    # Half of that leaves room for a slow app server on a loaded machine (ten requests to a bare
    # Starlette app under uvicorn took about 0.45 s on a 2-core machine under load).
    assert elapsed < REQUESTS * SLOW_CALL_TIMEOUT_S / 2, f"{REQUESTS} requests took {elapsed:.3f} s"
    assert stats.validator_errors >= 1 and stats.validated == 0


@pytest.mark.parametrize("framework", ["starlette", "flask"])
def test_strict_request_check_is_bounded_by_its_timeout(framework: str, hanging_validator: ContractValidator) -> None:
    with served(
        framework,
        schema_id="users",
        validator=hanging_validator,
        mode="strict",
        request_check_timeout=0.3,
        validation_timeout=SLOW_CALL_TIMEOUT_S,
    ) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            started = time.monotonic()
            answer = http.post("/users", json={"name": "Ada", "email": "ada@example.com"})
            elapsed = time.monotonic() - started
    assert answer.status_code == 201, "fail open: the unchecked request goes on"
    assert 0.25 < elapsed < 2.0


def test_a_full_queue_drops_and_counts(hanging_validator: ContractValidator) -> None:
    with served(
        "starlette",
        schema_id="users",
        validator=hanging_validator,
        mode="shadow",
        max_queue_size=2,
        validation_timeout=SLOW_CALL_TIMEOUT_S,
    ) as app:
        with httpx.Client(base_url=app.base_url, timeout=10) as http:
            for _ in range(20):
                assert http.get("/users/42").status_code == 200
        stats = app.middleware.stats()
        assert app.middleware.flush(FLUSH_TIMEOUT_S)
    assert stats.dropped >= 10, stats
    assert stats.dropped + stats.pending + stats.validator_errors <= 20
