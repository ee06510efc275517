"""Capture for ``httpx``: transports that wrap the real one.

    capture = HttpxCapture(validator=validator, auto_validate=True)
    client = httpx.Client(transport=capture.transport())          # or AsyncClient(transport=capture.async_transport())
    client.get("http://127.0.0.1:8000/users/42")
    capture.interactions()

The response body is read once inside the transport and handed on as a fresh in-memory stream, so
the caller reads (and decodes) it as usual. Bodies that are not text-like (or are event streams)
are passed through unread.
"""

from __future__ import annotations

from typing import Any

import httpx

from ..aio import AsyncContractValidator
from ..client import ContractValidator
from ..types import HttpRequest, HttpResponse, Interaction
from ..wire import normalize_headers
from .recorder import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_INTERACTIONS,
    InteractionRecorder,
    ValidationFailureCallback,
    is_capturable_content_type,
    recorded_body,
)


def _request_of(request: httpx.Request, limit: int) -> HttpRequest:
    try:
        content: bytes | None = request.content
    except httpx.RequestNotRead:  # a streamed upload: sent without being recorded
        content = None
    return HttpRequest(
        method=request.method.upper(),
        path=request.url.raw_path.decode("ascii"),
        headers=normalize_headers(request.headers.multi_items()),
        body=recorded_body(content, request.headers.get("content-type"), limit),
    )


def _interaction(request: httpx.Request, response: httpx.Response, body: Any, limit: int) -> Interaction:
    return Interaction(
        request=_request_of(request, limit),
        response=HttpResponse(
            status_code=response.status_code, headers=normalize_headers(response.headers.multi_items()), body=body
        ),
    )


def _decoded(response: httpx.Response, raw: bytes) -> bytes:
    # A throw-away response decodes the raw bytes (gzip, br, ...) as the caller's will.
    copy = httpx.Response(response.status_code, headers=response.headers, stream=httpx.ByteStream(raw))
    return copy.read()


def _replacement(request: httpx.Request, original: httpx.Response, raw: bytes) -> httpx.Response:
    return httpx.Response(
        original.status_code,
        headers=original.headers,
        stream=httpx.ByteStream(raw),
        extensions=original.extensions,
        request=request,
    )


class CapturingTransport(httpx.BaseTransport):
    def __init__(self, recorder: InteractionRecorder, inner: httpx.BaseTransport | None = None) -> None:
        self.recorder = recorder
        self.inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        limit = self.recorder.max_body_bytes
        content_type = response.headers.get("content-type")
        if is_capturable_content_type(content_type):
            try:
                raw = b"".join(response.stream)  # type: ignore[arg-type]
            finally:
                response.close()
            body = recorded_body(_decoded(response, raw), content_type, limit)
            response = _replacement(request, response, raw)
        else:
            body = None
        interaction = _interaction(request, response, body, limit)
        self.recorder.add(interaction)
        self.recorder.validate(interaction)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncCapturingTransport(httpx.AsyncBaseTransport):
    def __init__(self, recorder: InteractionRecorder, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.recorder = recorder
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        limit = self.recorder.max_body_bytes
        content_type = response.headers.get("content-type")
        if is_capturable_content_type(content_type):
            try:
                raw = b"".join([chunk async for chunk in response.stream])  # type: ignore[union-attr]
            finally:
                await response.aclose()
            body = recorded_body(_decoded(response, raw), content_type, limit)
            response = _replacement(request, response, raw)
        else:
            body = None
        interaction = _interaction(request, response, body, limit)
        self.recorder.add(interaction)
        await self.recorder.validate_async(interaction)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class HttpxCapture:
    def __init__(
        self,
        *,
        validator: ContractValidator | AsyncContractValidator | None = None,
        auto_validate: bool = False,
        on_validation_failure: ValidationFailureCallback | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        max_interactions: int = DEFAULT_MAX_INTERACTIONS,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    ) -> None:
        self.recorder = InteractionRecorder(
            validator=validator,
            auto_validate=auto_validate,
            on_validation_failure=on_validation_failure,
            schema_id=schema_id,
            schema_version=schema_version,
            max_interactions=max_interactions,
            max_body_bytes=max_body_bytes,
        )

    def transport(self, inner: httpx.BaseTransport | None = None) -> CapturingTransport:
        """For ``httpx.Client(transport=...)``; ``inner`` is the real transport (default HTTPTransport)."""
        return CapturingTransport(self.recorder, inner)

    def async_transport(self, inner: httpx.AsyncBaseTransport | None = None) -> AsyncCapturingTransport:
        """For ``httpx.AsyncClient(transport=...)``; auto_validate awaits an AsyncContractValidator."""
        return AsyncCapturingTransport(self.recorder, inner)

    def interactions(self) -> list[Interaction]:
        return self.recorder.interactions()

    def clear(self) -> None:
        self.recorder.clear()
