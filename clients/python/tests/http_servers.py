"""Real HTTP servers on 127.0.0.1 for the tests: ASGI apps under uvicorn and WSGI apps under
werkzeug (or the standard library's wsgiref), each in a thread, plus a TCP listener that accepts
connections and never answers (a validator that hangs)."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server as make_wsgiref_server

import uvicorn
from werkzeug.serving import make_server

from .svc_server import wait_until

START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0


@contextmanager
def serve_asgi(app: Any, root_path: str = "") -> Iterator[str]:
    """Serves ``app`` with uvicorn on a free loopback port; yields its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False, root_path=root_path))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    try:
        if not wait_until(lambda: server.started, START_TIMEOUT_S):
            raise RuntimeError("uvicorn did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(STOP_TIMEOUT_S)
        sock.close()


@contextmanager
def serve_wsgi(app: Any) -> Iterator[str]:
    """Serves ``app`` with werkzeug's threaded server on a free loopback port; yields its base URL."""
    with _serving_in_thread(make_server("127.0.0.1", 0, app, threaded=True)) as base_url:
        yield base_url


class _QuietWSGIRequestHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_wsgiref(app: Any) -> Iterator[str]:
    """Serves ``app`` with wsgiref (one request at a time; no ``REQUEST_URI``, only the decoded path
    PEP 3333 asks for); yields its base URL."""
    with _serving_in_thread(make_wsgiref_server("127.0.0.1", 0, app, handler_class=_QuietWSGIRequestHandler)) as base_url:
        yield base_url


@contextmanager
def _serving_in_thread(server: Any) -> Iterator[str]:
    """Runs a ``socketserver``-style WSGI server (werkzeug's, wsgiref's) on a thread; yields its base URL."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(STOP_TIMEOUT_S)
        server.server_close()


@contextmanager
def silent_listener() -> Iterator[str]:
    """A loopback port that accepts TCP connections and never sends a byte: every gRPC call to it
    waits until its deadline. Yields its address."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            held.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(STOP_TIMEOUT_S)
        for connection in held:
            connection.close()
        listener.close()
