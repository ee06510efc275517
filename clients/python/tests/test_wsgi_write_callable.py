"""The WSGI middleware records the bytes an application sends through the ``write()`` callable that
``start_response`` returns (PEP 3333's imperative API), in order with the returned iterable and
within ``max_body_bytes``; on real servers (werkzeug, wsgiref)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpx
import pytest

from svc_client import ContractValidator
from svc_client.middleware import ContractViolation, WSGIContractValidationMiddleware

from .http_servers import serve_wsgi, serve_wsgiref
from .middleware_harness import settle

USER = b'{"id": 42, "name": "Ada", "email": "ada@example.com"}'
BROKEN_USER = b'{"id": 42, "name": "Ada"}'
SERVERS = {"werkzeug": serve_wsgi, "wsgiref": serve_wsgiref}


def user_app(written: list[bytes], returned: list[bytes]) -> Callable[[dict[str, Any], Any], Iterable[bytes]]:
    """``GET /users/42``: sends ``written`` through write(), then returns ``returned``."""

    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        write = start_response("200 OK", [("Content-Type", "application/json")])
        for chunk in written:
            write(chunk)
        return returned

    return app


@pytest.fixture
def validator(svc_address: str, users_schema: str) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address) as client:
        yield client


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize(
    ("written", "returned"),
    [
        ([USER[:20], USER[20:30]], [USER[30:]]),  # part written, the rest returned
        ([USER[:20], USER[20:]], []),  # all written, an empty iterable returned
        ([BROKEN_USER], []),  # all written, and it violates the contract
    ],
    ids=["write-then-return", "write-only", "write-only-violating"],
)
def test_written_bytes_are_validated_in_order(
    server: str, written: list[bytes], returned: list[bytes], validator: ContractValidator, users_schema: str
) -> None:
    violations: list[ContractViolation] = []
    middleware = WSGIContractValidationMiddleware(
        user_app(written, returned), schema_id=users_schema, validator=validator, mode="warn", on_violation=violations.append
    )
    try:
        with SERVERS[server](middleware) as base_url:
            answer = httpx.get(f"{base_url}/users/42", timeout=10)
            stats = settle(middleware, lambda s: s.validated == 1)
    finally:
        middleware.close()
    body = b"".join([*written, *returned])
    assert answer.content == body
    violating = body != USER
    assert [any("email" in error for error in v.errors) for v in violations] == ([True] if violating else []), violations
    assert (stats.validated, stats.violations, stats.skipped) == (1, int(violating), 0)


@pytest.mark.parametrize("server", SERVERS)
def test_written_bytes_count_towards_the_body_limit(server: str, validator: ContractValidator, users_schema: str) -> None:
    # Each part is under the limit, the body is not: the exchange is skipped, not validated as a fragment.
    middleware = WSGIContractValidationMiddleware(
        user_app([USER[:30]], [USER[30:]]), schema_id=users_schema, validator=validator, mode="warn", max_body_bytes=40
    )
    try:
        with SERVERS[server](middleware) as base_url:
            assert httpx.get(f"{base_url}/users/42", timeout=10).content == USER
            stats = settle(middleware, lambda s: s.skipped == 1)
    finally:
        middleware.close()
    assert (stats.validated, stats.skipped) == (0, 1)
