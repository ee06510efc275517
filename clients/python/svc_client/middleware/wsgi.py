"""Producer middleware for WSGI applications (Flask, Django, any PEP 3333 app).

The request body is recorded as the application reads it (strict mode: read ahead, bounded, and
handed to the application from memory); the response body as the application writes it through
``write()`` and as the server iterates it. When the server closes the response iterable (the
response has gone out), the exchange is queued for the background worker.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, Protocol

from .producer_middleware import BoundedBody, ProducerMiddleware, is_encoded, recorded_request
from .request_path import wsgi_request_path
from .validation import REJECTION_CONTENT_TYPE, CapturedRequest, CapturedResponse, ProducerValidation

Environ = dict[str, Any]
ExcInfo = tuple[type[BaseException], BaseException, TracebackType] | tuple[None, None, None]


class StartResponse(Protocol):
    def __call__(
        self, status: str, headers: list[tuple[str, str]], exc_info: ExcInfo | None = ..., /
    ) -> Callable[[bytes], object]: ...


WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]


class _RecordingInput:
    """Wraps ``wsgi.input``: the application reads as usual, a bounded copy is kept."""

    def __init__(self, stream: Any, limit: int) -> None:
        self._stream = stream
        self.body = BoundedBody(limit)

    def _keep(self, data: bytes) -> bytes:
        self.body.add(data)
        return data

    def read(self, size: int = -1) -> bytes:
        return self._keep(self._stream.read(size) if size is not None and size >= 0 else self._stream.read())

    def readline(self, size: int = -1) -> bytes:
        return self._keep(self._stream.readline(size) if size is not None and size >= 0 else self._stream.readline())

    def readlines(self, hint: int = -1) -> list[bytes]:
        return [self._keep(line) for line in self._stream.readlines(hint)]

    def __iter__(self) -> Iterator[bytes]:
        for line in self._stream:
            yield self._keep(line)


class WSGIContractValidationMiddleware(ProducerMiddleware[WSGIApp]):
    """``app.wsgi_app = WSGIContractValidationMiddleware(app.wsgi_app, schema_id=..., validator=...)``."""

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        request_path = wsgi_request_path(environ)
        validation = self.validation
        if not validation.selects(request_path.routed):
            return self.app(environ, start_response)
        limit = validation.max_body_bytes
        path = request_path.written
        method = environ.get("REQUEST_METHOD", "GET")
        request_headers = _request_headers(environ)
        length = _content_length(environ)
        has_body = length > 0 or "HTTP_TRANSFER_ENCODING" in environ

        if validation.mode == "strict":
            if length > limit or "HTTP_TRANSFER_ENCODING" in environ:
                # Too large (or of unknown size) to read ahead: the request goes on unchecked.
                body, complete = b"", False
            else:
                body = environ["wsgi.input"].read(length) if length else b""
                environ["wsgi.input"] = io.BytesIO(body)
                complete = True
            checked = CapturedRequest(method, path, request_headers, body, complete)
            rejection = validation.check_request(checked)
            if rejection is not None:
                payload = rejection.payload()
                start_response(
                    rejection.status_line,
                    [("Content-Type", REJECTION_CONTENT_TYPE), ("Content-Length", str(len(payload)))],
                )
                return [payload]

            def request_at_end() -> CapturedRequest:
                return checked

        else:
            recorder = _RecordingInput(environ["wsgi.input"], limit)
            environ["wsgi.input"] = recorder

            def request_at_end() -> CapturedRequest:
                return recorded_request(method, path, request_headers, recorder.body, has_body)

        response = _RecordingResponse(start_response, limit)
        result = self.app(environ, response.start_response)
        return _ObservedResponse(result, validation, request_at_end, response)


class _RecordingResponse:
    """Wraps ``start_response``: keeps the status, the headers and a bounded copy of the body, which
    comes through the ``write()`` callable it returns (PEP 3333's imperative API) and the returned
    iterable, in the order the server sends them."""

    def __init__(self, start_response: StartResponse, limit: int) -> None:
        self._start_response = start_response
        self.status: int | None = None
        self.headers: list[tuple[str, str]] = []
        self.body = BoundedBody(limit)

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: ExcInfo | None = None
    ) -> Callable[[bytes], object]:
        self.status = int(status.split(" ", 1)[0])
        self.headers = list(headers)
        write = self._start_response(status, headers, exc_info)

        def write_and_record(data: bytes) -> object:
            self.body.add(data)
            return write(data)

        return write_and_record


class _ObservedResponse:
    """The application's iterable, passed through; closing it (the response went out) queues the exchange."""

    def __init__(
        self,
        result: Iterable[bytes],
        validation: ProducerValidation,
        request_at_end: Callable[[], CapturedRequest],
        response: _RecordingResponse,
    ) -> None:
        self._result = result
        self._validation = validation
        self._request_at_end = request_at_end
        self._response = response
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        body = self._response.body
        for chunk in self._result:
            body.add(chunk)
            yield chunk

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            close = getattr(self._result, "close", None)
            if close is not None:
                close()
        finally:
            response = self._response
            if response.status is not None:
                headers, body = response.headers, response.body
                self._validation.after_response(
                    self._request_at_end(),
                    CapturedResponse(response.status, headers, body.content(), not body.overflow and not is_encoded(headers)),
                )


def _request_headers(environ: Environ) -> list[tuple[str, str]]:
    headers = [(key[5:].replace("_", "-").lower(), str(value)) for key, value in environ.items() if key.startswith("HTTP_")]
    if environ.get("CONTENT_TYPE"):
        headers.append(("content-type", environ["CONTENT_TYPE"]))
    if environ.get("CONTENT_LENGTH"):
        headers.append(("content-length", environ["CONTENT_LENGTH"]))
    return headers


def _content_length(environ: Environ) -> int:
    try:
        return max(0, int(environ.get("CONTENT_LENGTH") or 0))
    except ValueError:
        return 0
