"""Serves one of the Users apps behind the producer middleware, over real HTTP on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask

from svc_client.middleware import ContractValidationMiddleware, ProducerValidationStats, WSGIContractValidationMiddleware

from .http_servers import serve_asgi, serve_wsgi
from .svc_server import wait_until
from .users_apps import fastapi_app, flask_app, starlette_app

FRAMEWORKS = ["starlette", "fastapi", "flask"]


@dataclass
class ServedApp:
    base_url: str
    middleware: ContractValidationMiddleware | WSGIContractValidationMiddleware


@contextmanager
def served(framework: str, **options: Any) -> Iterator[ServedApp]:
    """The framework's Users app behind the middleware made with ``options``."""
    app = flask_app() if framework == "flask" else starlette_app() if framework == "starlette" else fastapi_app()
    with served_app(app, **options) as served:
        yield served


@contextmanager
def served_app(app: Any, **options: Any) -> Iterator[ServedApp]:
    """``app`` behind the middleware made with ``options``: a Flask app as WSGI, any other as ASGI."""
    middleware: ContractValidationMiddleware | WSGIContractValidationMiddleware
    if isinstance(app, Flask):
        middleware = WSGIContractValidationMiddleware(app.wsgi_app, **options)
        app.wsgi_app = middleware  # type: ignore[method-assign]
        context = serve_wsgi(app)
    else:
        middleware = ContractValidationMiddleware(app, **options)
        context = serve_asgi(middleware)
    try:
        with context as base_url:
            yield ServedApp(base_url, middleware)
    finally:
        middleware.close()


SETTLE_TIMEOUT_S = 10.0


def settle(
    middleware: ContractValidationMiddleware | WSGIContractValidationMiddleware,
    condition: Callable[[ProducerValidationStats], bool],
) -> ProducerValidationStats:
    """The stats once ``condition`` holds and the queue is empty. A WSGI server hands the exchange
    over when it closes the response, which may come just after the client got its answer."""
    wait_until(lambda: condition(middleware.stats()), SETTLE_TIMEOUT_S)
    middleware.flush(SETTLE_TIMEOUT_S)
    return middleware.stats()
