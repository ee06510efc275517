"""The producer middleware validates the path as the client wrote it, percent-encoding and all, on
real servers: uvicorn (Starlette, FastAPI; also behind a root path, and without ``raw_path``), and
werkzeug and wsgiref (Flask). Decoded, ``/files/a%2Fb`` would be ``/files/a/b`` (no such path),
``/files/a%3Fb`` a path and a query, ``/files/50%25`` a malformed escape."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from flask import Flask, jsonify
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from svc_client import ContractValidator
from svc_client.capture.httpx_transport import HttpxCapture
from svc_client.capture.requests_adapter import RequestsCapture
from svc_client.middleware import ContractValidationMiddleware, ContractViolation, WSGIContractValidationMiddleware

from .http_servers import serve_asgi, serve_wsgi, serve_wsgiref
from .middleware_harness import settle

FILES_DOCUMENT = Path(__file__).parent / "documents" / "files-v1.yaml"

# (path as written, the name the application reads)
ENCODED_NAMES = [
    ("/files/plain", "plain"),
    ("/files/a%2Fb", "a/b"),
    ("/files/50%25", "50%"),
    ("/files/a%3Fb?v=2", "a?b"),
    ("/files/a%23b", "a#b"),
    ("/files/%C3%A4%20%C3%B6", "ä ö"),
]
INVALID_NAME = "/files/no%25pe"  # "no%pe" is not one of the names
# Servers whose decoded path is all there is: an encoded "/" cannot be told from a separator.
WITHOUT_RAW_PATH = {"flask-wsgiref", "starlette-without-raw-path"}
SERVERS = ["starlette", "fastapi", "starlette-root-path", "starlette-without-raw-path", "flask", "flask-wsgiref"]

AsgiApp = Any


@pytest.fixture
def validator(svc_address: str, schema_id: str) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address) as client:
        client.register_schema_with_version(schema_id, FILES_DOCUMENT, "1.0.0")
        yield client


def starlette_files() -> Starlette:
    async def get_file(request: Request) -> Response:
        return JSONResponse({"name": request.path_params["name"]})

    # ":path" so that a name holding "/" reaches the handler (routing uses the decoded path).
    return Starlette(routes=[Route("/files/{name:path}", get_file)])


def fastapi_files() -> FastAPI:
    app = FastAPI()

    @app.get("/files/{name:path}")
    async def get_file(name: str) -> dict[str, str]:
        return {"name": name}

    return app


def flask_files() -> Flask:
    app = Flask("files")

    @app.get("/files/<path:name>")
    def get_file(name: str) -> Any:
        return jsonify({"name": name})

    return app


def without_raw_path(app: AsgiApp) -> AsgiApp:
    """A server that gives no ``raw_path`` (the key is optional in ASGI)."""

    async def forward(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await app({key: value for key, value in scope.items() if key != "raw_path"}, receive, send)

    return forward


@contextmanager
def served_files(server: str, **options: Any) -> Iterator[tuple[str, ContractValidationMiddleware | WSGIContractValidationMiddleware]]:
    middleware: ContractValidationMiddleware | WSGIContractValidationMiddleware
    if server.startswith("flask"):
        app = flask_files()
        middleware = WSGIContractValidationMiddleware(app.wsgi_app, **options)
        app.wsgi_app = middleware  # type: ignore[method-assign]
        context = serve_wsgiref(app) if server == "flask-wsgiref" else serve_wsgi(app)
    else:
        middleware = ContractValidationMiddleware(fastapi_files() if server == "fastapi" else starlette_files(), **options)
        if server == "starlette-without-raw-path":
            context = serve_asgi(without_raw_path(middleware))
        else:
            context = serve_asgi(middleware, root_path="/api" if server == "starlette-root-path" else "")
    try:
        with context as base_url:
            yield base_url, middleware
    finally:
        middleware.close()


@pytest.mark.parametrize("server", SERVERS)
def test_strict_mode_checks_the_path_as_written(server: str, validator: ContractValidator, schema_id: str) -> None:
    cases = [(path, name) for path, name in ENCODED_NAMES if not (server in WITHOUT_RAW_PATH and "%2F" in path)]
    violations: list[ContractViolation] = []
    with served_files(server, schema_id=schema_id, validator=validator, mode="strict", on_violation=violations.append) as (
        base_url,
        middleware,
    ):
        with httpx.Client(base_url=base_url, timeout=10) as http:
            answers = [(path, http.get(path)) for path, _ in cases]
            rejected = http.get(INVALID_NAME)
        # Each valid exchange: the request before the handler, the response after it; the invalid one: its request.
        stats = settle(middleware, lambda s: s.validated == 2 * len(cases) + 1)

    prefix = "/api" if server == "starlette-root-path" else ""
    assert [(path, answer.status_code, answer.json()) for path, answer in answers] == [
        (path, 200, {"name": name}) for path, name in cases
    ]
    assert rejected.status_code == 400
    assert [(v.phase, v.path) for v in violations] == [("request", prefix + INVALID_NAME)], [v.errors for v in violations]
    assert (stats.validated, stats.violations, stats.rejected, stats.validator_errors) == (2 * len(cases) + 1, 1, 1, 0)


@pytest.mark.parametrize("server", ["starlette", "flask"])
def test_warn_mode_validates_the_path_as_written(server: str, validator: ContractValidator, schema_id: str) -> None:
    violations: list[ContractViolation] = []
    with served_files(server, schema_id=schema_id, validator=validator, mode="warn", on_violation=violations.append) as (
        base_url,
        middleware,
    ):
        with httpx.Client(base_url=base_url, timeout=10) as http:
            assert all(http.get(path).status_code == 200 for path, _ in ENCODED_NAMES)
        stats = settle(middleware, lambda s: s.validated == len(ENCODED_NAMES))
    assert [(v.path, v.errors) for v in violations] == []
    assert (stats.validated, stats.violations) == (len(ENCODED_NAMES), 0)


def test_filters_match_the_path_the_application_routes(validator: ContractValidator, schema_id: str) -> None:
    # Decoded, "/files/a%2Fb" has two segments below /files: "/files/*" leaves it out, "/files/**" takes it.
    for include, validated in ((["/files/*"], 1), (["/files/**"], 2)):
        options = {"include_paths": include}
        with served_files("starlette", schema_id=schema_id, validator=validator, mode="warn", **options) as (base_url, middleware):
            with httpx.Client(base_url=base_url, timeout=10) as http:
                assert http.get("/files/plain").status_code == 200
                assert http.get("/files/a%2Fb").status_code == 200
            stats = settle(middleware, lambda s: s.validated + s.skipped == 2)
        assert (stats.validated, stats.skipped, stats.violations) == (validated, 2 - validated, 0)


def test_capture_records_the_path_as_written(validator: ContractValidator, schema_id: str) -> None:
    with serve_asgi(starlette_files()) as base_url:
        httpx_capture = HttpxCapture(validator=validator, schema_id=schema_id, auto_validate=True)
        with httpx.Client(base_url=base_url, transport=httpx_capture.transport(), timeout=10) as http:
            for path, _ in ENCODED_NAMES:
                http.get(path)
        requests_capture = RequestsCapture(validator=validator, schema_id=schema_id, auto_validate=True)
        with requests_capture.session() as session:
            for path, _ in ENCODED_NAMES:
                session.get(base_url + path, timeout=10)
    for capture in (httpx_capture, requests_capture):
        interactions = capture.interactions()
        assert [interaction.request.path for interaction in interactions] == [path for path, _ in ENCODED_NAMES]
        assert all(interaction.validation is not None and interaction.validation.valid for interaction in interactions)
