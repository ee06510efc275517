"""In shadow and warn mode a request body the application never read (a handler that answers without
it) is unknown: the exchange's response is checked alone, as in strict mode. Such an exchange was
skipped, so a wrong response from that handler went unreported. On a real Starlette app under
uvicorn (ASGI) and a real Flask app under werkzeug (WSGI)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from flask import Flask, jsonify, request as flask_request
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from svc_client import ContractValidator
from svc_client.middleware import ContractViolation

from .middleware_harness import served_app, settle

CREATED = {"id": 7, "name": "Ada", "email": "ada@example.com"}
WRONG = {"id": "seven", "name": "Ada", "email": "ada@example.com"}  # id must be an integer


def answer(wrong: bool) -> dict[str, Any]:
    return WRONG if wrong else CREATED


def starlette_app() -> Starlette:
    async def create_user(request: Request) -> Response:
        # No `await request.json()`: the body is never read.
        return JSONResponse(answer(request.headers.get("x-answer") == "wrong"), status_code=201)

    return Starlette(routes=[Route("/users", create_user, methods=["POST"])])


def flask_app() -> Flask:
    app = Flask("unread")

    @app.post("/users")
    def create_user() -> Any:
        # No `request.get_json()`: the body is never read.
        return jsonify(answer(flask_request.headers.get("x-answer") == "wrong")), 201

    return app


@pytest.fixture
def validator(svc_address: str, users_schema: str) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address) as client:
        yield client


@pytest.mark.parametrize("mode", ["shadow", "warn"])
@pytest.mark.parametrize("framework", ["starlette", "flask"])
def test_an_unread_request_body_leaves_the_response_checked_alone(
    framework: str, mode: str, validator: ContractValidator, users_schema: str
) -> None:
    violations: list[ContractViolation] = []
    app = flask_app() if framework == "flask" else starlette_app()
    with served_app(app, schema_id=users_schema, validator=validator, mode=mode, on_violation=violations.append) as served:
        middleware = served.middleware
        with httpx.Client(base_url=served.base_url, timeout=10) as http:
            assert http.post("/users", json={"name": "Ada"}).status_code == 201
            valid = settle(middleware, lambda s: s.validated + s.skipped == 1)
            assert (valid.validated, valid.violations, valid.skipped) == (1, 0, 0), "before, the exchange was skipped"
            assert violations == []

            # The response is still checked.
            assert http.post("/users", json={"name": "Ada"}, headers={"x-answer": "wrong"}).status_code == 201
            stats = settle(middleware, lambda s: s.validated + s.skipped == 2)
    assert (stats.validated, stats.violations, stats.skipped) == (2, 1, 0)
    assert [(v.phase, v.status_code) for v in violations] == [("response", 201)]
    assert any("/id" in error for error in violations[0].errors), violations[0].errors
